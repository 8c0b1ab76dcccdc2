// A member limited to one region, on a phone (issue 27, docs/site-groups.md "Screens"): an
// inspector given the North region sees, at 390 px, only North's sites in the sites page's tree,
// only their inspections and actions, the dashboard's counts of North; an inspection of the South
// opened by its address says "We couldn't find that inspection." with the way back, and a group
// filter naming the South in the address says the group is not found, with the way to all sites.
// No screen scrolls sideways, and each is photographed (test-results/e2e/site-groups/). The
// organization, its groups, sites, inspections and actions are arranged through the api; what is
// asserted happens in the browser.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../support/database.ts';
import { createSite, createTemplate, publish, team, type User } from '../support/fixtures.ts';
import { api, PASSWORD, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();
const shots = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e', 'site-groups');

const DEFINITION = {
  sections: [{ key: 'walk', title: 'Walk', items: [{ key: 'door', kind: 'pass_fail', label: 'Fire door closes', help: null, required: true, weight: 1 }] }],
};

interface World {
  slug: string;
  name: string;
  inspector: User;
  north: { id: string; site: string; inspection: string; inspectionId: string; action: string };
  south: { id: string; site: string; inspection: string; inspectionId: string; action: string };
}

const w = {} as World;

/** A PUT through the api (support's `api` has no PUT). */
async function put(client: User['client'], route: string, body: Record<string, unknown>) {
  const { error } = await client.functions.invoke(`api/${route}`, { method: 'PUT', body });
  if (error) throw new Error(`PUT ${route} failed: ${await error.context?.text?.()}`);
}

beforeAll(async () => {
  const suffix = uniqueSuffix();
  const name = `Coastal Canteens ${suffix}`;
  const { org, owner, members } = await team({
    label: 'groups-phone',
    org: name,
    owner: `Olga Owner ${suffix}`,
    members: { inspector: ['inspector', `Ines Inspector ${suffix}`] },
    password: PASSWORD,
  });
  const template = await createTemplate(owner.client, org.id, { name: `Door walk ${suffix}`, definition: DEFINITION });
  await publish(owner.client, org.id, template.id);
  const region = async (regionName: string) => {
    const group = await api<{ id: string }>(owner.client, `orgs/${org.id}/site-groups`, 'POST', { name: regionName });
    const site = await createSite(owner, org.id, { name: `${regionName} kitchen ${suffix}`, group_id: group.id });
    const inspectionTitle = `${regionName} door walk ${suffix}`;
    const inspection = await api<{ id: string }>(owner.client, `orgs/${org.id}/inspections`, 'POST', {
      site_id: site.id,
      template_id: template.id,
      title: inspectionTitle,
    });
    const actionTitle = `${regionName} fix the hinge ${suffix}`;
    await api(owner.client, `orgs/${org.id}/actions`, 'POST', { site_id: site.id, title: actionTitle });
    return { id: group.id, site: site.name as string, inspection: inspectionTitle, inspectionId: inspection.id, action: actionTitle };
  };
  const north = await region('North');
  const south = await region('South');
  // A site in no group: only org-wide members see it.
  await createSite(owner, org.id, { name: `Head office ${suffix}` });
  await put(owner.client, `orgs/${org.id}/members/${members.inspector.userId}/access`, { site_group_ids: [north.id] });
  Object.assign(w, { slug: org.slug, name, inspector: members.inspector, north, south });
  mkdirSync(shots, { recursive: true });
});

afterAll(closeDb);

async function scrollsSideways(page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** Checks the screen at 390 px: nothing wider than the screen; and keeps its picture. */
async function checkScreen(page: Page, name: string) {
  await page.waitForTimeout(300);
  expect(await scrollsSideways(page), `${name} scrolls sideways`).toBe(false);
  await page.screenshot({ path: path.join(shots, `phone-${name}.png`), fullPage: true });
}

describe('an inspector limited to the North region, on a phone', () => {
  it('sees only North\'s sites, inspections and actions, and the dashboard of North', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    const base = `/o/${w.slug}`;

    // The dashboard: the choice of sites offers North (and no South), its counts are the North's.
    const sites = page.getByLabel('Sites', { exact: true });
    await expect.poll(() => sites.locator('option').allTextContents()).toEqual(['All sites', 'North']);
    await page.getByRole('list', { name: 'Inspections by status' }).getByRole('link', { name: /Scheduled/ }).waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Inspections by status' }).getByRole('link', { name: /Scheduled/ }).textContent()).toMatch(/^1/);
    await checkScreen(page, 'dashboard');

    // The sites page: North and its site, nothing of the South, no sites "in no group".
    await page.goto(`${base}/sites`);
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
    const northSites = page.getByRole('list', { name: 'Sites in North' });
    await northSites.getByRole('link', { name: w.north.site }).waitFor();
    expect(await page.getByRole('button', { name: /^South/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Not in a group/ }).count()).toBe(0);
    expect(await page.getByText(w.south.site).count()).toBe(0);
    // An inspector arranges nothing: no tick boxes, no new group, no editing.
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New group' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit the group/ }).count()).toBe(0);
    await checkScreen(page, 'sites');

    // The inspections list: the North's inspection only.
    await page.goto(`${base}/inspections`);
    const inspections = page.getByRole('list', { name: 'Inspections' });
    await inspections.getByRole('link', { name: w.north.inspection }).waitFor();
    expect(await inspections.getByRole('listitem').count()).toBe(1);
    await checkScreen(page, 'inspections');

    // The actions list: the North's action only.
    await page.goto(`${base}/actions`);
    const actions = page.getByRole('region', { name: 'All actions' });
    await actions.getByRole('link', { name: w.north.action }).waitFor();
    expect(await actions.getByText(w.south.action).count()).toBe(0);
    await checkScreen(page, 'actions');
  });

  it('opening the South\'s inspection by its address says it was not found, with the way back to the list', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${w.south.inspectionId}`);
    await page.getByRole('heading', { level: 1, name: "We couldn't find that inspection." }).waitFor();
    expect(await page.getByText(w.south.inspection).count()).toBe(0);
    await checkScreen(page, 'inspection-not-found');
    await page.getByRole('link', { name: 'Back to inspections' }).click();
    await page.getByRole('list', { name: 'Inspections' }).getByRole('link', { name: w.north.inspection }).waitFor();
  });

  it('a group filter in the address: North\'s narrows the list; the South, not theirs, is not found, with the way to all sites', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections?group=${w.north.id}`);
    await page.getByRole('list', { name: 'Inspections' }).getByRole('link', { name: w.north.inspection }).waitFor();
    await expect.poll(() => page.getByLabel('Group', { exact: true }).inputValue()).toBe(w.north.id);

    await page.goto(`/o/${w.slug}/actions?group=${w.south.id}`);
    const notFound = page.getByRole('alert').filter({ hasText: "We couldn't find that group." });
    await notFound.waitFor();
    await checkScreen(page, 'group-not-found');
    await notFound.getByRole('button', { name: 'Show all sites' }).click();
    await page.getByRole('region', { name: 'All actions' }).getByRole('link', { name: w.north.action }).waitFor();
    expect(new URL(page.url()).searchParams.has('group')).toBe(false);
    expect(await notFound.count()).toBe(0);
  });
});
