// The web app as a daily tool on a phone (issue 12, part 5): each defect found trying it as a new
// user at 390 px, checked where it could come back — the compact header and bottom tab bar, no
// page scrolling sideways, progress apart from score, a search box that searches, "Try again" on
// errors, sign-in asking for a missing password, a due date in the past said so, a long template
// folded with a jump list, a signature given from the keyboard, due dates in the site's time zone,
// and the accessibility rules axe checks (unique landmarks among them).
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { createSite, createTemplate, publish, team, type User } from '../support/fixtures.ts';
import { api, PASSWORD, phone, signInToOrganization, submitSignIn, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const DEFINITION = {
  sections: [
    {
      key: 'arrival',
      title: 'Arrival',
      items: [
        { key: 'door', kind: 'pass_fail', label: 'Door closes fully', help: null, required: true, weight: 2 },
        { key: 'alarm', kind: 'yes_no', label: 'Alarm tested', help: null, required: true, weight: 1, fail_on: 'no' },
      ],
    },
    {
      key: 'store',
      title: 'Store',
      items: [{ key: 'temp', kind: 'number', label: 'Air temperature', help: null, required: false, weight: 1, min: -25, max: -18, unit: '°C' }],
    },
    {
      key: 'sign-off',
      title: 'Sign-off',
      items: [{ key: 'signature', kind: 'signature', label: 'Manager signature', help: null, required: false, weight: 0 }],
    },
  ],
};

interface World {
  orgId: string;
  slug: string;
  name: string;
  siteId: string;
  templateId: string;
  inspectionId: string;
  owner: User;
  manager: User;
  inspector: User;
}

const w = {} as World;

beforeAll(async () => {
  const suffix = uniqueSuffix();
  const name = `Harbour Kitchens with a long name ${suffix}`;
  const { org, owner, members } = await team({
    label: 'phone',
    org: name,
    owner: `Ada Owner ${suffix}`,
    members: { manager: ['manager', `Maya Manager ${suffix}`], inspector: ['inspector', `Ivy Inspector-with-a-rather-long-name ${suffix}`] },
    password: PASSWORD,
  });
  const { manager, inspector } = members;
  // A site on the US west coast: its due dates read in its own zone, wherever the reader is.
  const site = await createSite(owner, org.id, { name: `Quay ${suffix}`, timezone: 'America/Los_Angeles' });
  const template = await createTemplate(manager.client, org.id, { name: `Freezer check ${suffix}`, definition: DEFINITION });
  await publish(manager.client, org.id, template.id);
  const inspection = await api<{ id: string }>(manager.client, `orgs/${org.id}/inspections`, 'POST', {
    site_id: site.id,
    template_id: template.id,
    assignee_id: inspector.userId,
    title: `Freezer walk ${suffix}`,
    due_at: '2030-01-15T17:00:00Z',
  });
  await api(inspector.client, `orgs/${org.id}/inspections/${inspection.id}/start`, 'POST', {});
  Object.assign(w, { orgId: org.id, slug: org.slug, name, siteId: site.id, templateId: template.id, inspectionId: inspection.id, owner, manager, inspector });
});

afterAll(closeDb);

async function scrollsSideways(page: Page): Promise<boolean> {
  return await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
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

describe('on a phone', () => {
  it('has a one-row header and the organization in a tab bar at the bottom, with the rest under More; no page scrolls sideways', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.owner.email, w.slug);
    const header = await page.locator('.app-header-row').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(64);
    const tabs = page.getByRole('navigation', { name: w.name });
    const bar = await tabs.boundingBox();
    expect(bar!.y + bar!.height).toBeGreaterThan(844 - 2);
    for (const label of ['Dashboard', 'Inspections', 'Actions', 'Sites']) expect(await tabs.getByRole('link', { name: label }).isVisible()).toBe(true);
    expect(await tabs.getByRole('link', { name: 'Members' }).isVisible()).toBe(false);
    await tabs.getByRole('button', { name: 'More' }).click();
    const more = page.getByRole('navigation', { name: 'More' });
    for (const label of ['Templates', 'Members', 'Settings', 'Organizations', 'Account']) await more.getByRole('link', { name: label }).waitFor();
    await more.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    expect(await more.count()).toBe(0);
    for (const path of ['', '/inspections', '/actions', '/sites', '/templates', '/members', '/settings', `/inspections/${w.inspectionId}`]) {
      await page.goto(`/o/${w.slug}${path}`);
      await page.locator('main h1').waitFor();
      await page.waitForTimeout(300);
      expect(await scrollsSideways(page), `${path || '/'} scrolls sideways`).toBe(false);
    }
  });

  it('the run page and the dashboard pass axe, unique landmarks included', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    // The dashboard itself, not the loading screen shown while its data comes.
    await page.locator('main h1').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`/o/${w.slug}/inspections/${w.inspectionId}`);
    await page.getByRole('group', { name: 'Door closes fully', exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the inspections list', () => {
  it('shows progress apart from the score, due dates in the site\'s time zone, and searches as you type', async () => {
    const { error } = await w.inspector.client.functions.invoke(`api/orgs/${w.orgId}/inspections/${w.inspectionId}/answers`, {
      method: 'PUT',
      body: { answers: [{ item_key: 'door', value: 'pass', note: null, base_version: null }] },
    });
    expect(error).toBeNull();
    const other = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/inspections`, 'POST', { site_id: w.siteId, template_id: w.templateId, title: 'Loading bay sweep' });
    // A reader in London sees the site's clock, with its zone named.
    const page = await openPage({ ...phone(), timezoneId: 'Europe/London' });
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections`);
    const list = page.getByRole('list', { name: 'Inspections' });
    const row = list.getByRole('listitem').filter({ hasText: 'Freezer walk' });
    await row.getByText('Answered 1 of 4').waitFor();
    await row.getByText('Score 100% (2 of 2)').waitFor();
    await row.getByText('Due Jan 15, 2030, 9:00 AM PST').waitFor();

    await page.getByLabel('Search', { exact: true }).fill('loading BAY');
    await list.getByRole('link', { name: 'Loading bay sweep' }).waitFor();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('loading BAY');
    await page.getByLabel('Search', { exact: true }).fill('');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect(other.id).toBeTruthy();
  });

  it('offers "Try again" when the list can\'t be read, and the list comes back', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    // The network refuses the list for a moment (a route mock: the network is outside the product).
    const isList = (url: URL) => /\/functions\/v1\/api\/orgs\/[^/]+\/inspections$/.test(url.pathname);
    await page.route(isList, (route) => route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{"code":"service_unavailable","status":503,"title":"x","detail":"x","type":"x","request_id":"x"}' }));
    await page.goto(`/o/${w.slug}/inspections`);
    const tryAgain = page.getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor({ timeout: 20_000 });
    await page.getByRole('alert').filter({ hasText: 'The service is briefly unavailable.' }).waitFor();
    await page.unroute(isList);
    await tryAgain.click();
    await page.getByRole('list', { name: 'Inspections' }).getByText('Freezer walk', { exact: false }).waitFor();
  });

  it('every list screen offers one "Try again" when its list can\'t be read, and the list comes back', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    const screens = [
      { path: '/sites', resource: 'sites', area: page.getByRole('main'), list: page.getByRole('list', { name: 'Sites' }) },
      { path: '/templates', resource: 'templates', area: page.getByRole('main'), list: page.getByRole('list', { name: 'Templates' }) },
      { path: '/actions', resource: 'actions', area: page.getByRole('region', { name: 'All actions' }), list: page.getByRole('region', { name: 'All actions' }).getByRole('status').filter({ hasText: /action/ }) },
      { path: '/settings', resource: 'audit-log', area: page.getByRole('region', { name: 'Audit log' }), list: page.getByRole('list', { name: 'Audit log' }) },
    ];
    for (const screen of screens) {
      // The network refuses the list for a moment (a route mock: the network is outside the product).
      const isList = (url: URL) => new RegExp(`/functions/v1/api/orgs/[^/]+/${screen.resource}$`).test(url.pathname);
      await page.route(isList, (route) => route.fulfill({ status: 503, contentType: 'application/problem+json', body: '{"code":"service_unavailable","status":503,"title":"x","detail":"x","type":"x","request_id":"x"}' }));
      await page.goto(`/o/${w.slug}${screen.path}`);
      const tryAgain = screen.area.getByRole('button', { name: 'Try again' });
      await tryAgain.first().waitFor({ timeout: 20_000 });
      await screen.area.getByRole('alert').filter({ hasText: 'The service is briefly unavailable.' }).waitFor();
      expect(await tryAgain.count(), screen.path).toBe(1);
      await page.unroute(isList);
      await tryAgain.click();
      await screen.list.waitFor();
      expect(await tryAgain.count(), screen.path).toBe(0);
    }
  });
});

