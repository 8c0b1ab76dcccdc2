// The run page offline (issue 12) in real Chromium against the built app and the real stack: an
// inspector on a phone loses the network, keeps answering and adds a photo, reloads while offline
// and finds every change still there and said to be on the device; back online, each change
// reaches the server exactly once and a second inspector sees it live. Also: the function
// answering 503 for a while (the test's route mock of the network, outside the product), and a
// conflict made while offline. Server state is checked through the database, never assumed.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { createSite, createTemplate, publish, team, type User } from '../support/fixtures.ts';
import { api, PASSWORD, phone, signInToOrganization, UI_TIMEOUT, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();

afterAll(closeDb);

const DEFINITION = {
  sections: [
    {
      key: 'store',
      title: 'Cold store',
      items: [
        { key: 'door', kind: 'pass_fail', label: 'Door closes fully', help: null, required: true, weight: 1 },
        { key: 'seal', kind: 'pass_fail', label: 'Door seal intact', help: null, required: true, weight: 1 },
        { key: 'alarm', kind: 'yes_no', label: 'Alarm tested', help: null, required: true, weight: 1, fail_on: 'no' },
        { key: 'temp', kind: 'number', label: 'Air temperature', help: null, required: true, weight: 1, min: -25, max: -18, unit: '°C' },
        { key: 'notes', kind: 'text', label: 'Notes', help: null, required: false, weight: 0 },
        { key: 'evidence', kind: 'photo', label: 'Freezer display', help: null, required: false, weight: 0, max_photos: 2 },
      ],
    },
  ],
};

interface World {
  orgId: string;
  slug: string;
  inspectionId: string;
  a: User;
  b: User;
}

/** An organization with two inspectors and an unassigned inspection in progress that both may fill. */
async function world(): Promise<World> {
  const suffix = uniqueSuffix();
  const { org, owner, members } = await team({
    label: 'off',
    org: `Cold Chain ${suffix}`,
    owner: `Ada Owner ${suffix}`,
    members: { a: ['inspector', `Ivy Inspector ${suffix}`], b: ['inspector', `Jon Inspector ${suffix}`] },
    password: PASSWORD,
  });
  const site = await createSite(owner, org.id, { name: `Depot ${suffix}` });
  const template = await createTemplate(owner.client, org.id, { name: `Freezer check ${suffix}`, definition: DEFINITION });
  await publish(owner.client, org.id, template.id);
  const inspection = await api<{ id: string }>(owner.client, `orgs/${org.id}/inspections`, 'POST', { site_id: site.id, template_id: template.id });
  await api(members.a.client, `orgs/${org.id}/inspections/${inspection.id}/start`, 'POST', {});
  return { orgId: org.id, slug: org.slug, inspectionId: inspection.id, ...members };
}

/** A 16 × 16 JPEG from Chromium's own encoder. */
async function smallJpeg(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 16;
    canvas.height = 16;
    canvas.getContext('2d')!.fillRect(0, 0, 16, 16);
    return canvas.toDataURL('image/jpeg', 0.8);
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Saved|Saving|on this device|Couldn't save|attention/ }).first();
const group = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });

/** Opens the run page and waits until it would open offline: the service worker active, the data kept on the device. */
async function openForOffline(page: Page, w: World) {
  await signInToOrganization(page, w.a.email, w.slug);
  await page.goto(`/o/${w.slug}/inspections/${w.inspectionId}`);
  await group(page, 'Door closes fully').waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // The query cache is written to IndexedDB at most once a second.
  await page.waitForTimeout(1500);
}

async function answersOnServer(inspectionId: string) {
  return await sql<{ item_key: string; value: unknown; version: number }[]>`
    select item_key, value, version from public.answers where inspection_id = ${inspectionId} order by item_key
  `;
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.waitForFunction(() => !navigator.onLine);
}

