// The analytics page (issue 28, parts 4 and 6; docs/analytics.md "Screens") on the demo organization
// (supabase/seed.sql: two templates, a dozen sites in two time zones, schedules that have run for
// four weeks, actions in every state), as its manager sees it, in real Chromium at 1280 and 390 px:
// every figure in the tables is a link, and the list it opens counts exactly that many rows; the
// charts (uPlot's canvas) are drawn, and a click or a tap on a point or a bar opens the same list as
// its figure in the table; the filters live in the address and survive a reload; on a phone the
// measures stack, a chart wider than the screen scrolls sideways inside its panel and the page does
// not, and the keyboard does not stop in the hidden chart; and axe finds nothing to fix. Offline, a
// changed filter says the figures need the internet instead of showing the old ones; a site in the
// address the caller cannot see is said so, with a way to drop it; and the tidied address keeps the
// sections' own choices.
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phone, useBrowser } from './support.ts';

const { openPage } = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const DEMO = { slug: 'harbor-foods', manager: 'manager@demo.fieldcheck.test', password: 'fieldcheck-demo-1' };

async function signInAsDemoManager(page: Page) {
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill(DEMO.manager);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(new RegExp(`/o/${DEMO.slug}$`));
}

/** The count a list screen says it shows ("7 inspections", "No actions match…"), once loaded; a list of more than a page fails. */
async function listedCount(page: Page, noun: 'inspections' | 'actions'): Promise<number> {
  const area = noun === 'actions' ? page.getByRole('region', { name: 'All actions' }) : page.getByRole('main');
  const status = area.getByRole('status').filter({ hasText: new RegExp(`^(\\d+\\+? (inspection|action)s?|No ${noun} match these filters\\.)$`) });
  const text = (await status.textContent())!;
  expect(text, 'a figure links to more rows than one page of its list').not.toContain('+');
  return /^No /.test(text) ? 0 : Number(text.split(' ')[0]);
}

/** A table's figure links: their number and where they go. */
async function figureLinks(table: Locator): Promise<Array<{ figure: number; href: string; name: string }>> {
  const links = table.locator('td a');
  await links.first().waitFor();
  const found: Array<{ figure: number; href: string; name: string }> = [];
  for (let i = 0; i < (await links.count()); i++) {
    const link = links.nth(i);
    const text = (await link.textContent())!.trim();
    // "3 of 4" (a site's on time): the figure is the first number.
    found.push({ figure: Number(text.split(' ')[0].replace(/,/g, '')), href: (await link.getAttribute('href'))!, name: (await link.getAttribute('aria-label')) ?? text });
  }
  return found;
}

/** Opens each link (the non-zero ones, and a zero one) and holds the list's count to the figure. */
async function expectFiguresEqualLists(page: Page, table: Locator, noun: 'inspections' | 'actions', atMost = 6): Promise<number> {
  const links = await figureLinks(table);
  const nonZero = links.filter((link) => link.figure > 0).slice(0, atMost);
  const zero = links.find((link) => link.figure === 0);
  const chosen = zero ? [...nonZero, zero] : nonZero;
  const back = page.url();
  for (const link of chosen) {
    await page.goto(link.href);
    expect(await listedCount(page, noun), `${link.name} → ${link.href}`).toBe(link.figure);
  }
  await page.goto(back);
  await table.locator('td a').first().waitFor();
  return nonZero.length;
}

