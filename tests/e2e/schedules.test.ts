// Schedules in the browser (issue 26, parts 8, 6 and 11), in real Chromium against the real stack:
// a manager makes "every Monday 08:00, due Friday 17:00" for a site in Seattle and one in Auckland
// through the editor, sees the rule in words and each site's next occurrence at 08:00 local as it is
// typed, and — once saved — each site's next occurrence at 08:00 local at once, as the database made
// it; an inspector sees them on their dashboard; the calendar shows them at 1280 and 390 px; an
// inspector is shown no control that changes a schedule; pausing says how many upcoming inspections
// it cancels; the compliance figures link to the inspections they count; the webhook picker has its
// Schedules group. Users, the organization, sites and template are made through the API and the
// memberships in the database; everything asserted happens in the UI. Times are "now": the expected
// dates are worked out here from the zones' clocks (Intl), never from the app's own code.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/stack.ts';
import { insertMemberships, type User } from '../support/fixtures.ts';
import { api, person, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const sql = postgres(stack.DB_URL, { max: 2, onnotice: () => {} });
const { openPage } = useBrowser();

const DEFINITION = {
  sections: [{ key: 'kitchen', title: 'Kitchen', items: [{ key: 'fridge', kind: 'pass_fail', label: 'Fridge below 5 °C', help: null, required: true, weight: 1 }] }],
};
const SEATTLE = 'America/Los_Angeles';
const AUCKLAND = 'Pacific/Auckland';

interface World {
  orgId: string;
  slug: string;
  name: string;
  seattle: string;
  auckland: string;
  templateName: string;
  owner: User;
  manager: User;
  inspector: User;
  scheduleId?: string;
  scheduleName: string;
}

const w = {} as World;

beforeAll(async () => {
  const suffix = uniqueSuffix();
  const owner = await person('sched-owner', `Ada Owner ${suffix}`);
  const manager = await person('sched-manager', `Maya Manager ${suffix}`);
  const inspector = await person('sched-inspector', `Ivy Inspector ${suffix}`);
  const name = `Harbour Kitchens ${suffix}`;
  const organization = await api<{ id: string; slug: string }>(owner.client, 'orgs', 'POST', { name });
  await insertMemberships(organization.id, [[manager.userId, 'manager'], [inspector.userId, 'inspector']]);
  const seattle = `Capitol Hill ${suffix}`;
  const auckland = `Ponsonby ${suffix}`;
  await api(owner.client, `orgs/${organization.id}/sites`, 'POST', { name: seattle, timezone: SEATTLE });
  await api(owner.client, `orgs/${organization.id}/sites`, 'POST', { name: auckland, timezone: AUCKLAND });
  const templateName = `Food safety ${suffix}`;
  const template = await api<{ id: string }>(manager.client, `orgs/${organization.id}/templates`, 'POST', { name: templateName, definition: DEFINITION });
  await api(manager.client, `orgs/${organization.id}/templates/${template.id}/publish`, 'POST');
  Object.assign(w, { orgId: organization.id, slug: organization.slug, name, seattle, auckland, templateName, owner, manager, inspector, scheduleName: `Weekly audit ${suffix}` });
});

afterAll(async () => {
  await sql.end();
});

// --- the zones' clocks, by Intl -------------------------------------------------------------------

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The date and weekday on the clock of `zone` at `instant`. */
function localDate(zone: string, instant: number): { date: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short' }).formatToParts(new Date(instant)).map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: parts.weekday };
}

/** The hour on the clock of `zone` at `instant` (0–23, minutes as a fraction). */
function localHour(zone: string, instant: number): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return Number(parts.hour) + Number(parts.minute) / 60;
}

/** The next Monday 08:00 at a site in `zone` from now: its local date, and how the app should write its day ("Mon 30 Nov"). */
function nextMondayEight(zone: string): { date: string; day: string } {
  const now = Date.now();
  for (let days = 0; days <= 8; days++) {
    const { date, weekday } = localDate(zone, now + days * 86_400_000);
    if (weekday !== 'Mon' || (days === 0 && localHour(zone, now) >= 8)) continue;
    return { date, day: `Mon ${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]}` };
  }
  throw new Error('no Monday within eight days');
}

