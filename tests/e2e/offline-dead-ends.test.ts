// Issue 23: on site, the app never traps an inspector. In real Chromium at 390 px, against the web
// app as `npm start` serves it (the production build with its service worker, stack/web.ts) and the
// real stack: an expired session reloaded offline stays on the run page and is renewed when the
// network returns; a first visit gone offline expands every section of a run page without an
// error; an inspection never opened on the device says so at once; the inspector's upcoming work
// is on the device before they go offline; and after a refresh the server refuses, signing in
// sends the answers that waited on the device at once. Server state is read from the database.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { createSite, createTemplate, publish, team, type User } from '../support/fixtures.ts';
import { api, PASSWORD, pathIs, phone, signInToOrganization, UI_TIMEOUT, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();

afterAll(closeDb);

// Every kind of item that loads code of its own on the run page: photos, a signature, a rule.
const DEFINITION = {
  sections: [
    {
      key: 'arrival',
      title: 'Arrival',
      items: [
        { key: 'door', kind: 'pass_fail', label: 'Door closes fully', help: null, required: true, weight: 1 },
        { key: 'kitchen', kind: 'yes_no', label: 'Food cooked on site', help: null, required: false, weight: 0 },
        { key: 'notes', kind: 'text', label: 'Notes', help: null, required: false, weight: 0 },
      ],
    },
    {
      key: 'cooking',
      title: 'Cooking',
      show_when: { match: 'all', conditions: [{ item: 'kitchen', op: 'equals', value: 'yes' }] },
      items: [{ key: 'probe', kind: 'number', label: 'Probe reading', help: null, required: false, weight: 1, min: 70, max: 100, unit: '°C' }],
    },
    {
      key: 'evidence',
      title: 'Evidence',
      items: [{ key: 'display', kind: 'photo', label: 'Freezer display', help: null, required: false, weight: 0, max_photos: 2 }],
    },
    {
      key: 'sign-off',
      title: 'Summary and sign-off',
      items: [{ key: 'signature', kind: 'signature', label: 'Manager signature', help: null, required: false, weight: 0 }],
    },
  ],
};

interface World {
  orgId: string;
  slug: string;
  siteId: string;
  templateId: string;
  owner: User;
  inspector: User;
  other: User;
}

async function world(): Promise<World> {
  const suffix = uniqueSuffix();
  const { org, owner, members } = await team({
    label: 'dead',
    org: `Basements ${suffix}`,
    owner: `Ada Owner ${suffix}`,
    members: { inspector: ['inspector', `Ivy Inspector ${suffix}`], other: ['inspector', `Otto Other ${suffix}`] },
    password: PASSWORD,
  });
  const site = await createSite(owner, org.id, { name: `Cellar ${suffix}`, timezone: 'America/Los_Angeles' });
  const template = await createTemplate(owner.client, org.id, { name: `Cellar walk ${suffix}`, definition: DEFINITION });
  await publish(owner.client, org.id, template.id);
  return { orgId: org.id, slug: org.slug, siteId: site.id, templateId: template.id, owner, ...members };
}

/** A scheduled inspection of the world's template; `start`: started by its assignee (or the inspector). */
async function inspection(w: World, options: { title: string; assignee?: User | null; dueInDays?: number; start?: boolean }): Promise<string> {
  const { id } = await api<{ id: string }>(w.owner.client, `orgs/${w.orgId}/inspections`, 'POST', {
    site_id: w.siteId,
    template_id: w.templateId,
    title: options.title,
    ...(options.assignee ? { assignee_id: options.assignee.userId } : {}),
    ...(options.dueInDays !== undefined ? { due_at: new Date(Date.now() + options.dueInDays * 86_400_000).toISOString() } : {}),
  });
  if (options.start) await api((options.assignee ?? w.inspector).client, `orgs/${w.orgId}/inspections/${id}/start`, 'POST', {});
  return id;
}

const group = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const saveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /Saved|Saving|on this device|Couldn't save|attention/ }).first();

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.waitForFunction(() => !navigator.onLine);
}

/** The service worker has installed the whole app and controls the page (its first visit included). */
async function appOnDevice(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: UI_TIMEOUT * 2 });
}

/** Makes the session supabase-js stored look expired (as an hour later): only the device's view of it changes. */
async function expireStoredSession(page: Page) {
  await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => /^sb-.*-auth-token$/.test(name))!;
    const session = JSON.parse(localStorage.getItem(key)!);
    session.expires_at = Math.floor(Date.now() / 1000) - 60;
    localStorage.setItem(key, JSON.stringify(session));
  });
}

async function storedExpiry(page: Page): Promise<number> {
  return await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => /^sb-.*-auth-token$/.test(name))!;
    return JSON.parse(localStorage.getItem(key)!).expires_at as number;
  });
}