function measure(page: Page, heading: string): Locator {
  return page.getByRole('region', { name: heading });
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** Whether a measure's chart is drawn: its canvas has a size and pixels that are not blank. */
async function drawnPixels(region: Locator): Promise<number> {
  const canvas = region.locator('.chart canvas');
  expect(await canvas.count()).toBe(1);
  return await canvas.evaluate((element: HTMLCanvasElement) => {
    if (element.width === 0 || element.height === 0) return 0;
    const pixels = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
    return painted;
  });
}

/**
 * Where on a measure's chart the pointer rests on what `wanted` describes: the pointer is moved
 * along the middle of the plot, right to left (the latest periods first), through the part of the
 * chart on the screen — then, on a phone, the chart is swiped back and the rest searched — until
 * the chart says (its line above the canvas) what it points at.
 */
async function pointerOn(page: Page, region: Locator, wanted: RegExp): Promise<{ x: number; y: number }> {
  const over = region.locator('.chart .u-over');
  const scroller = region.locator('.chart-scroll');
  const readout = region.locator('.chart-readout');
  await over.scrollIntoViewIfNeeded();
  const said: string[] = [];
  for (;;) {
    const plot = (await over.boundingBox())!;
    const shown = (await scroller.boundingBox())!;
    const y = plot.y + plot.height / 2;
    for (let x = Math.min(plot.x + plot.width, shown.x + shown.width) - 1; x > Math.max(plot.x, shown.x); x -= 2) {
      await page.mouse.move(x, y);
      const text = (await readout.textContent())!;
      if (wanted.test(text)) return { x, y };
      if (said.at(-1) !== text) said.push(text);
    }
    const swiped = await scroller.evaluate((element) => {
      if (element.scrollLeft === 0) return false;
      element.scrollLeft = Math.max(0, element.scrollLeft - element.clientWidth / 2);
      return true;
    });
    if (!swiped) throw new Error(`the chart never said ${wanted} (it said: ${said.join(' | ')})`);
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const loaded = (region: Locator) => region.getByRole('table').or(region.getByText(/^No .* in this range\.$/)).first().waitFor();

describe('the analytics page at 1280 px', () => {
  it('shows every measure of the demo organization, each figure equal to the list it links to', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    await page.getByRole('navigation', { name: 'Harbor Foods Group' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    // By month: the demo's four weeks of work fall in one or two months.
    await page.getByLabel('Interval', { exact: true }).selectOption('month');
    await page.waitForURL(/interval=month/);

    const scores = measure(page, 'Average score');
    const onTime = measure(page, 'On-time rate');
    const failed = measure(page, 'Most failed items');
    const actions = measure(page, 'Corrective actions');
    const sites = measure(page, 'Sites');
    for (const region of [scores, onTime, failed, actions, sites]) await loaded(region);

    // The demo has submitted inspections, occurrences due, failed items, actions and sites to rank.
    expect(await expectFiguresEqualLists(page, scores.getByRole('table'), 'inspections')).toBeGreaterThan(0);
    expect(await expectFiguresEqualLists(page, onTime.getByRole('table'), 'inspections')).toBeGreaterThan(0);
    expect(await expectFiguresEqualLists(page, failed.getByRole('table'), 'inspections')).toBeGreaterThan(0);
    expect(await expectFiguresEqualLists(page, actions.getByRole('table'), 'actions', 8)).toBeGreaterThan(0);
    expect(await expectFiguresEqualLists(page, sites.getByRole('table'), 'inspections')).toBeGreaterThan(0);

    // Per site, and for one priority: the view is in the address too, and its figures still match.
    await failed.getByLabel('Items').selectOption('site');
    await page.waitForURL(/failed_by=site/);
    await failed.getByRole('columnheader', { name: 'Template and site' }).waitFor();
    expect(await expectFiguresEqualLists(page, failed.getByRole('table'), 'inspections', 3)).toBeGreaterThan(0);
    await actions.getByLabel('Priority').selectOption('high');
    await page.waitForURL(/priority=high/);
    await actions.getByRole('table', { name: /high priority/ }).waitFor();
    await expectFiguresEqualLists(page, actions.getByRole('table'), 'actions', 4);

    // The charts are drawn (a canvas each, uPlot's), hidden from assistive technology: the tables say it.
    for (const region of [scores, onTime, actions]) {
      expect(await drawnPixels(region)).toBeGreaterThan(0);
      expect(await region.locator('.chart').getAttribute('aria-hidden')).toBe('true');
    }
    // A click on a point of the score line opens the same list as its row of the table: the latest
    // period with a score.
    const scoreRows = scores.getByRole('table').locator('tbody tr');
    let scored = (await scoreRows.count()) - 1;
    while ((await scoreRows.nth(scored).locator('td').first().textContent()) === '–') scored--;
    const period = (await scoreRows.nth(scored).locator('th').textContent())!;
    const rowHref = (await scoreRows.nth(scored).locator('a').getAttribute('href'))!;
    const point = await pointerOn(page, scores, new RegExp(`^${escaped(period)}: `));
    await page.mouse.click(point.x, point.y);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === rowHref);
    await page.getByText(/^As an analytics figure counts them: inspections submitted/).waitFor();
    await page.goBack();
    await scores.getByRole('table').waitFor();

    expect(await axeViolations(page)).toEqual([]);

    // The chart follows its box (a ResizeObserver): at 1000 px the measures stand one under the
    // other, the score chart's box is wider, and so is its canvas — as wide as the box.
    const chartBox = scores.locator('.chart-scroll');
    const widths = () => chartBox.evaluate((box) => ({ box: box.clientWidth, chart: Math.round(box.querySelector('.uplot')!.getBoundingClientRect().width) }));
    const wide = await widths();
    expect(wide.chart).toBe(wide.box);
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect.poll(async () => (await widths()).chart).toBeGreaterThan(wide.chart);
    const stacked = await widths();
    expect(stacked.chart).toBe(stacked.box);
  });

  it('keeps its filters in the address: a reload, or the link sent to someone, shows the same view', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    await page.goto(`/o/${DEMO.slug}/analytics`);
    await page.getByLabel('From', { exact: true }).fill('2026-01-05');
    await page.waitForURL(/from=2026-01-05/);
    await page.getByLabel('To', { exact: true }).fill('2026-12-31');
    await page.waitForURL(/to=2026-12-31/);
    await page.getByLabel('Interval', { exact: true }).selectOption('month');
    const template = page.getByLabel('Template', { exact: true });
    await expect.poll(() => template.locator('option').count()).toBeGreaterThan(1);
    const chosen = await template.locator('option').nth(1).getAttribute('value');
    await template.selectOption(chosen!);
    await page.waitForURL(new RegExp(`template=${chosen}`));
    await measure(page, 'Sites').getByLabel('Order').selectOption('score_change');
    await page.waitForURL(/rank=score_change/);
    const address = page.url();

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    expect(page.url()).toBe(address);
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('2026-01-05');
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-12-31');
    expect(await page.getByLabel('Interval', { exact: true }).inputValue()).toBe('month');
    expect(await page.getByLabel('Template', { exact: true }).inputValue()).toBe(chosen);
    expect(await measure(page, 'Sites').getByLabel('Order').inputValue()).toBe('score_change');
    await page.getByText(/^From 5 Jan 2026 to 31 Dec 2026, by month/).waitFor();
    // Every period row is a month of the range.
    const periods = await measure(page, 'Average score').getByRole('table').locator('tbody th').allTextContents();
    expect(periods).toHaveLength(12);
    expect(periods[0]).toBe('Jan 2026');

    // An address with what the api would refuse: said so, and the rest still applies.
    await page.goto(`/o/${DEMO.slug}/analytics?from=2026-02-30&interval=fortnight&template=${chosen}`);
    await page.getByRole('status').filter({ hasText: 'Some of the address was not used: from (not a date (YYYY-MM-DD)), interval (use week or month).' }).waitFor();
    expect(await page.getByLabel('Template', { exact: true }).inputValue()).toBe(chosen);
    expect(await page.getByLabel('Interval', { exact: true }).inputValue()).toBe('week');
  });

  it('keeps every choice when they come faster than the page shows the first', async () => {
    // Three choices in one task, as a quick hand (or a slow phone) makes them: each is written over
    // the address as it is, not over the filters the page last showed (which were still the old ones).
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    await page.goto(`/o/${DEMO.slug}/analytics?from=2026-01-05`);
    const template = page.getByLabel('Template', { exact: true });
    await expect.poll(() => template.locator('option').count()).toBeGreaterThan(1);
    const chosen = (await template.locator('option').nth(1).getAttribute('value'))!;
    await page.evaluate((templateId) => {
      const choose = (name: string, value: string) => {
        const select = document.querySelector<HTMLSelectElement>(`select[name="${name}"]`)!;
        // The native setter, as a browser's own choice sets it (React reads the change from it).
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
        select.dispatchEvent(new Event('change', { bubbles: true }));
      };
      choose('interval', 'month');
      choose('template', templateId);
      choose('rank', 'score_change');
    }, chosen);
    await page.waitForURL(/rank=score_change/);
    const address = new URL(page.url()).searchParams;
    expect(Object.fromEntries(address)).toEqual({ from: '2026-01-05', interval: 'month', template: chosen, rank: 'score_change' });
    await page.getByText(/^From 5 Jan 2026 to .*, by month/).waitFor();
  });
});

describe('the analytics page offline and with an address that does not fit', () => {
  it('offline, a changed filter says the new figures need the internet, not the old ones; back online, the new figures', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    await page.goto(`/o/${DEMO.slug}/analytics`);
    const scores = measure(page, 'Average score');
    await scores.getByRole('table').waitFor();
    expect(await scores.getByRole('table').locator('tbody th').first().textContent()).toMatch(/^Week of /);

    // The service worker has the whole app on the device (for the offline reload below).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await page.context().setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    await page.getByLabel('Interval', { exact: true }).selectOption('month');
    await page.waitForURL(/interval=month/);
    // The week's figures are not drawn as if they were the month's: each measure says what to do.
    for (const heading of ['Average score', 'On-time rate', 'Most failed items', 'Corrective actions', 'Sites']) {
      const region = measure(page, heading);
      await region.getByRole('status').filter({ hasText: /^The figures for these filters aren't on this device yet\. Connect to the internet to see them\.$/ }).waitFor();
      expect(await region.getByRole('table').count(), heading).toBe(0);
      expect(await region.locator('.chart').count(), heading).toBe(0);
    }
    // Nor is the range the old one.
    expect(await page.getByText(/^From .*, by week,/).count()).toBe(0);

    // Opened afresh offline (the app from the service worker; no figures of the page are kept on
    // the device): the same sentence at once in every section, not "Loading…" for ever.
    await page.reload();
    for (const heading of ['Average score', 'On-time rate', 'Most failed items', 'Corrective actions', 'Sites']) {
      await measure(page, heading).getByRole('status').filter({ hasText: /^The figures for these filters aren't on this device yet\. Connect to the internet to see them\.$/ }).waitFor({ timeout: 2000 });
    }
    expect(await page.getByText(/^Loading .*…$/).count()).toBe(0);

    await page.context().setOffline(false);
    await expect.poll(() => scores.getByRole('table').locator('tbody th').first().textContent()).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
    await page.getByText(/^From .*, by month,/).waitFor();
    expect(await scores.getByRole('status').filter({ hasText: /Connect to the internet/ }).count()).toBe(0);
  });

  it('says a site in the address was not found, keeps it chosen until dropped, and drops it on request', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    const unknownSite = '0d000000-0000-4000-8000-00000000beef';
    await page.goto(`/o/${DEMO.slug}/analytics?site=${unknownSite}`);
    const alert = page.getByRole('alert').filter({ hasText: "We couldn't find that site." });
    await alert.waitFor();
    // The select does not pretend to show every site while the figures are of one.
    const site = page.getByLabel('Site', { exact: true });
    expect(await site.inputValue()).toBe(unknownSite);
    expect(await site.locator('option:checked').textContent()).toBe('Unknown site');
    await alert.getByRole('button', { name: 'Show every site' }).click();
    await page.waitForURL((url) => !url.searchParams.has('site'));
    expect(await site.inputValue()).toBe('');
    expect(await alert.count()).toBe(0);
  });

  it("tidies the address keeping the sections' own choices", async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInAsDemoManager(page);
    await page.goto(`/o/${DEMO.slug}/analytics?from=2026-02-30&interval=month&failed_by=site&priority=high&rank=score_change`);
    await page.getByRole('status').filter({ hasText: 'Some of the address was not used: from' }).getByRole('link', { name: 'Tidy the address' }).click();
    await page.waitForURL((url) => !url.searchParams.has('from'));
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ interval: 'month', failed_by: 'site', priority: 'high', rank: 'score_change' });
    expect(await measure(page, 'Sites').getByLabel('Order').inputValue()).toBe('score_change');
    expect(await measure(page, 'Corrective actions').getByLabel('Priority').inputValue()).toBe('high');
  });
});

describe('the analytics page at 390 px', () => {
  it('stacks the measures, swipes a chart sideways inside its panel, and its figures still open their lists', async () => {
    const page = await openPage(phone());
    await signInAsDemoManager(page);
    await page.getByRole('navigation', { name: 'Harbor Foods Group' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('navigation', { name: 'More' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    const scores = measure(page, 'Average score');
    const onTime = measure(page, 'On-time rate');
    for (const region of [scores, onTime, measure(page, 'Most failed items'), measure(page, 'Corrective actions'), measure(page, 'Sites')]) await loaded(region);

    // Stacked: one measure under the other, each within the screen.
    const [first, second] = [await scores.boundingBox(), await onTime.boundingBox()];
    expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height);
    expect(first!.x + first!.width).toBeLessThanOrEqual(390);
    // Twelve weeks are wider than the screen: the chart scrolls sideways inside its panel, the page does not.
    const scroller = scores.locator('.chart-scroll');
    const widths = await scroller.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    // It opens on the latest weeks, and swipes back to the earlier ones.
    expect(await scroller.evaluate((element) => element.scrollLeft)).toBe(widths.scroll - widths.client);
    await scroller.hover();
    await page.mouse.wheel(-600, 0);
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeLessThan(widths.scroll - widths.client);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1)).toBe(false);
    // The scroll box is inside the chart hidden from assistive technology (the table says it): the
    // keyboard goes from the section's download button to the table's first figure, not into it.
    await scores.getByRole('button', { name: /^Download average score/ }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.chart') !== null)).toBe(false);

    // A tap on a bar of the actions chart opens the actions it counts, as its figure in the table
    // does: the latest week's first figure that is not zero (Opened, Resolved, Verified, Overdue).
    const actions = measure(page, 'Corrective actions');
    expect(await drawnPixels(actions)).toBeGreaterThan(0);
    const actionRows = actions.getByRole('table').locator('tbody tr');
    let row = (await actionRows.count()) - 1;
    let figures = await figureLinks(actionRows.nth(row));
    while (row > 0 && figures.every((link) => link.figure === 0)) figures = await figureLinks(actionRows.nth(--row));
    const figure = figures.findIndex((link) => link.figure > 0);
    expect(figure, 'the demo has actions in its weeks').toBeGreaterThanOrEqual(0);
    const name = (await actions.getByRole('table').locator('thead th').nth(figure + 1).textContent())!;
    const week = (await actionRows.nth(row).locator('th').textContent())!;
    const bar = await pointerOn(page, actions, new RegExp(`^${escaped(week)}, every priority: .* — ${name}: `));
    await page.touchscreen.tap(bar.x, bar.y);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === figures[figure].href);
    expect(await listedCount(page, 'actions')).toBe(figures[figure].figure);
    await page.goBack();
    await scores.getByRole('table').waitFor();
    expect(await expectFiguresEqualLists(page, onTime.getByRole('table'), 'inspections', 3)).toBeGreaterThan(0);

    expect(await axeViolations(page)).toEqual([]);
  });
});