const ZONE_NAMES: Record<string, string> = { [SEATTLE]: '(PST|PDT)', [AUCKLAND]: '(NZDT|NZST)' };

/** "Mon 30 Nov 08:00 PST (Capitol Hill …)": the next occurrence at a site, as the page writes it. */
function nextAt(zone: string, site: string): RegExp {
  return new RegExp(`${nextMondayEight(zone).day} 08:00 ${ZONE_NAMES[zone]} \\(${site}\\)`);
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe finds against WCAG 2 A and AA and its best practices, as in phone.test.ts. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

describe('a schedule made in the browser', () => {
  it('reads in words, previews each site at 08:00 local as it is typed, and shows each next occurrence at once when saved', async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.getByRole('navigation', { name: w.name }).getByRole('link', { name: 'Schedules' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schedules' }).waitFor();
    await page.getByText('No schedules yet.').waitFor();
    await page.getByRole('link', { name: 'New schedule' }).click();

    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Template').selectOption({ label: `${w.templateName} (version 1)` });
    await form.getByLabel('Name', { exact: true }).fill(w.scheduleName);
    for (const site of [w.seattle, w.auckland]) {
      await form.getByLabel('Find sites').fill(site);
      await form.getByRole('checkbox', { name: new RegExp(site) }).check();
    }
    // Started yesterday (UTC), so that today's Monday, if it is one, is in it at every site.
    await form.getByLabel('Start date').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      await form.getByRole('checkbox', { name: day, exact: true }).setChecked(day === 'Monday');
    }
    await form.getByLabel('Starts at').fill('08:00');
    await form.getByLabel('Days until due').fill('4');
    await form.getByLabel('Due at').fill('17:00');

    // The preview, worked out in the browser as it is typed.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Every Monday at 08:00, due Friday 17:00').waitFor();
    const typed = preview.getByTestId('next-occurrences');
    await expect.poll(() => typed.textContent()).toMatch(nextAt(SEATTLE, w.seattle));
    expect(await typed.textContent()).toMatch(nextAt(AUCKLAND, w.auckland));
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL((url) => /\/schedules\/[0-9a-f-]{36}$/.test(url.pathname));
    w.scheduleId = page.url().split('/').pop()!;
    await page.getByText(`${w.scheduleName} was created.`, { exact: false }).waitFor();
    await page.getByText('Every Monday at 08:00, due Friday 17:00').first().waitFor();
    // As the database made them: the occurrences route, read at once.
    const saved = page.getByTestId('next-occurrences');
    await expect.poll(() => saved.textContent()).toMatch(nextAt(SEATTLE, w.seattle));
    expect(await saved.textContent()).toMatch(nextAt(AUCKLAND, w.auckland));
    // Each site's next occurrence is an inspection already, linked from the page.
    for (const [zone, site] of [[SEATTLE, w.seattle], [AUCKLAND, w.auckland]] as const) {
      const list = page.getByRole('list', { name: `Next occurrences at ${site}` });
      await list.getByRole('link', { name: new RegExp(`^${nextMondayEight(zone).day} \\d{4} 08:00 ${ZONE_NAMES[zone]}$`) }).waitFor();
    }
    const [{ made }] = await sql<{ made: number }[]>`
      select count(*)::int as made from public.inspections where schedule_id = ${w.scheduleId} and status = 'scheduled'
    `;
    expect(made).toBeGreaterThanOrEqual(2);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("is on the inspector's dashboard, and in the calendar at 1280 and 390 px", async () => {
    expect(w.scheduleId).toBeDefined();
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInToOrganization(page, w.inspector.email, w.slug);
    const mine = page.getByRole('region', { name: 'Scheduled for you' });
    for (const [zone, site] of [[SEATTLE, w.seattle], [AUCKLAND, w.auckland]] as const) {
      await mine.getByRole('link', { name: new RegExp(`08:00 ${ZONE_NAMES[zone]}.*${site}.*anyone may claim it`) }).first().waitFor();
    }

    const monday = nextMondayEight(SEATTLE).date;
    await page.goto(`/o/${w.slug}/calendar?view=week&date=${monday}`);
    const day = page.getByRole('region', { name: new RegExp(`^Monday ${Number(monday.slice(8, 10))} `) });
    // Its state in words beside its colour: not open yet, or open now (a Monday morning).
    await day.getByRole('link', { name: new RegExp(`08:00 ${ZONE_NAMES[SEATTLE]} ${w.seattle} .*(Upcoming|Open)$`) }).waitFor();
    await day.getByRole('link', { name: new RegExp(`08:00 ${ZONE_NAMES[AUCKLAND]} ${w.auckland} .*(Upcoming|Open)$`) }).waitFor();
    // Month: the same day, in a grid of the month.
    await page.getByRole('button', { name: 'Month' }).click();
    await page.getByRole('heading', { level: 2, name: new RegExp(`^(January|February|March|April|May|June|July|August|September|October|November|December) \\d{4}$`) }).waitFor();
    await page.getByRole('region', { name: new RegExp(`^Monday ${Number(monday.slice(8, 10))} `) }).getByRole('link', { name: new RegExp(w.auckland) }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    // A phone: a list of days.
    const phonePage = await openPage(phone());
    await signInToOrganization(phonePage, w.inspector.email, w.slug);
    await phonePage.goto(`/o/${w.slug}/calendar?view=week&date=${monday}`);
    const list = phonePage.getByRole('list', { name: 'Occurrences by day' });
    await list.getByRole('heading', { name: new RegExp(`^Monday ${Number(monday.slice(8, 10))} `) }).waitFor();
    await list.getByRole('link', { name: new RegExp(`08:00 ${ZONE_NAMES[SEATTLE]} ${w.seattle}`) }).waitFor();
    await list.getByRole('link', { name: new RegExp(`08:00 ${ZONE_NAMES[AUCKLAND]} ${w.auckland}`) }).waitFor();
    expect(await scrollsSideways(phonePage)).toBe(false);
    expect(await axeViolations(phonePage)).toEqual([]);
    // Each occurrence leads to its inspection.
    await list.getByRole('link', { name: new RegExp(w.auckland) }).first().click();
    await phonePage.waitForURL((url) => url.pathname.startsWith(`/o/${w.slug}/inspections/`));
    await phonePage.getByRole('heading', { level: 1, name: new RegExp(w.auckland) }).waitFor();
  });

  it('shows an inspector no control that changes a schedule, and refuses them the editor', async () => {
    expect(w.scheduleId).toBeDefined();
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/schedules`);
    await page.getByRole('link', { name: w.scheduleName }).waitFor();
    expect(await page.getByRole('link', { name: 'New schedule' }).count()).toBe(0);
    await page.getByRole('link', { name: w.scheduleName }).click();
    await page.getByRole('heading', { level: 1, name: w.scheduleName }).waitFor();
    await page.getByTestId('next-occurrences').waitFor();
    for (const control of ['Edit schedule', 'Pause schedule', 'Resume schedule', 'Delete schedule']) {
      expect(await page.getByRole('button', { name: control }).count(), control).toBe(0);
    }
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto(`/o/${w.slug}/schedules/new`);
    await page.getByText("You don't have permission to do that.").waitFor();
    expect(await page.getByRole('form').count()).toBe(0);
    await page.getByRole('link', { name: 'Back to schedules' }).waitFor();
  });

  it('says how many upcoming inspections a pause cancels, and lists its inspections from the page', async () => {
    expect(w.scheduleId).toBeDefined();
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/schedules/${w.scheduleId}`);
    await page.getByRole('heading', { level: 1, name: w.scheduleName }).waitFor();

    const [{ all }] = await sql<{ all: number }[]>`select count(*)::int as all from public.inspections where schedule_id = ${w.scheduleId!}`;
    await page.getByRole('link', { name: 'See its inspections' }).click();
    await page.getByText('Occurrences of one schedule.').waitFor();
    await page.getByRole('status').filter({ hasText: all === 1 ? '1 inspection' : `${all} inspections` }).waitFor();
    await page.goBack();

    const [{ upcoming }] = await sql<{ upcoming: number }[]>`
      select count(*)::int as upcoming from public.inspections
      where schedule_id = ${w.scheduleId!} and status = 'scheduled' and canceled_reason is null and occurrence_at > now()
    `;
    await page.getByRole('button', { name: 'Pause schedule' }).click();
    const dialog = page.getByRole('dialog', { name: `Pause ${w.scheduleName}?` });
    await dialog.getByText(`${upcoming === 1 ? '1 upcoming inspection' : `${upcoming} upcoming inspections`} will be canceled`).waitFor();
    await dialog.getByRole('button', { name: 'Pause schedule' }).click();
    await page.getByText(`${w.scheduleName} is paused`).waitFor();
    const [{ canceled }] = await sql<{ canceled: number }[]>`
      select count(*)::int as canceled from public.inspections where schedule_id = ${w.scheduleId!} and canceled_reason = 'schedule paused'
    `;
    expect(canceled).toBe(upcoming);
    await page.getByRole('button', { name: 'Resume schedule' }).click();
    await page.getByText(`${w.scheduleName} is running again`).waitFor();
  });

  it('says a deletion was done, from the list it leads back to', async () => {
    // A schedule of its own: the others' tests use the first one.
    const [site] = await sql<{ id: string }[]>`select id from public.sites where org_id = ${w.orgId} and timezone = ${SEATTLE}`;
    const [template] = await sql<{ id: string }[]>`select id from public.templates where org_id = ${w.orgId}`;
    const doomed = await api<{ id: string; name: string }>(w.manager.client, `orgs/${w.orgId}/schedules`, 'POST', {
      name: `Short-lived ${uniqueSuffix()}`, template_id: template.id, site_ids: [site.id], rrule: 'FREQ=DAILY', start_date: new Date().toISOString().slice(0, 10),
      time_of_day: '09:00', due_after: 'PT8H',
    });
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/schedules/${doomed.id}`);
    await page.getByRole('button', { name: 'Delete schedule' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${doomed.name}?` });
    await dialog.getByText(/upcoming inspections? will be canceled/).waitFor();
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await page.waitForURL((url) => url.pathname === `/o/${w.slug}/schedules`);
    await page.getByText(`${doomed.name} was deleted.`).waitFor();
    expect(await page.getByRole('link', { name: doomed.name }).count()).toBe(0);
  });

  it("links the manager's compliance figures to the inspections they count", async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    const figures = page.getByRole('region', { name: 'Schedules this week' });
    await figures.getByRole('link', { name: /Missed this week/ }).click();
    await page.waitForURL((url) => url.pathname === `/o/${w.slug}/inspections` && url.searchParams.get('missed') === 'true' && url.searchParams.has('due_from'));
    await page.getByText(/^Occurrences of schedules, missed, due from .+ to .+\.$/).waitFor();
    await page.getByText('No inspections match these filters.').waitFor();
    await page.getByRole('button', { name: 'Show all inspections' }).click();
    await page.waitForURL((url) => !url.searchParams.has('missed'));
    expect(await scrollsSideways(page)).toBe(false);
  });

  it("offers the schedules' webhook events in a group of their own", async () => {
    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInToOrganization(page, w.owner.email, w.slug);
    await page.goto(`/o/${w.slug}/settings`);
    const hooks = page.getByRole('region', { name: 'Webhooks' });
    await hooks.getByRole('radio', { name: 'Only the events I choose' }).check();
    const group = hooks.getByRole('group', { name: 'Schedules' });
    for (const type of ['schedule.created', 'schedule.updated', 'schedule.paused', 'schedule.deleted']) await group.getByRole('checkbox', { name: type }).waitFor();
    await hooks.getByRole('group', { name: 'Inspections' }).getByRole('checkbox', { name: 'inspection.missed' }).waitFor();
  });
});
