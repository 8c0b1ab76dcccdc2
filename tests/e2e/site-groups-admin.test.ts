// An admin puts sites into regions and limits a member, at 1280 px (issue 27, docs/site-groups.md
// "Screens"): on the sites page they make North (with Harbour inside it) and South, tick sites in
// no group and move them in, rename a group, are told in the catalogue's words why a group with
// sites can't be deleted and why a name can't be used twice; on the members page they limit the
// inspector to North. The inspector's own sites page, open all along in another browser, follows
// live: the groups appear, and once limited it shows North's sites only, without a reload. No
// screen scrolls sideways; each is photographed (test-results/e2e/site-groups/).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../support/database.ts';
import { createSite, team, type User } from '../support/fixtures.ts';
import { PASSWORD, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();
const shots = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e', 'site-groups');
const desktop = { viewport: { width: 1280, height: 900 } };

interface World {
  slug: string;
  admin: User;
  inspector: User;
  inspectorName: string;
  sites: Record<'pier' | 'depot' | 'quay' | 'mill', string>;
}

const w = {} as World;

beforeAll(async () => {
  const suffix = uniqueSuffix();
  const inspectorName = `Ivo Inspector ${suffix}`;
  const { org, owner, members } = await team({
    label: 'groups-admin',
    org: `Regional Bakeries ${suffix}`,
    owner: `Oona Owner ${suffix}`,
    members: { admin: ['admin', `Adaeze Admin ${suffix}`], inspector: ['inspector', inspectorName] },
    password: PASSWORD,
  });
  const sites = {
    pier: `Pier bakery ${suffix}`,
    depot: `Depot bakery ${suffix}`,
    quay: `Quay bakery ${suffix}`,
    mill: `Mill bakery ${suffix}`,
  };
  for (const name of Object.values(sites)) await createSite(owner, org.id, { name });
  Object.assign(w, { slug: org.slug, admin: members.admin, inspector: members.inspector, inspectorName, sites });
  mkdirSync(shots, { recursive: true });
});

afterAll(closeDb);

async function checkScreen(page: Page, name: string) {
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), `${name} scrolls sideways`).toBe(false);
  await page.screenshot({ path: path.join(shots, `desktop-${name}.png`), fullPage: true });
}

/** The names of the sites listed in one list of the page. */
function namesIn(page: Page, list: string) {
  return () => page.getByRole('list', { name: list, exact: true }).getByRole('link').filter({ hasNotText: 'Open map' }).allTextContents();
}

/** Opens a group's section of the tree, unless it is open already (one top-level group opens by itself). */
async function openGroup(page: Page, name: RegExp) {
  const trigger = page.getByRole('button', { name });
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
}

async function newGroup(page: Page, name: string, inside?: string) {
  await page.getByRole('button', { name: 'New group' }).click();
  const form = page.getByRole('form', { name: 'New group' });
  await form.getByLabel('Name').fill(name);
  if (inside) await form.getByLabel('Inside').selectOption({ label: inside });
  await form.getByRole('button', { name: 'Add group' }).click();
  await page.getByRole('status').filter({ hasText: `${name} was added.` }).waitFor();
}

async function moveTicked(page: Page, to: string, count: number) {
  const bar = page.getByRole('region', { name: 'Move the ticked sites' });
  await bar.getByText(`${count} ${count === 1 ? 'site' : 'sites'} ticked`).waitFor();
  await bar.getByLabel('Move to').selectOption({ label: to });
  await bar.getByRole('button', { name: 'Move', exact: true }).click();
  await page.getByRole('status').filter({ hasText: `${count} ${count === 1 ? 'site' : 'sites'} moved to ${to}.` }).waitFor();
}

