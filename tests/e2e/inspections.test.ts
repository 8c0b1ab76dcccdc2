// Templates and inspections (issue 5) in real Chromium against the real stack: a manager builds a
// template with an item of every kind and publishes it, schedules an inspection, and two inspectors
// on phone-sized touch screens run it together, live, with a photo, up to submission. Users, the
// organization and the site are made through the API, memberships straight in the database;
// everything asserted happens in the UI.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { closeDb } from '../support/database.ts';
import { createSite, team, type User } from '../support/fixtures.ts';
import { api, isFocused, orgNav, PASSWORD, pathIs, phone, signInToOrganization, UI_TIMEOUT, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

// team() writes memberships through the shared connection.
afterAll(closeDb);

// The site's position, and the phones' a few metres from it (well inside the geofence).
const SITE_POSITION = { latitude: 51.5072, longitude: -0.1276 };
const ON_SITE = { latitude: 51.50725, longitude: -0.12765 };

interface Crew {
  orgId: string;
  slug: string;
  name: string;
  siteId: string;
  siteName: string;
  manager: User;
  inspectorA: User;
  inspectorB: User;
}

/** An owner's organization with a site that has a position, a manager and two inspectors. */
async function crew(): Promise<Crew> {
  const suffix = uniqueSuffix();
  const name = `Harbour Kitchens ${suffix}`;
  const { org, owner, members } = await team({
    label: 'run',
    org: name,
    owner: `Ada Owner ${suffix}`,
    members: {
      manager: ['manager', `Ben Manager ${suffix}`],
      inspectorA: ['inspector', `Ivy Inspector ${suffix}`],
      inspectorB: ['inspector', `Jon Inspector ${suffix}`],
    },
    password: PASSWORD,
  });
  const siteName = `Quay canteen ${suffix}`;
  const site = await createSite(owner, org.id, { name: siteName, ...SITE_POSITION });
  return { orgId: org.id, slug: org.slug, name, siteId: site.id, siteName, ...members };
}

/** A 16 × 16 JPEG from Chromium's own encoder: real image bytes that decode, not just a JPEG header. */
async function smallJpeg(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 16;
    canvas.height = 16;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2a7';
    context.fillRect(0, 0, 16, 16);
    context.fillStyle = '#fff';
    context.fillRect(4, 4, 8, 8);
    return canvas.toDataURL('image/jpeg', 0.8);
  });
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  return bytes;
}

/** The item of the run page whose label is `label`. */
function answerItem(page: Page, label: string): Locator {
  return page.locator('[data-item-key]').filter({ has: page.locator('.answer-label').getByText(label, { exact: true }) });
}

/** The run page's accordion trigger of a section, by its progress ("Kitchen 3 of 9"). */
function sectionProgress(page: Page, title: string, done: number, total: number, complete = false): Locator {
  return page.getByRole('button', { name: new RegExp(`^${title}\\s*${done} of ${total}${complete ? '\\s*complete' : ''}$`) });
}

function saveState(page: Page, text: string): Locator {
  return page.getByRole('status').filter({ hasText: new RegExp(`^${text}$`) });
}

/** In the editor, adds an item of `kind` to the section `region`; returns the item's fieldset. */
async function addItem(region: Locator, kind: string, position: number): Promise<Locator> {
  await region.getByLabel('New item kind').selectOption({ label: kind });
  await region.getByRole('button', { name: 'Add item' }).click();
  const item = region.getByRole('group', { name: `Item ${position} · ${kind}`, exact: true });
  await item.waitFor();
  // Focus goes to the new item's label, ready to type.
  await expect.poll(() => isFocused(item.getByLabel('Label', { exact: true }))).toBe(true);
  return item;
}

async function fillOptions(item: Locator, options: string[], failing: string[]) {
  for (const [index, option] of options.entries()) {
    if (index > 0) await item.getByRole('button', { name: 'Add option' }).click();
    await item.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option);
    if (failing.includes(option)) await item.getByLabel(`Option ${index + 1} fails`, { exact: true }).check();
  }
}