describe('the run page offline', () => {
  it('answers and a photo made offline survive a reload, then reach the server exactly once and another inspector live', async () => {
    const w = await world();
    const page = await openPage(phone());
    const context = page.context();
    await openForOffline(page, w);

    const other = await openPage(phone());
    await signInToOrganization(other, w.b.email, w.slug);
    await other.goto(`/o/${w.slug}/inspections/${w.inspectionId}`);
    await group(other, 'Door closes fully').waitFor();

    await goOffline(context, page);
    await group(page, 'Door closes fully').getByRole('button', { name: 'Pass', exact: true }).click();
    await group(page, 'Door seal intact').getByRole('button', { name: 'Fail', exact: true }).click();
    await group(page, 'Alarm tested').getByRole('button', { name: 'Yes', exact: true }).click();
    await page.getByLabel('Air temperature', { exact: true }).fill('-21');
    await page.getByLabel('Notes', { exact: true }).fill('Ice on the evaporator.');
    await page.getByLabel('Add photo to Freezer display').setInputFiles({ name: 'display.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(page) });
    await status(page).filter({ hasText: 'Saved on this device — will send when online (6 waiting)' }).waitFor();
    await page.getByText('On this device — will upload when online').waitFor();
    expect(await answersOnServer(w.inspectionId)).toEqual([]);

    // A reload with no network: the app, the inspection and every waiting change come back.
    await page.reload();
    await group(page, 'Door closes fully').getByRole('button', { name: 'Pass', pressed: true }).waitFor();
    await group(page, 'Door seal intact').getByRole('button', { name: 'Fail', pressed: true }).waitFor();
    expect(await page.getByLabel('Air temperature', { exact: true }).inputValue()).toBe('-21');
    expect(await page.getByLabel('Notes', { exact: true }).inputValue()).toBe('Ice on the evaporator.');
    await page.getByRole('img', { name: 'display.jpg (not uploaded yet)' }).waitFor();
    await status(page).filter({ hasText: 'Saved on this device — will send when online (6 waiting)' }).waitFor();
    expect(await answersOnServer(w.inspectionId)).toEqual([]);

    // Back online: everything arrives, once.
    await context.setOffline(false);
    await status(page).filter({ hasText: /^Saved$/ }).waitFor({ timeout: UI_TIMEOUT * 2 });
    expect(await answersOnServer(w.inspectionId)).toEqual([
      { item_key: 'alarm', value: 'yes', version: 1 },
      { item_key: 'door', value: 'pass', version: 1 },
      { item_key: 'notes', value: 'Ice on the evaporator.', version: 1 },
      { item_key: 'seal', value: 'fail', version: 1 },
      { item_key: 'temp', value: -21, version: 1 },
    ]);
    await page.getByRole('img', { name: 'Photo 1 of Freezer display' }).waitFor();
    const photos = await sql`select confirmed_at from public.attachments where inspection_id = ${w.inspectionId}`;
    expect(photos.map((p) => p.confirmed_at !== null)).toEqual([true]);
    const audited = await sql`select count(*)::int as n from public.audit_log where entity = 'answers' and after ->> 'inspection_id' = ${w.inspectionId}`;
    expect(audited[0].n).toBe(5);
    // The other inspector's page follows with no reload.
    await group(other, 'Door seal intact').getByRole('button', { name: 'Fail', pressed: true }).waitFor();
    await other.getByRole('img', { name: 'Photo 1 of Freezer display' }).waitFor();
  });

  it('keeps retrying while the function answers 503, then delivers each answer once', async () => {
    const w = await world();
    const page = await openPage(phone());
    await signInToOrganization(page, w.a.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${w.inspectionId}`);
    await group(page, 'Door closes fully').waitFor();
    // The network between the browser and the function fails for a while (a mock of the network,
    // which is outside the product): every answers request is answered 503 until the route is lifted.
    let refused = 0;
    await page.route('**/functions/v1/api/orgs/*/inspections/*/answers', (route) => {
      refused++;
      return route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ code: 'service_unavailable', status: 503, title: 'The service is briefly unavailable. Your changes are safe; try again in a moment.', detail: '', type: '', request_id: 'x' }) });
    });
    await group(page, 'Door closes fully').getByRole('button', { name: 'Fail', exact: true }).click();
    await group(page, 'Alarm tested').getByRole('button', { name: 'No', exact: true }).click();
    await status(page).filter({ hasText: /Couldn't save — retrying/ }).waitFor();
    await expect.poll(() => refused, { timeout: UI_TIMEOUT }).toBeGreaterThanOrEqual(2);
    expect(await answersOnServer(w.inspectionId)).toEqual([]);
    await page.unroute('**/functions/v1/api/orgs/*/inspections/*/answers');
    await page.getByRole('button', { name: 'Retry now' }).click();
    await status(page).filter({ hasText: /^Saved$/ }).waitFor();
    expect(await answersOnServer(w.inspectionId)).toEqual([
      { item_key: 'alarm', value: 'no', version: 1 },
      { item_key: 'door', value: 'fail', version: 1 },
    ]);
  });

  it('a conflict made offline shows both values; the one chosen is kept', async () => {
    const w = await world();
    const page = await openPage(phone());
    const context = page.context();
    await openForOffline(page, w);
    await goOffline(context, page);
    await group(page, 'Door seal intact').getByRole('button', { name: 'Pass', exact: true }).click();
    await status(page).filter({ hasText: 'Saved on this device' }).waitFor();

    // Meanwhile the other inspector records a failure of the same item.
    const { error } = await w.b.client.functions.invoke(`api/orgs/${w.orgId}/inspections/${w.inspectionId}/answers`, {
      method: 'PUT',
      body: { answers: [{ item_key: 'seal', value: 'fail', note: null, base_version: null }] },
    });
    expect(error).toBeNull();

    await context.setOffline(false);
    const conflict = page.getByRole('alert').filter({ hasText: `${w.b.displayName} saved “Fail” while you were editing. Yours: “Pass”.` });
    await conflict.waitFor({ timeout: UI_TIMEOUT * 2 });
    await status(page).filter({ hasText: '1 answer needs your attention' }).waitFor();
    expect(await answersOnServer(w.inspectionId)).toEqual([{ item_key: 'seal', value: 'fail', version: 1 }]);
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await status(page).filter({ hasText: /^Saved$/ }).waitFor();
    expect(await answersOnServer(w.inspectionId)).toEqual([{ item_key: 'seal', value: 'pass', version: 2 }]);
  });
});