describe('an admin puts sites into regions and limits a member', () => {
  it('makes groups, moves ticked sites into them, is told why a group can\'t go, limits the inspector; the inspector\'s page follows live', async () => {
    // The inspector's sites page, open from the start: one list, as before groups.
    const inspectorPage = await openPage(desktop);
    await signInToOrganization(inspectorPage, w.inspector.email, w.slug);
    await inspectorPage.goto(`/o/${w.slug}/sites`);
    await expect.poll(namesIn(inspectorPage, 'Sites')).toHaveLength(4);

    const page = await openPage(desktop);
    await signInToOrganization(page, w.admin.email, w.slug);
    await page.goto(`/o/${w.slug}/sites`);
    await expect.poll(namesIn(page, 'Sites')).toHaveLength(4);

    await newGroup(page, 'North');
    await newGroup(page, 'South');
    await newGroup(page, 'Harbour', 'North');
    // The tree: North (Harbour in it), South, then the sites in no group.
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
    await openGroup(page, /^Not in a group/);
    await expect.poll(namesIn(page, 'Sites in no group')).toHaveLength(4);
    await checkScreen(page, 'groups-made');

    const ungrouped = page.getByRole('list', { name: 'Sites in no group' });
    await ungrouped.getByRole('checkbox', { name: `Select ${w.sites.pier}` }).check();
    await ungrouped.getByRole('checkbox', { name: `Select ${w.sites.depot}` }).check();
    await checkScreen(page, 'sites-ticked');
    await moveTicked(page, 'North', 2);
    await ungrouped.getByRole('checkbox', { name: `Select ${w.sites.quay}` }).check();
    await moveTicked(page, 'North › Harbour', 1);
    await ungrouped.getByRole('checkbox', { name: `Select ${w.sites.mill}` }).check();
    await moveTicked(page, 'South', 1);
    await page.getByText('Every site is in a group.').waitFor();

    // Counts down the tree: North has its two and Harbour's one.
    await expect.poll(() => page.getByRole('button', { name: /^North/ }).textContent()).toContain('3 sites');
    await expect.poll(() => page.getByRole('button', { name: /^South/ }).textContent()).toContain('1 site');
    await openGroup(page, /^North/);
    await expect.poll(namesIn(page, 'Sites in North')).toEqual([w.sites.depot, w.sites.pier].sort());
    await openGroup(page, /^Harbour/);
    await expect.poll(namesIn(page, 'Sites in Harbour')).toEqual([w.sites.quay]);

    // Rename South.
    await page.getByRole('button', { name: 'Edit the group South' }).click();
    const southForm = page.getByRole('form', { name: 'Edit the group South' });
    await southForm.getByLabel('Name').fill('South coast');
    await southForm.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('status').filter({ hasText: 'South coast was saved.' }).waitFor();
    await page.getByRole('button', { name: /^South coast/ }).waitFor();

    // North still holds sites: deleting it is refused in the catalogue's words, and the form stays to cancel.
    await page.getByRole('button', { name: 'Edit the group North' }).click();
    const northForm = page.getByRole('form', { name: 'Edit the group North' });
    await northForm.getByRole('button', { name: 'Delete the group North' }).click();
    await northForm.getByRole('button', { name: 'Yes, delete' }).click();
    await northForm.getByRole('alert').filter({ hasText: "Move this group's sites and subgroups out before deleting it." }).waitFor();
    await checkScreen(page, 'delete-refused');
    // A name North's siblings already have: said beside the name.
    await northForm.getByLabel('Name').fill('South coast');
    await northForm.getByRole('button', { name: 'Save group' }).click();
    await northForm.getByRole('alert').filter({ hasText: 'A site group with that name already exists.' }).waitFor();
    await northForm.getByRole('button', { name: 'Cancel' }).click();
    expect(await northForm.count()).toBe(0);

    // The inspector's page has followed: the groups, their sites in them.
    await inspectorPage.getByRole('button', { name: /^South coast/ }).waitFor();
    await inspectorPage.getByRole('button', { name: /^Not in a group/ }).waitFor();

    // The members page: limit the inspector to North (Harbour comes with it).
    await page.goto(`/o/${w.slug}/members`);
    await page.getByRole('button', { name: `Change the sites ${w.inspectorName} sees` }).click();
    const editor = page.getByRole('form', { name: `Sites ${w.inspectorName} sees` });
    await editor.getByLabel('Only sites in these groups').check();
    await editor.getByRole('button', { name: 'Save access' }).click();
    // None ticked would mean every site: the form asks for one instead of sending that.
    await editor.getByRole('alert').filter({ hasText: 'Tick at least one group, or choose every site.' }).waitFor();
    await editor.getByRole('checkbox', { name: /^North/ }).check();
    expect(await editor.getByRole('checkbox', { name: /^Harbour/ }).isChecked()).toBe(true);
    expect(await editor.getByRole('checkbox', { name: /^Harbour/ }).isDisabled()).toBe(true);
    await checkScreen(page, 'member-access');
    await editor.getByRole('button', { name: 'Save access' }).click();
    await page.getByRole('status').filter({ hasText: `${w.inspectorName} now sees the sites in North.` }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(w.inspectorName) });
    await expect.poll(() => row.getByRole('cell').filter({ hasText: /^North/ }).count()).toBe(1);
    await checkScreen(page, 'members');

    // Live, without a reload: the inspector now sees North's sites only.
    await expect.poll(() => inspectorPage.getByRole('button', { name: /^South coast/ }).count(), { timeout: 20_000 }).toBe(0);
    expect(await inspectorPage.getByRole('button', { name: /^Not in a group/ }).count()).toBe(0);
    await openGroup(inspectorPage, /^North/);
    await expect.poll(namesIn(inspectorPage, 'Sites in North')).toEqual([w.sites.depot, w.sites.pier].sort());
    expect(await inspectorPage.getByText(w.sites.mill).count()).toBe(0);
    await checkScreen(inspectorPage, 'inspector-limited');
  });
});