/** Draws a stroke on a signature box with the pointer. */
async function sign(page: Page, canvas: Locator) {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('The signature box is not on screen');
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.3, { steps: 6 });
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.6, { steps: 6 });
  await page.mouse.up();
}

describe('inspections in the web app', () => {
  let org: Crew;

  beforeEach(async () => {
    org = await crew();
  });

  it('a manager builds a template of every item kind, publishes and schedules it; two inspectors on phones run it together live, with a photo, and submit', async () => {
    // The manager builds the template in the editor.
    const manager = await openPage();
    await signInToOrganization(manager, org.manager.email, org.slug);
    await orgNav(manager, org.name).getByRole('link', { name: 'Templates' }).click();
    await manager.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await manager.getByRole('button', { name: 'New template' }).click();
    const templateName = `Kitchen check ${uniqueSuffix()}`;
    await manager.getByLabel('Template name').fill(templateName);
    await manager.getByLabel('Description').fill('Daily walk of the kitchen and cold store.');
    await manager.getByRole('button', { name: 'Create template' }).click();
    await manager.waitForURL(pathIs(new RegExp(`^/o/${org.slug}/templates/[0-9a-f-]{36}$`)));
    await manager.getByRole('heading', { level: 1, name: templateName }).waitFor();

    await manager.getByRole('button', { name: 'Add section' }).click();
    const title = manager.getByLabel('Section title');
    await expect.poll(() => isFocused(title)).toBe(true);
    await title.fill('Kitchen');
    const kitchen = manager.getByRole('region', { name: /^Kitchen/ });

    const passFail = await addItem(kitchen, 'Pass / fail', 1);
    await passFail.getByLabel('Label', { exact: true }).fill('Hand-wash station stocked');
    await passFail.getByLabel('Required', { exact: true }).check();

    const yesNo = await addItem(kitchen, 'Yes / no', 2);
    await yesNo.getByLabel('Label', { exact: true }).fill('Signs of pests');
    await yesNo.getByLabel('Fails when answered').selectOption('yes');

    const number = await addItem(kitchen, 'Number', 3);
    await number.getByLabel('Label', { exact: true }).fill('Fridge temperature');
    await number.getByLabel('Minimum').fill('0');
    await number.getByLabel('Maximum').fill('5');
    await number.getByLabel('Unit').fill('°C');
    await number.getByLabel('Required', { exact: true }).check();

    const text = await addItem(kitchen, 'Text', 4);
    await text.getByLabel('Label', { exact: true }).fill('Remarks');
    await text.getByLabel('Required', { exact: true }).check();

    const single = await addItem(kitchen, 'Single choice', 5);
    await single.getByLabel('Label', { exact: true }).fill('Floor condition');
    await fillOptions(single, ['Clean', 'Worn', 'Dirty'], ['Dirty']);
    await single.getByLabel('Required', { exact: true }).check();

    const multi = await addItem(kitchen, 'Multiple choice', 6);
    await multi.getByLabel('Label', { exact: true }).fill('Allergens labelled');
    await fillOptions(multi, ['Nuts', 'Gluten', 'Dairy'], []);

    const date = await addItem(kitchen, 'Date', 7);
    await date.getByLabel('Label', { exact: true }).fill('Last pest control visit');

    const photo = await addItem(kitchen, 'Photo', 8);
    await photo.getByLabel('Label', { exact: true }).fill('Cold room');
    await photo.getByLabel('Maximum photos').fill('2');
    await photo.getByLabel('Required', { exact: true }).check();

    const signature = await addItem(kitchen, 'Signature', 9);
    await signature.getByLabel('Label', { exact: true }).fill('Chef on duty');

    await manager.getByRole('button', { name: /^Kitchen\s*9 items$/ }).waitFor();
    await manager.getByRole('button', { name: 'Save draft' }).click();
    await manager.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await manager.getByRole('button', { name: 'Publish' }).click();
    await manager.getByRole('status').filter({ hasText: 'Version 1 published.' }).waitFor();
    await manager.locator('.template-save-state').filter({ hasText: 'Saved and published as version 1' }).waitFor();

    // It schedules an inspection of the site with the template, for any inspector.
    await orgNav(manager, org.name).getByRole('link', { name: 'Inspections' }).click();
    await manager.getByRole('heading', { level: 1, name: 'Inspections' }).waitFor();
    await manager.getByRole('button', { name: 'Schedule inspection' }).click();
    const form = manager.getByRole('form', { name: 'Schedule an inspection' });
    await form.getByLabel('Site', { exact: true }).selectOption({ label: org.siteName });
    await form.getByLabel('Template', { exact: true }).selectOption({ label: `${templateName} (version 1)` });
    expect(await form.getByLabel('Assignee', { exact: true }).locator('option:checked').textContent()).toBe('Unassigned (any inspector)');
    await form.getByRole('button', { name: 'Schedule inspection' }).click();
    await manager.waitForURL(pathIs(new RegExp(`^/o/${org.slug}/inspections/[0-9a-f-]{36}$`)));
    const inspectionPath = new URL(manager.url()).pathname;
    await manager.getByRole('heading', { level: 1, name: `${templateName} — ${org.siteName}` }).waitFor();
    await manager.getByRole('definition').filter({ hasText: /^Scheduled$/ }).waitFor();

    // Inspector A starts it on a phone at the site.
    const a = await openPage(phone(ON_SITE));
    await signInToOrganization(a, org.inspectorA.email, org.slug);
    await a.goto(inspectionPath);
    await a.getByRole('button', { name: 'Start inspection' }).click();
    await a.getByRole('definition').filter({ hasText: /^In progress$/ }).waitFor();
    await a.getByRole('definition').filter({ hasText: /\d+ m from the site/ }).waitFor();
    expect(await a.getByText('Outside the geofence').count()).toBe(0);
    await sectionProgress(a, 'Kitchen', 0, 9).waitFor();

    // A answers item after item; the section's progress follows.
    await a.getByRole('group', { name: 'Hand-wash station stocked', exact: true }).getByRole('button', { name: 'Pass', exact: true }).click();
    await a.getByRole('group', { name: 'Hand-wash station stocked', exact: true }).getByRole('button', { name: 'Pass', pressed: true }).waitFor();
    await sectionProgress(a, 'Kitchen', 1, 9).waitFor();
    await a.getByLabel('Fridge temperature', { exact: true }).fill('3.5');
    await sectionProgress(a, 'Kitchen', 2, 9).waitFor();
    await a.getByRole('radiogroup', { name: 'Floor condition' }).getByLabel('Clean').check();
    await a.getByRole('group', { name: 'Allergens labelled' }).getByLabel('Nuts').check();
    await a.getByRole('group', { name: 'Allergens labelled' }).getByLabel('Dairy').check();
    await a.getByLabel('Last pest control visit', { exact: true }).fill('2026-11-02');
    await sectionProgress(a, 'Kitchen', 5, 9).waitFor();
    await saveState(a, 'Saved').waitFor();

    // A photo from the phone: uploaded, checked, and shown as a thumbnail that decodes.
    await a.getByLabel('Add photo to Cold room').setInputFiles({ name: 'cold-room.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(a) });
    const thumbnail = a.getByRole('list', { name: 'Photos for Cold room' }).getByRole('img', { name: 'Photo 1 of Cold room', exact: true });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((image) => (image as HTMLImageElement).naturalWidth), { timeout: UI_TIMEOUT }).toBe(16);
    await sectionProgress(a, 'Kitchen', 6, 9).waitFor();

    // A signature: a drawn stroke and the signer's name.
    await a.getByLabel("Signer's name").fill('Carla Chef');
    await sign(a, a.getByRole('img', { name: /^Signature box for Chef on duty/ }));
    await sectionProgress(a, 'Kitchen', 7, 9).waitFor();
    await saveState(a, 'Saved').waitFor();

    // Inspector B opens the same inspection on a second phone: each is shown to the other.
    const b = await openPage(phone(ON_SITE));
    await signInToOrganization(b, org.inspectorB.email, org.slug);
    await b.goto(inspectionPath);
    await a.evaluate(() => Object.assign(window, { fieldcheckNotReloaded: true }));
    const alsoHere = a.getByRole('status').filter({ hasText: 'Also here:' });
    await alsoHere.filter({ hasText: org.inspectorB.displayName }).waitFor();
    await b.getByRole('status').filter({ hasText: 'Also here:' }).filter({ hasText: org.inspectorA.displayName }).waitFor();
    // B sees what A saved.
    await b.getByRole('group', { name: 'Hand-wash station stocked', exact: true }).getByRole('button', { name: 'Pass', pressed: true }).waitFor();
    await sectionProgress(b, 'Kitchen', 7, 9).waitFor();

    // B answers an item; it arrives on A's page without a reload.
    await b.getByRole('group', { name: 'Signs of pests', exact: true }).getByRole('button', { name: 'No', exact: true }).click();
    await saveState(b, 'Saved').waitFor();
    await a.getByRole('group', { name: 'Signs of pests', exact: true }).getByRole('button', { name: 'No', pressed: true }).waitFor();
    await answerItem(a, 'Signs of pests').getByText(`Answered by ${org.inspectorB.displayName}`).waitFor();
    await sectionProgress(a, 'Kitchen', 8, 9).waitFor();
    expect(await a.evaluate(() => (window as unknown as { fieldcheckNotReloaded?: boolean }).fieldcheckNotReloaded)).toBe(true);

    // With one required item unanswered, submitting waits: the button says why and leads to it.
    const submit = a.getByRole('button', { name: 'Submit inspection' });
    expect(await submit.isDisabled()).toBe(true);
    await a.getByText('Answer 1 more required item to submit.').waitFor();
    const missing = a.getByRole('list', { name: 'Unanswered required items' });
    expect(await missing.getByRole('listitem').allTextContents()).toEqual(['Remarks']);
    await a.getByRole('button', { name: 'Go to “Remarks”' }).click();
    await expect.poll(() => isFocused(a.getByLabel('Remarks', { exact: true }))).toBe(true);

    // A answers it: the section is complete, and the inspection goes in.
    await a.getByLabel('Remarks', { exact: true }).fill('Fridge door seal worn; otherwise fine.');
    await sectionProgress(a, 'Kitchen', 9, 9, true).waitFor();
    // The summary follows: nothing left to list; once the answer is sent, submitting is open.
    await a.getByText('Every required item is answered.').waitFor();
    expect(await missing.count()).toBe(0);
    await saveState(a, 'Saved').waitFor();
    await submit.click();
    // Submitting asks first, saying what follows.
    const confirm = a.getByRole('dialog', { name: 'Submit this inspection?' });
    await confirm.getByText('items answered', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Submit inspection' }).click();
    await a.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();

    // Read-only once submitted: no submit, no photo adding, no answer control enabled (an item's
    // "Add action", which opens a corrective action on it, is not an answer control).
    expect(await a.getByRole('button', { name: 'Submit inspection' }).count()).toBe(0);
    expect(await a.getByLabel('Add photo to Cold room').count()).toBe(0);
    const answerControls = a.locator('[data-item-key]').locator('input, textarea, button, select');
    expect(await answerControls.count()).toBeGreaterThan(0);
    expect(await a.locator('[data-item-key] :is(input, textarea, button, select):enabled:not(.item-actions *)').count()).toBe(0);
    expect(await a.locator('[data-item-key] .item-actions button:enabled').count()).toBeGreaterThan(0);
    expect(await a.getByRole('group', { name: 'Hand-wash station stocked', exact: true }).getByRole('button', { name: 'Pass', exact: true }).isDisabled()).toBe(true);
    expect(await a.getByLabel('Remarks', { exact: true }).inputValue()).toBe('Fridge door seal worn; otherwise fine.');
    // B's page follows the submission live and turns read-only too.
    await b.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();
    expect(await b.getByRole('button', { name: 'Submit inspection' }).count()).toBe(0);
    // The manager's open page too.
    await manager.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();
  });

  it('refuses a renamed text file as a photo, fails a number out of range, and keeps saved answers over a reload', async () => {
    const definition = {
      sections: [
        {
          key: 'cold-store',
          title: 'Cold store',
          items: [
            { key: 'door', kind: 'pass_fail', label: 'Door closes fully', help: null, required: true, weight: 1 },
            { key: 'temperature', kind: 'number', label: 'Freezer temperature', help: null, required: true, weight: 2, min: -25, max: -18, unit: '°C' },
            { key: 'notes', kind: 'text', label: 'Notes', help: null, required: false, weight: 1 },
            { key: 'evidence', kind: 'photo', label: 'Freezer display', help: null, required: false, weight: 1, max_photos: 1 },
          ],
        },
      ],
    };
    const template = await api<{ id: string }>(org.manager.client, `orgs/${org.orgId}/templates`, 'POST', { name: `Freezer check ${uniqueSuffix()}`, definition });
    await api(org.manager.client, `orgs/${org.orgId}/templates/${template.id}/publish`, 'POST');
    const inspection = await api<{ id: string }>(org.manager.client, `orgs/${org.orgId}/inspections`, 'POST', { site_id: org.siteId, template_id: template.id });

    const page = await openPage(phone(ON_SITE));
    await signInToOrganization(page, org.inspectorA.email, org.slug);
    await page.goto(`/o/${org.slug}/inspections/${inspection.id}`);
    await page.getByRole('button', { name: 'Start inspection' }).click();
    await page.getByRole('definition').filter({ hasText: /^In progress$/ }).waitFor();

    // A text file named like a photo is refused by what its bytes are, and nothing is attached.
    await page.getByLabel('Add photo to Freezer display').setInputFiles({
      name: 'freezer.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('Freezer at -21 degrees, display reads fine.\n'),
    });
    await answerItem(page, 'Freezer display')
      .getByRole('alert')
      .filter({ hasText: 'freezer.jpg: Only JPEG, PNG, WebP or HEIC photos can be uploaded.' })
      .waitFor();
    expect(await page.getByRole('list', { name: 'Photos for Freezer display' }).count()).toBe(0);
    await answerItem(page, 'Freezer display').getByText('No photos yet.').waitFor();

    // A freezer at -12 °C is outside -25…-18: the item is marked failed.
    await page.getByRole('group', { name: 'Door closes fully', exact: true }).getByRole('button', { name: 'Pass', exact: true }).click();
    await page.getByLabel('Freezer temperature', { exact: true }).fill('-12');
    await answerItem(page, 'Freezer temperature').getByText('Failed', { exact: true }).waitFor();
    expect(await answerItem(page, 'Door closes fully').getByText('Failed', { exact: true }).count()).toBe(0);
    await page.getByLabel('Notes', { exact: true }).fill('Ice on the evaporator.');
    await saveState(page, 'Saved').waitFor();
    // The server scored it too: one failed item.
    await page.getByRole('definition').filter({ hasText: '1 failed' }).waitFor();

    // After a reload the saved answers are all there, the failure with them.
    await page.reload();
    await sectionProgress(page, 'Cold store', 3, 4).waitFor();
    expect(await page.getByLabel('Freezer temperature', { exact: true }).inputValue()).toBe('-12');
    await answerItem(page, 'Freezer temperature').getByText('Failed', { exact: true }).waitFor();
    await page.getByRole('group', { name: 'Door closes fully', exact: true }).getByRole('button', { name: 'Pass', pressed: true }).waitFor();
    expect(await page.getByLabel('Notes', { exact: true }).inputValue()).toBe('Ice on the evaporator.');
    await page.getByRole('definition').filter({ hasText: '1 failed' }).waitFor();
  });
});
