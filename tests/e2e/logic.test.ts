// Conditional logic in the browser (issue 17, parts 3–5): a manager gives the Kitchen section a
// rule in the editor in plain words and tries it in the preview; on the run page, answering "No"
// hides the section, "Yes" shows it, on this phone and live on a colleague's screen, progress and
// "next unanswered" count only what shows, and submit follows suit. Screenshots at 390 and 1280 px
// go to test-results/e2e/.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { createSite, team, type User } from '../support/fixtures.ts';
import { api, isFocused, PASSWORD, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();
const screenshots = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e');
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe finds against WCAG 2 A and AA and its best practices, as "rule (nodes)". */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

/** Whether the page is wider than the screen (it must never scroll sideways). */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

afterAll(closeDb);

interface Crew {
  orgId: string;
  slug: string;
  manager: User;
  inspector: User;
  siteId: string;
}

/** An organization made by its manager (who owns it), with an inspector and a site. */
async function crew(): Promise<Crew> {
  const suffix = uniqueSuffix();
  const { org, owner: manager, members } = await team({
    label: 'logic',
    org: `Logic Diner ${suffix}`,
    owner: `Mo Manager ${suffix}`,
    members: { inspector: ['inspector', `Ines Inspector ${suffix}`] },
    password: PASSWORD,
  });
  const site = await createSite(manager, org.id, { name: `Diner ${suffix}` });
  return { orgId: org.id, slug: org.slug, manager, inspector: members.inspector, siteId: site.id };
}

const KITCHEN_RULE = { match: 'all', conditions: [{ item: 'has_kitchen', op: 'equals', value: 'yes' }] };

function definition(withRule: boolean) {
  return {
    sections: [
      {
        key: 'site',
        title: 'Site',
        items: [
          { key: 'has_kitchen', kind: 'yes_no', label: 'Is there a kitchen?', help: null, required: true, weight: 0, fail_on: null },
          { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
        ],
      },
      {
        key: 'kitchen',
        title: 'Kitchen',
        ...(withRule ? { show_when: KITCHEN_RULE } : {}),
        items: [
          { key: 'fridge', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 2, min: 0, max: 5, unit: '°C' },
          { key: 'hood', kind: 'pass_fail', label: 'Extractor hood is clean', help: null, required: true, weight: 1 },
        ],
      },
    ],
  };
}

/** The run page's accordion trigger of a section, by its progress ("Kitchen 0 of 2"). */
function sectionTrigger(page: Page, title: string) {
  return page.getByRole('button', { name: new RegExp(`^${title}\\s*\\d+ of \\d+`) });
}

async function shot(page: Page | Locator, name: string) {
  const file = path.join(screenshots, `logic-${name}.png`);
  await ('goto' in page ? page.screenshot({ path: file, fullPage: true }) : page.screenshot({ path: file }));
}

describe('conditional logic in the web app', () => {
  it('a manager adds a rule to a section in plain words, previews it, saves it, and a wrong answer in a rule is shown on its field', async () => {
    const team = await crew();
    const template = await api<{ id: string }>(team.manager.client, `orgs/${team.orgId}/templates`, 'POST', {
      name: `Diner check ${uniqueSuffix()}`,
      definition: definition(false),
    });

    for (const [size, options] of [['1280', DESKTOP], ['390', phone()]] as const) {
      const page = await openPage(options);
      await signInToOrganization(page, team.manager.email, team.slug);
      await page.goto(`/o/${team.slug}/templates/${template.id}`);
      const kitchen = page.locator('#section-kitchen');
      if (size === '1280') {
        await kitchen.locator('.accordion-trigger').click();
        await kitchen.getByRole('button', { name: 'Add a rule to section Kitchen' }).click();
        const rule = kitchen.getByRole('group', { name: 'Show this section when' });
        await expect.poll(() => isFocused(rule.getByLabel('Item', { exact: true }))).toBe(true);
        await rule.getByLabel('Item', { exact: true }).selectOption({ label: 'Is there a kitchen?' });
        expect(await rule.getByLabel('Test', { exact: true }).locator('option:checked').textContent()).toBe('is');
        await rule.getByLabel('Answer', { exact: true }).selectOption({ label: 'Yes' });
        await rule.getByText('Show when “Is there a kitchen?” is Yes').waitFor();
        await page.getByRole('button', { name: 'Save draft' }).click();
        await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
        const [stored] = await sql`select definition -> 'sections' -> 1 -> 'show_when' as rule from public.templates where id = ${template.id}`;
        expect(stored.rule).toEqual(KITCHEN_RULE);
      } else {
        // Saved: the phone opens the editor with the rule in place.
        await kitchen.locator('.accordion-trigger').click();
        await kitchen.getByText('Show when “Is there a kitchen?” is Yes').waitFor();
      }
      await kitchen.getByRole('group', { name: 'Show this section when' }).scrollIntoViewIfNeeded();
      await shot(page, `editor-rule-${size}`);
      await shot(kitchen, `editor-rule-section-${size}`);

      // The preview: the Kitchen section shows only after "Yes".
      await page.getByRole('button', { name: 'Preview the run page' }).click();
      const preview = page.getByRole('region', { name: 'Preview of the run page' });
      await preview.getByRole('region', { name: 'Site' }).waitFor();
      expect(await preview.getByRole('region', { name: 'Kitchen' }).count()).toBe(0);
      await preview.getByText('2 items of 4 show for these answers.').waitFor();
      await preview.getByRole('group', { name: /Is there a kitchen\?/ }).getByRole('button', { name: 'Yes' }).click();
      await preview.getByRole('region', { name: 'Kitchen' }).getByText('Show when “Is there a kitchen?” is Yes').waitFor();
      await preview.getByText('4 items of 4 show for these answers.').waitFor();
      await preview.scrollIntoViewIfNeeded();
      await shot(page, `editor-preview-${size}`);
      await shot(preview, `editor-preview-region-${size}`);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await preview.getByRole('group', { name: /Is there a kitchen\?/ }).getByRole('button', { name: 'No' }).click();
      await preview.getByRole('region', { name: 'Kitchen' }).waitFor({ state: 'detached' });
    }

    // A rule that tests a later item (the floor moved above the question it depends on) is
    // refused beside its item field, and nothing is saved.
    const page = await openPage(DESKTOP);
    await signInToOrganization(page, team.manager.email, team.slug);
    await page.goto(`/o/${team.slug}/templates/${template.id}`);
    const siteSection = page.locator('#section-site');
    const floor = siteSection.getByRole('group', { name: 'Item 2 · Pass / fail', exact: true });
    await floor.getByRole('button', { name: 'Add a rule to Floor is clean' }).click();
    const floorRule = floor.getByRole('group', { name: 'Show this item when' });
    await floorRule.getByLabel('Item', { exact: true }).selectOption({ label: 'Is there a kitchen?' });
    await floorRule.getByLabel('Answer', { exact: true }).selectOption({ label: 'Yes' });
    await floor.getByRole('button', { name: 'Move Floor is clean up' }).click();
    const before = await sql`select revision, definition from public.templates where id = ${template.id}`;
    await page.getByRole('button', { name: 'Save draft' }).click();
    const moved = siteSection.getByRole('group', { name: 'Item 1 · Pass / fail', exact: true });
    const itemField = moved.getByRole('group', { name: 'Show this item when' }).getByLabel('Item', { exact: true });
    await moved.getByText('Choose an item that comes before this one.').waitFor();
    expect(await itemField.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'editor-refused-1280');
    await shot(moved, 'editor-refused-item-1280');
    expect(await sql`select revision, definition from public.templates where id = ${template.id}`).toEqual(before);
  });

  it('answering "No" hides the Kitchen section, "Yes" shows it, live on a colleague\'s screen too, and submit follows suit', async () => {
    const team = await crew();
    const template = await api<{ id: string }>(team.manager.client, `orgs/${team.orgId}/templates`, 'POST', {
      name: `Diner audit ${uniqueSuffix()}`,
      definition: definition(true),
    });
    await api(team.manager.client, `orgs/${team.orgId}/templates/${template.id}/publish`, 'POST');
    const inspection = await api<{ id: string }>(team.manager.client, `orgs/${team.orgId}/inspections`, 'POST', {
      site_id: team.siteId,
      template_id: template.id,
    });
    await api(team.inspector.client, `orgs/${team.orgId}/inspections/${inspection.id}/start`, 'POST', {});
    const url = `/o/${team.slug}/inspections/${inspection.id}`;

    const inspector = await openPage(phone());
    await signInToOrganization(inspector, team.inspector.email, team.slug);
    await inspector.goto(url);
    const manager = await openPage(DESKTOP);
    await signInToOrganization(manager, team.manager.email, team.slug);
    await manager.goto(url);

    // Nothing answered: the Kitchen section is hidden, and progress counts the two items that show.
    await sectionTrigger(inspector, 'Site').waitFor();
    expect(await sectionTrigger(inspector, 'Kitchen').count()).toBe(0);
    await inspector.getByText('Answered 0 of 2').waitFor();
    await shot(inspector, 'run-hidden-390');

    // Yes: the section appears here, and live on the manager's screen.
    const kitchenQuestion = inspector.getByRole('group', { name: 'Is there a kitchen?', exact: true });
    await kitchenQuestion.getByRole('button', { name: 'Yes', exact: true }).click();
    await sectionTrigger(inspector, 'Kitchen').waitFor();
    await inspector.getByText('Answered 1 of 4').waitFor();
    await sectionTrigger(manager, 'Kitchen').waitFor();
    // "Next unanswered" goes to the floor, then into the kitchen.
    await inspector.getByRole('button', { name: 'Next unanswered' }).click();
    await expect.poll(() => inspector.evaluate(() => document.activeElement?.closest('[data-item-key]')?.getAttribute('data-item-key'))).toBe('floor');
    await inspector.getByRole('group', { name: 'Floor is clean', exact: true }).getByRole('button', { name: 'Pass', exact: true }).click();
    await inspector.getByRole('button', { name: 'Next unanswered' }).click();
    await expect.poll(() => isFocused(inspector.getByLabel('Fridge temperature', { exact: true }))).toBe(true);
    await inspector.getByLabel('Fridge temperature', { exact: true }).fill('9');
    await inspector.getByText('Answer 1 more required item to submit.').waitFor();
    await shot(inspector, 'run-shown-390');
    await sectionTrigger(manager, 'Kitchen').click();
    await manager.getByLabel('Fridge temperature', { exact: true }).waitFor();
    await shot(manager, 'run-shown-1280');

    // No: the section goes again, the kept temperature is listed as not counted, and submit is open.
    await kitchenQuestion.getByRole('button', { name: 'No', exact: true }).click();
    await sectionTrigger(inspector, 'Kitchen').waitFor({ state: 'detached' });
    await sectionTrigger(manager, 'Kitchen').waitFor({ state: 'detached' });
    await inspector.getByText('Answered 2 of 2').waitFor();
    const notCounted = inspector.getByRole('region', { name: 'Answers not counted' });
    await notCounted.getByText('Fridge temperature — 9 °C').waitFor();
    await inspector.getByText('Every required item is answered.').waitFor();
    await shot(inspector, 'run-kept-390');
    expect(await scrollsSideways(inspector)).toBe(false);
    expect(await axeViolations(inspector)).toEqual([]);

    // Yes again would ask for the hood; No it is, and the inspection goes in without it.
    await inspector.getByRole('status').filter({ hasText: /^Saved$/ }).waitFor();
    await inspector.getByRole('button', { name: 'Submit inspection' }).click();
    const confirm = inspector.getByRole('dialog', { name: 'Submit this inspection?' });
    // Hidden items count for nothing: none failed, so no action will open.
    await confirm.getByText('No item failed: no corrective actions will open.').waitFor();
    await confirm.getByRole('button', { name: 'Submit inspection' }).click();
    await inspector.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();
    const [row] = await sql`select status, failed_count, hidden_item_keys from public.inspections where id = ${inspection.id}`;
    expect(row).toEqual({ status: 'submitted', failed_count: 0, hidden_item_keys: ['fridge', 'hood'] });
    expect((await sql`select count(*)::int as n from public.actions where inspection_id = ${inspection.id}`)[0].n).toBe(0);
    await manager.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();
  });
});
