// Corrective actions (issue 11) in real Chromium against the real stack: an inspection submitted
// with failed items opens one action per item; the inspector, on a phone, sees them arrive on the
// dashboard live, starts one and resolves it with a photo and a note; the manager reviews the
// inspection and verifies the fix; the activity feed shows each step. Users, the organization, the
// template and the inspection's answers are arranged through the API and the database; everything
// asserted happens in the UI.
import type { Page } from 'playwright-core';
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
      key: 'kitchen',
      title: 'Kitchen',
      items: [
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
        { key: 'fridge', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 1, min: 0, max: 5, unit: '°C' },
        { key: 'bins', kind: 'pass_fail', label: 'Bins are closed', help: null, required: true, weight: 1 },
      ],
    },
  ],
};

interface World {
  orgId: string;
  slug: string;
  name: string;
  siteId: string;
  templateId: string;
  manager: User;
  inspector: User;
  viewer: User;
}

/** An organization with a manager, an inspector and a viewer, a site and a published template. */
async function world(): Promise<World> {
  const suffix = uniqueSuffix();
  const name = `Harbour Kitchens ${suffix}`;
  const { org, owner, members } = await team({
    label: 'act',
    org: name,
    owner: `Ada Owner ${suffix}`,
    members: { manager: ['manager', `Maya Manager ${suffix}`], inspector: ['inspector', `Ivan Inspector ${suffix}`], viewer: ['viewer', `Vera Viewer ${suffix}`] },
    password: PASSWORD,
  });
  const site = await createSite(owner, org.id, { name: `Quay canteen ${suffix}` });
  const template = await createTemplate(members.manager.client, org.id, { name: `Kitchen check ${suffix}`, definition: DEFINITION });
  await publish(members.manager.client, org.id, template.id);
  return { orgId: org.id, slug: org.slug, name, siteId: site.id, templateId: template.id, ...members };
}