async function answersOnServer(inspectionId: string) {
  return await sql<{ item_key: string; value: unknown }[]>`select item_key, value from public.answers where inspection_id = ${inspectionId} order by item_key`;
}

/** Opens every folded section of the run page (the accordion's headers), as a user tapping each one would. */
async function expandEverySection(page: Page) {
  for (;;) {
    const folded = page.locator('main button[aria-expanded="false"]');
    if ((await folded.count()) === 0) return;
    await folded.first().click();
  }
}

async function hasBlankOrErrorPage(page: Page): Promise<string | null> {
  const text = (await page.locator('body').innerText()).trim();
  if (text === '') return 'blank page';
  if (/Unexpected Application Error|Something went wrong|isn't on this device yet/.test(text)) return text.slice(0, 200);
  return null;
}

describe('offline, the app never traps an inspector', () => {
  it('an expired session reloaded offline stays on the run page; back online it is renewed and the answers go', async () => {
    const w = await world();
    const id = await inspection(w, { title: 'Expired offline', assignee: w.inspector, start: true });
    const page = await openPage(phone());
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${id}`);
    await group(page, 'Door closes fully').waitFor();
    await appOnDevice(page);
    // The query cache reaches IndexedDB at most once a second.
    await page.waitForTimeout(1500);

    await goOffline(context, page);
    await expireStoredSession(page);
    const started = Date.now();
    await page.reload();
    await group(page, 'Door closes fully').waitFor();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(page.url()).toContain(`/inspections/${id}`);
    await group(page, 'Door closes fully').getByRole('button', { name: 'Pass', exact: true }).click();
    await page.getByLabel('Notes', { exact: true }).fill('Damp in the corner.');
    await saveStatus(page).filter({ hasText: 'Saved on this device — will send when online (2 waiting)' }).waitFor();
    expect(await answersOnServer(id)).toEqual([]);

    // Back online: the refresh token renews the session, with no sign-in, and the answers arrive.
    await context.setOffline(false);
    await saveStatus(page).filter({ hasText: /^Saved$/ }).waitFor({ timeout: UI_TIMEOUT * 2 });
    expect(await answersOnServer(id)).toEqual([
      { item_key: 'door', value: 'pass' },
      { item_key: 'notes', value: 'Damp in the corner.' },
    ]);
    expect(await storedExpiry(page)).toBeGreaterThan(Date.now() / 1000 + 600);
    expect(page.url()).toContain(`/inspections/${id}`);
  });

  it('a first visit that goes offline expands every section of the run page with no error', async () => {
    const w = await world();
    const id = await inspection(w, { title: 'First visit', assignee: w.inspector, start: true });
    const page = await openPage(phone());
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${id}`);
    await group(page, 'Door closes fully').waitFor();
    await appOnDevice(page);

    await goOffline(context, page);
    await group(page, 'Food cooked on site').getByRole('button', { name: 'Yes', exact: true }).click();
    await expandEverySection(page);
    await page.getByLabel('Probe reading', { exact: true }).waitFor();
    await page.getByLabel('Add photo to Freezer display').waitFor();
    await page.getByRole('button', { name: 'Sign with the typed name' }).waitFor();
    await group(page, 'Door closes fully').getByRole('button', { name: 'Fail', exact: true }).click();
    expect(await hasBlankOrErrorPage(page)).toBeNull();
  });

  it('without a service worker too, the run page fetches the code it may need once it is open', async () => {
    const w = await world();
    const id = await inspection(w, { title: 'No worker', assignee: w.inspector, start: true });
    // A browser that keeps no service worker (private modes, some managed phones).
    const page = await openPage({ ...phone(), serviceWorkers: 'block' });
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${id}`);
    await group(page, 'Door closes fully').waitFor();
    // The user's first tap lets the page load what waits for them; then the network goes quiet.
    await page.getByRole('heading', { level: 1 }).click();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle');

    await goOffline(context, page);
    await group(page, 'Food cooked on site').getByRole('button', { name: 'Yes', exact: true }).click();
    await expandEverySection(page);
    await page.getByLabel('Probe reading', { exact: true }).waitFor();
    await page.getByLabel('Add photo to Freezer display').waitFor();
    await page.getByRole('button', { name: 'Sign with the typed name' }).waitFor();
    expect(await hasBlankOrErrorPage(page)).toBeNull();
  });

  it('a screen whose code never reached the device says so offline, inside the frame, with Reload — never a blank page', async () => {
    const w = await world();
    // No service worker, so nothing is precached: the members screen's code was never fetched.
    const page = await openPage({ ...phone(), serviceWorkers: 'block' });
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await goOffline(context, page);
    await page.getByRole('navigation', { name: /Basements/ }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('navigation', { name: 'More' }).getByRole('link', { name: 'Members' }).click();
    const error = page.getByRole('alert');
    await error.getByRole('heading', { name: "This part of Fieldcheck isn't on this device yet." }).waitFor();
    await error.getByText('Connect to the internet, then reload.', { exact: false }).waitFor();
    // The frame stays: the tab bar leads elsewhere, and Reload is there for when the network is back.
    await page.getByRole('navigation', { name: /Basements/ }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  });

  it('an inspection never opened on this device says so within 2 s offline, with a way back', async () => {
    const w = await world();
    // Someone else's work, due in a month: not the inspector's upcoming work, so not fetched ahead.
    const id = await inspection(w, { title: 'Not mine', assignee: w.other, dueInDays: 30 });
    const page = await openPage(phone());
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections`);
    const link = page.getByRole('link', { name: 'Not mine' });
    await link.waitFor();
    await appOnDevice(page);

    await goOffline(context, page);
    const started = Date.now();
    await link.click();
    await page.getByText("This inspection hasn't been opened on this device yet. Connect to the internet to open it.").waitFor({ timeout: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
    await page.getByRole('link', { name: 'Back to inspections' }).click();
    await page.waitForURL(pathIs(`/o/${w.slug}/inspections`));
    await page.getByRole('link', { name: 'Not mine' }).waitFor();

    // The network back: the same page opens the inspection.
    await context.setOffline(false);
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Not mine' }).waitFor();
  });

  it("the inspector's upcoming work is on the device before it is needed: opened offline, never opened before", async () => {
    const w = await world();
    await inspection(w, { title: 'Assigned tomorrow', assignee: w.inspector, dueInDays: 1 });
    await inspection(w, { title: 'Anyone this week', dueInDays: 5 });
    await inspection(w, { title: 'Anyone next month', dueInDays: 30 });
    const page = await openPage(phone());
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await appOnDevice(page);
    // The dashboard is quiet: the work is fetched in the background; the list marks what is on the device.
    await page.goto(`/o/${w.slug}/inspections`);
    const row = (title: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await row('Assigned tomorrow').getByText('Available offline').waitFor({ timeout: UI_TIMEOUT * 2 });
    await row('Anyone this week').getByText('Available offline').waitFor();
    expect(await row('Anyone next month').getByText('Available offline').count()).toBe(0);
    // The device's copy is written at most once a second.
    await page.waitForTimeout(1500);

    await goOffline(context, page);
    await page.reload();
    await page.getByRole('link', { name: 'Assigned tomorrow', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Assigned tomorrow' }).waitFor();
    await group(page, 'Door closes fully').waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Anyone this week', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Anyone this week' }).waitFor();
  });

  it('after a refresh the server refuses, the sign-in page says how many answers wait, and signing in sends them within 3 s', async () => {
    const w = await world();
    const id = await inspection(w, { title: 'Refused refresh', assignee: w.inspector, start: true });
    const page = await openPage(phone());
    const context = page.context();
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${id}`);
    await group(page, 'Door closes fully').waitFor();
    await appOnDevice(page);
    await page.waitForTimeout(1500);

    await goOffline(context, page);
    await group(page, 'Door closes fully').getByRole('button', { name: 'Pass', exact: true }).click();
    await page.getByLabel('Notes', { exact: true }).fill('Ceiling stain.');
    await saveStatus(page).filter({ hasText: 'Saved on this device — will send when online (2 waiting)' }).waitFor();
    // Meanwhile the session ends on the server (signed out everywhere, or expired for good) and
    // the device's copy of it runs out.
    await sql`delete from auth.sessions where user_id = ${w.inspector.userId}`;
    await expireStoredSession(page);

    await context.setOffline(false);
    await page.waitForURL(pathIs('/sign-in'), { timeout: UI_TIMEOUT * 2 });
    const notices = page.getByTestId('sign-in-notices');
    await notices.getByText('Your session has expired. Please sign in again.').waitFor();
    await notices.getByText(`2 answers wait on this device for ${w.inspector.email}, to be sent as soon as you sign in.`).waitFor();
    expect(await answersOnServer(id)).toEqual([]);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(w.inspector.email);

    // Offline, the sign-in page says why signing in must wait, instead of failing.
    await goOffline(context, page);
    await page.reload();
    await notices.getByText("You're offline — your answers are saved on this device.", { exact: false }).waitFor();
    await notices.getByText(`2 answers wait on this device for ${w.inspector.email}`, { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).isDisabled()).toBe(true);
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Sign in', exact: true }).and(page.locator(':enabled')).waitFor();

    await page.getByLabel('Password', { exact: true }).fill('inspect-sites-42');
    const signedIn = Date.now();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(async () => (await answersOnServer(id)).length, { timeout: 3000, interval: 100 }).toBe(2);
    expect(Date.now() - signedIn).toBeLessThan(3000);
    expect(await answersOnServer(id)).toEqual([
      { item_key: 'door', value: 'pass' },
      { item_key: 'notes', value: 'Ceiling stain.' },
    ]);
  });
});