describe('forms', () => {
  it('sign-in asks for a missing password instead of calling it wrong', async () => {
    const page = await openPage(phone());
    await page.goto('/sign-in');
    await page.getByLabel('Email', { exact: true }).fill(w.owner.email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter your password.').waitFor();
    expect(await page.getByText('Email or password is incorrect.').count()).toBe(0);
    // And a wrong one is still called wrong, by the server.
    await submitSignIn(page, w.owner.email, 'not-the-password-1');
    await page.getByText('Email or password is incorrect.').waitFor();
  });

  it('a due date in the past is said so when scheduling, and the inspection is overdue at once', async () => {
    const page = await openPage();
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections`);
    await page.getByRole('button', { name: 'Schedule inspection' }).click();
    const form = page.getByRole('form', { name: 'Schedule an inspection' });
    await form.getByLabel('Search by name or address').fill('Quay');
    await form.getByLabel('Site', { exact: true }).selectOption({ index: 1 });
    await form.getByLabel('Template').selectOption({ index: 1 });
    await form.getByLabel('Due').fill('2020-03-01T09:00');
    await form.getByText('This is in the past: the inspection will be overdue as soon as it is scheduled.').waitFor();
    await form.getByLabel('Title').fill('Late walk');
    await form.getByRole('button', { name: 'Schedule inspection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Late walk' }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Overdue' }).waitFor();
  });

  it('a due time is typed on the site\'s clock with its zone in the label, and every time shown names its zone', async () => {
    // A manager in London schedules for the site in Los Angeles: 09:00 typed is nine at the site.
    const page = await openPage({ ...phone(), timezoneId: 'Europe/London' });
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections`);
    await page.getByRole('button', { name: 'Schedule inspection' }).click();
    const form = page.getByRole('form', { name: 'Schedule an inspection' });
    await form.getByLabel("Due (the site's time)").waitFor();
    await form.getByLabel('Search by name or address').fill('Quay');
    await form.getByLabel('Site', { exact: true }).selectOption({ index: 1 });
    await form.getByLabel('Template').selectOption({ index: 1 });
    await form.getByLabel('Due (Pacific Time, PST)').fill('2030-01-15T09:00');
    await form.getByText('That is Jan 15, 2030, 5:00 PM GMT on this device.').waitFor();
    // Summer on the site's clock: the label follows the date (PDT).
    await form.getByLabel(/^Due \(Pacific Time/).fill('2030-07-15T09:00');
    await form.getByLabel('Due (Pacific Time, PDT)').waitFor();
    await form.getByLabel(/^Due \(Pacific Time/).fill('2030-01-15T09:00');
    const title = `Zoned walk ${uniqueSuffix()}`;
    await form.getByLabel('Title').fill(title);
    await form.getByRole('button', { name: 'Schedule inspection' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Jan 15, 2030, 9:00 AM PST' }).waitFor();
    const [scheduled] = await sql<{ id: string; due_at: Date }[]>`select id, due_at from public.inspections where title = ${title}`;
    expect(scheduled.due_at.toISOString()).toBe('2030-01-15T17:00:00.000Z');

    // The step in the activity feed and the audit log reads on the site's clock, named.
    await page.goto(`/o/${w.slug}`);
    const step = page.getByRole('list', { name: 'Latest activity' }).getByRole('listitem').filter({ hasText: `scheduled ${title}` });
    expect(await step.locator('time').textContent()).toMatch(/ (PST|PDT)$/);
    await page.goto(`/o/${w.slug}/settings`);
    const entry = page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: `scheduled ${title}` });
    expect(await entry.locator('time').textContent()).toMatch(/ (PST|PDT)$/);
    // Something not at a site (a member joining) reads on this device's clock, named too.
    const joined = page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: 'as manager' }).first();
    expect(await joined.locator('time').textContent()).toMatch(/ GMT(\+1)?$/);

    // An action at the site: its history reads on the site's clock, and its due time is edited on it.
    const action = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/actions`, 'POST', { site_id: w.siteId, title: `Zoned fix ${uniqueSuffix()}` });
    await page.goto(`/o/${w.slug}/actions/${action.id}`);
    expect(await page.getByRole('list', { name: 'History' }).locator('time').first().textContent()).toMatch(/ (PST|PDT)$/);
    await page.getByRole('button', { name: 'Edit or reassign' }).click();
    const edit = page.getByRole('form', { name: 'Edit the action' });
    await edit.getByLabel(/^Due \(Pacific Time, P[SD]T\)$/).fill('2030-07-01T09:00');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('definition').filter({ hasText: 'Jul 1, 2030, 9:00 AM PDT' }).waitFor();
    const [saved] = await sql<{ due_at: Date }[]>`select due_at from public.actions where id = ${action.id}`;
    expect(saved.due_at.toISOString()).toBe('2030-07-01T16:00:00.000Z');
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('a message goes when what it describes changes: a field\'s error once the field is changed, "… item added." once published', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections`);
    await page.getByRole('button', { name: 'Schedule inspection' }).click();
    const form = page.getByRole('form', { name: 'Schedule an inspection' });
    await form.getByRole('button', { name: 'Schedule inspection' }).click();
    await form.getByText('Choose a published template.').waitFor();
    await form.getByText('Choose a site.').waitFor();
    await form.getByLabel('Template').selectOption({ index: 1 });
    await expect.poll(() => form.getByText('Choose a published template.').count()).toBe(0);
    expect(await form.getByLabel('Template').getAttribute('aria-invalid')).toBeNull();
    // The other field's message is still true, and stays.
    expect(await form.getByText('Choose a site.').count()).toBe(1);

    // The template editor's "added" announcement is about editing, not about the published version.
    const template = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/templates`, 'POST', { name: `Stale check ${uniqueSuffix()}`, definition: DEFINITION });
    await page.goto(`/o/${w.slug}/templates/${template.id}`);
    const arrival = page.getByRole('region', { name: /^Arrival/ });
    await arrival.getByLabel('New item kind').selectOption({ label: 'Pass / fail' });
    await arrival.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('status').filter({ hasText: 'Pass / fail item added.' }).waitFor();
    await arrival.getByRole('group', { name: 'Item 3 · Pass / fail', exact: true }).getByLabel('Label', { exact: true }).fill('Lights work');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 published.' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'item added' }).count()).toBe(0);
    // Editing after publishing: "published" is no longer what the page shows.
    await page.getByLabel('Template name').fill('Stale check, renamed');
    expect(await page.getByRole('status').filter({ hasText: 'Version 1 published.' }).count()).toBe(0);
  });

  it('a template with several sections opens folded, with a jump list to each section', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/templates/${w.templateId}`);
    const jumps = page.getByRole('navigation', { name: 'Sections of the template' });
    await jumps.waitFor();
    expect(await jumps.getByRole('button').filter({ hasText: /\(\d+\)$/ }).allTextContents()).toEqual(['Arrival (2)', 'Store (1)', 'Sign-off (1)']);
    const editor = page.getByRole('form', { name: 'Template editor' });
    const signOff = editor.getByRole('button', { name: /^Sign-off \d+ item/ });
    expect(await signOff.getAttribute('aria-expanded')).toBe('false');
    await jumps.getByRole('button', { name: 'Sign-off (1)' }).click();
    expect(await signOff.getAttribute('aria-expanded')).toBe('true');
    await jumps.getByRole('button', { name: 'Collapse all' }).click();
    expect(await editor.getByRole('button', { name: /^Arrival \d+ items/ }).getAttribute('aria-expanded')).toBe('false');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a signature is given from the keyboard alone, with the typed name', async () => {
    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${w.inspectionId}`);
    await page.getByRole('button', { name: /^Sign-off/ }).click();
    const name = page.getByLabel("Signer's name");
    await name.focus();
    await page.keyboard.type('Sam Carter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign with the typed name');
    await page.keyboard.press('Enter');
    await page.getByRole('img', { name: 'Signature of Sam Carter' }).or(page.getByText('Saved', { exact: true })).first().waitFor();
    await expect.poll(async () => (await sql`select value ->> 'signer' as signer from public.answers where inspection_id = ${w.inspectionId} and item_key = 'signature'`)[0]?.signer).toBe('Sam Carter');
  });
});