/** An inspection assigned to the inspector, started and answered through the API: the floor and the fridge fail. */
async function answeredInspection(w: World): Promise<string> {
  const inspection = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/inspections`, 'POST', {
    site_id: w.siteId,
    template_id: w.templateId,
    assignee_id: w.inspector.userId,
  });
  const path = `orgs/${w.orgId}/inspections/${inspection.id}`;
  await api(w.inspector.client, `${path}/start`, 'POST', {});
  const { error } = await w.inspector.client.functions.invoke(`api/${path}/answers`, {
    method: 'PUT',
    body: {
      answers: [
        { item_key: 'floor', value: 'fail', note: 'Grease by the fryer.', base_version: null },
        { item_key: 'fridge', value: 8, note: null, base_version: null },
        { item_key: 'bins', value: 'pass', note: null, base_version: null },
      ],
    },
  });
  if (error) throw new Error(`answers failed: ${await error.context?.text?.()}`);
  return inspection.id;
}

/** A 16 × 16 JPEG from Chromium's own encoder: real image bytes that decode. */
async function smallJpeg(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 16;
    canvas.height = 16;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2a7';
    context.fillRect(0, 0, 16, 16);
    return canvas.toDataURL('image/jpeg', 0.8);
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** A JPEG of `width` × `height` from Chromium's own encoder: a phone camera's photo is far wider than a phone's screen. */
async function jpegOfSize(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#a52';
      context.fillRect(0, 0, w, h);
      return canvas.toDataURL('image/jpeg', 0.6);
    },
    [width, height],
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** The count on a dashboard tile, by its label. */
function tile(page: Page, label: string) {
  return page.getByRole('link', { name: new RegExp(`^\\d+\\s*${label}$`) });
}

async function tileCount(page: Page, label: string): Promise<number> {
  return Number((await tile(page, label).locator('.count-tile-number').textContent()) ?? 'NaN');
}

describe('corrective actions in the web app', () => {
  it('failed items open actions on submit; the inspector on a phone resolves one with a photo and a note; the manager verifies it; the feed shows each step', async () => {
    const w = await world();
    const inspectionId = await answeredInspection(w);

    // The inspector's dashboard is open on a phone before anything is submitted.
    const inspector = await openPage(phone());
    await signInToOrganization(inspector, w.inspector.email, w.slug);
    await tile(inspector, 'My open actions').waitFor();
    expect(await tileCount(inspector, 'My open actions')).toBe(0);

    // Submitting opens one action per failed item; they reach the inspector's dashboard with no reload.
    await api(w.inspector.client, `orgs/${w.orgId}/inspections/${inspectionId}/submit`, 'POST');
    await expect.poll(() => tileCount(inspector, 'My open actions'), { timeout: UI_TIMEOUT }).toBe(2);
    const feed = inspector.getByRole('list', { name: 'Latest activity' });
    await feed.getByText(`${w.inspector.displayName} submitted`, { exact: false }).first().waitFor();

    // The manager reviews: the failed items lead the page, each with its action; approve is in reach.
    const manager = await openPage();
    await signInToOrganization(manager, w.manager.email, w.slug);
    await manager.goto(`/o/${w.slug}/inspections/${inspectionId}`);
    const failed = manager.getByRole('region', { name: '2 failed items' });
    await failed.waitFor();
    expect(await failed.locator('.failed-summary > li').allTextContents()).toEqual([
      expect.stringContaining('Floor is clean — Fail'),
      expect.stringContaining('Fridge temperature — 8 °C'),
    ]);
    // The inspection's actions are a read of their own, which may arrive after the failed items show.
    await expect.poll(() => failed.getByRole('link', { name: 'Action' }).count(), { timeout: UI_TIMEOUT }).toBe(2);
    await manager.getByRole('button', { name: 'Approve' }).click();
    // Approving asks first: it is final, and the failed items' actions stay open.
    const confirm = manager.getByRole('dialog', { name: 'Approve this inspection?' });
    await confirm.getByText('Its 2 failed items keep their corrective actions, open until each fix is verified.').waitFor();
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await manager.getByRole('definition').filter({ hasText: /^Approved$/ }).waitFor();
    await feed.getByText(`${w.manager.displayName} approved`, { exact: false }).first().waitFor();

    // The inspector follows the tile to their open actions and opens the floor's.
    await tile(inspector, 'My open actions').click();
    await inspector.getByRole('list', { name: 'Actions' }).getByRole('link', { name: 'Floor is clean — Fail' }).click();
    await inspector.getByRole('heading', { level: 1, name: 'Floor is clean — Fail' }).waitFor();
    expect(await inspector.getByRole('button', { name: 'Verify fix' }).count()).toBe(0);
    await inspector.getByRole('button', { name: 'Start work' }).click();
    await inspector.getByRole('definition').filter({ hasText: /^In progress/ }).waitFor();

    // A photo of the fix, then resolving: first without a note (asked for), then with one.
    await inspector.getByLabel('Add photo of the fix').setInputFiles({ name: 'floor.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(inspector) });
    // Exactly this name: until its signed URL arrives, the thumbnail is a placeholder named
    // "Photo 1 of the fix (loading)", which a substring match found first on a loaded machine.
    const thumbnail = inspector.getByRole('img', { name: 'Photo 1 of the fix', exact: true });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: UI_TIMEOUT }).toBe(16);
    await inspector.getByRole('button', { name: 'Mark resolved' }).click();
    await inspector.getByText('Say what was done to fix it.').waitFor();
    await inspector.getByLabel('Note').fill('Degreased the floor and moved the fryer mat.');
    await inspector.getByRole('button', { name: 'Mark resolved' }).click();
    await inspector.getByRole('definition').filter({ hasText: /^Resolved/ }).waitFor();
    expect(await inspector.getByRole('button', { name: 'Add photo of the fix' }).count()).toBe(0);
    const inspectorHistory = inspector.getByRole('list', { name: 'History' });
    await inspectorHistory.getByText(`${w.inspector.displayName} marked it resolved.`).waitFor();
    await inspectorHistory.getByText('Degreased the floor and moved the fryer mat.').waitFor();

    // The manager opens the action from the review page and verifies the fix.
    await manager.getByRole('region', { name: '2 failed items' }).getByRole('link', { name: 'Action' }).first().click();
    await manager.getByRole('heading', { level: 1, name: 'Floor is clean — Fail' }).waitFor();
    await manager.getByRole('img', { name: 'Photo 1 of the fix' }).waitFor();
    await manager.getByRole('button', { name: 'Verify fix' }).click();
    await manager.getByRole('definition').filter({ hasText: /^Verified/ }).waitFor();
    expect(await manager.getByRole('button', { name: /Verify fix|Reopen|Cancel action/ }).count()).toBe(0);

    // The feed on the inspector's phone shows each step, live.
    await inspector.goto(`/o/${w.slug}`);
    for (const step of [
      `${w.inspector.displayName} submitted`,
      `${w.manager.displayName} approved`,
      `${w.inspector.displayName} started work on action Floor is clean — Fail`,
      `${w.inspector.displayName} resolved action Floor is clean — Fail`,
    ]) {
      await feed.getByText(step, { exact: false }).first().waitFor();
    }
    await feed.getByText(`${w.manager.displayName} verified action Floor is clean — Fail`, { exact: false }).waitFor();
    expect(await tileCount(inspector, 'My open actions')).toBe(1);
    // Nothing on the phone scrolls sideways.
    expect(await inspector.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  it('shows each person only the steps they may take: none for a viewer, no verify for the inspector', async () => {
    const w = await world();
    const inspectionId = await answeredInspection(w);
    await api(w.inspector.client, `orgs/${w.orgId}/inspections/${inspectionId}/submit`, 'POST');
    const [floor] = await sql<{ id: string }[]>`select id from public.actions where inspection_id = ${inspectionId} and item_key = 'floor'`;
    await api(w.inspector.client, `orgs/${w.orgId}/actions/${floor.id}/transition`, 'POST', { to: 'in_progress' });
    await api(w.inspector.client, `orgs/${w.orgId}/actions/${floor.id}/transition`, 'POST', { to: 'resolved', note: 'Cleaned.' });

    const viewer = await openPage();
    await signInToOrganization(viewer, w.viewer.email, w.slug);
    await viewer.goto(`/o/${w.slug}/actions/${floor.id}`);
    await viewer.getByRole('heading', { level: 1, name: 'Floor is clean — Fail' }).waitFor();
    await viewer.getByRole('list', { name: 'History' }).waitFor();
    expect(await viewer.getByRole('button').filter({ hasText: /Verify fix|Reopen|Cancel action|Start work|Mark resolved|Edit or reassign|Add photo/ }).count()).toBe(0);
    expect(await viewer.getByRole('link', { name: 'Settings' }).count()).toBe(0);

    const inspector = await openPage(phone());
    await signInToOrganization(inspector, w.inspector.email, w.slug);
    await inspector.goto(`/o/${w.slug}/actions/${floor.id}`);
    await inspector.getByRole('definition').filter({ hasText: /^Resolved/ }).waitFor();
    expect(await inspector.getByRole('button', { name: /Verify fix|Reopen|Cancel action|Edit or reassign/ }).count()).toBe(0);

    // The manager may reopen, and is asked why.
    const manager = await openPage();
    await signInToOrganization(manager, w.manager.email, w.slug);
    await manager.goto(`/o/${w.slug}/actions/${floor.id}`);
    await manager.getByRole('button', { name: 'Reopen' }).click();
    await manager.getByText('Say why the fix is not good enough.').waitFor();
    await manager.getByLabel('Note').fill('Still greasy by the back door.');
    await manager.getByRole('button', { name: 'Reopen' }).click();
    await manager.getByRole('definition').filter({ hasText: /^Open/ }).waitFor();
    await manager.getByRole('list', { name: 'History' }).getByText('Still greasy by the back door.').waitFor();
  });

  it('an inspector opens an action from an item of the run page; it is theirs and links back to the item', async () => {
    const w = await world();
    const inspectionId = await answeredInspection(w);
    const inspector = await openPage(phone());
    await signInToOrganization(inspector, w.inspector.email, w.slug);
    await inspector.goto(`/o/${w.slug}/inspections/${inspectionId}`);
    await inspector.getByRole('button', { name: 'Add action for Bins are closed' }).click();
    const form = inspector.getByRole('form', { name: 'Add action for Bins are closed' });
    expect(await form.getByLabel('Title').inputValue()).toBe('Bins are closed — Pass');
    // An inspector opens actions for themselves: no assignee to pick.
    expect(await form.getByLabel('Assignee').count()).toBe(0);
    await form.getByLabel('Title').fill('Replace the cracked bin lid');
    await form.getByRole('button', { name: 'Open action' }).click();
    await inspector.getByRole('status').filter({ hasText: `Action opened: Replace the cracked bin lid, assigned to ${w.inspector.displayName}.` }).waitFor();
    await inspector.getByRole('link', { name: 'Open the new action' }).click();
    await inspector.getByRole('heading', { level: 1, name: 'Replace the cracked bin lid' }).waitFor();
    await inspector.getByText('item “Bins are closed”').waitFor();
    await inspector.getByRole('button', { name: 'Start work' }).waitFor();
  });

  it('a direct link to an action with a photo of the fix, opened as the first page on a phone, sizes the photo and does not scroll sideways', async () => {
    const w = await world();
    const inspectionId = await answeredInspection(w);
    await api(w.inspector.client, `orgs/${w.orgId}/inspections/${inspectionId}/submit`, 'POST');
    const [floor] = await sql<{ id: string }[]>`select id from public.actions where inspection_id = ${inspectionId} and item_key = 'floor'`;
    const actionPath = `orgs/${w.orgId}/actions/${floor.id}`;
    await api(w.inspector.client, `${actionPath}/transition`, 'POST', { to: 'in_progress' });

    const page = await openPage(phone());
    // A camera-sized photo of the fix, checked in, uploaded and confirmed through the api.
    const photo = await jpegOfSize(page, 1600, 1200);
    const created = await api<{ attachment: { id: string }; upload: { path: string; token: string } }>(w.inspector.client, `${actionPath}/attachments`, 'POST', {
      content_type: 'image/jpeg',
      byte_size: photo.length,
    });
    const { error } = await w.inspector.client.storage.from('evidence').uploadToSignedUrl(created.upload.path, created.upload.token, photo, { contentType: 'image/jpeg' });
    expect(error).toBeNull();
    await api(w.inspector.client, `${actionPath}/attachments/${created.attachment.id}/confirm`, 'POST');

    // Signed in, then the action's address is the first page the app loads (no run page before it).
    await signInToOrganization(page, w.manager.email, w.slug);
    await page.goto(`/o/${w.slug}/actions/${floor.id}`);
    const thumbnail = page.getByRole('img', { name: 'Photo 1 of the fix' });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
    // A thumbnail, not the photo at its own size.
    expect((await thumbnail.boundingBox())!.width).toBeLessThanOrEqual(120);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
