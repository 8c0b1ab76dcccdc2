// The run page's deliberate steps (issue 23, part 5), in real Chromium at 390 px against the built
// app and the real stack: a second tap on the chosen answer keeps it and clearing is its own
// control (also offline, through the outbox); a long text answer or note shows its limit and says
// what a paste kept; submitting, approving and sending back ask first, saying what follows; a long
// template, mounted a few sections and items at a time (docs/offline.md, "Weight"), ends up whole
// and "Next unanswered" still reaches deep into it. Server state is read from the database.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { createSite, createTemplate, publish, team, type User } from '../support/fixtures.ts';
import { api, PASSWORD, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();
const shotsDir = new URL('../../test-results/e2e/', import.meta.url).pathname;

const DEFINITION = {
  sections: [
    {
      key: 'store',
      title: 'Store room',
      items: [
        { key: 'door', kind: 'pass_fail', label: 'Door closes fully', help: null, required: true, weight: 1 },
        { key: 'alarm', kind: 'yes_no', label: 'Alarm tested', help: null, required: true, weight: 1, fail_on: 'no' },
        { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
      ],
    },
  ],
};

interface World {
  orgId: string;
  slug: string;
  siteId: string;
  templateId: string;
  manager: User;
  inspector: User;
}

const w = {} as World;

beforeAll(async () => {
  const suffix = uniqueSuffix();
  const { org, owner, members } = await team({
    label: 'run',
    org: `Store Rooms ${suffix}`,
    owner: `Ada Owner ${suffix}`,
    members: { manager: ['manager', `Maya Manager ${suffix}`], inspector: ['inspector', `Ivan Inspector ${suffix}`] },
    password: PASSWORD,
  });
  const site = await createSite(owner, org.id, { name: `Back store ${suffix}` });
  const template = await createTemplate(members.manager.client, org.id, { name: `Store check ${suffix}`, definition: DEFINITION });
  await publish(members.manager.client, org.id, template.id);
  Object.assign(w, { orgId: org.id, slug: org.slug, siteId: site.id, templateId: template.id, ...members });
});

afterAll(closeDb);

/** An inspection assigned to the inspector, started. */
async function startedInspection(): Promise<string> {
  const inspection = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/inspections`, 'POST', {
    site_id: w.siteId,
    template_id: w.templateId,
    assignee_id: w.inspector.userId,
    title: `Store walk ${uniqueSuffix()}`,
  });
  await api(w.inspector.client, `orgs/${w.orgId}/inspections/${inspection.id}/start`, 'POST', {});
  return inspection.id;
}

async function openRun(page: Page, inspectionId: string, who: User = w.inspector) {
  await signInToOrganization(page, who.email, w.slug);
  await page.goto(`/o/${w.slug}/inspections/${inspectionId}`);
  await group(page, 'Door closes fully').waitFor();
}

const group = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });

async function serverValue(inspectionId: string, itemKey: string): Promise<unknown> {
  const rows = await sql<{ value: unknown }[]>`select value from public.answers where inspection_id = ${inspectionId} and item_key = ${itemKey}`;
  return rows[0]?.value ?? null;
}

const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.waitForFunction(() => !navigator.onLine);
}

describe('clearing an answer', () => {
  it('a second tap on the chosen answer keeps it; "Clear answer" clears it, online and offline through the outbox', async () => {
    const inspectionId = await startedInspection();
    const page = await openPage(phone());
    await openRun(page, inspectionId);
    const door = group(page, 'Door closes fully');
    await door.getByRole('button', { name: 'Pass', exact: true }).click();
    await saved(page).waitFor();
    await expect.poll(() => serverValue(inspectionId, 'door')).toBe('pass');

    // The thumb lands on Pass again: still Pass, here and on the server.
    await door.getByRole('button', { name: 'Pass', exact: true }).click();
    expect(await door.getByRole('button', { name: 'Pass', exact: true }).getAttribute('aria-pressed')).toBe('true');
    // Another answer goes through the same queue after it: once it is saved, nothing else is waiting.
    await group(page, 'Alarm tested').getByRole('button', { name: 'Yes', exact: true }).click();
    await saved(page).waitFor();
    await expect.poll(() => serverValue(inspectionId, 'alarm')).toBe('yes');
    expect(await serverValue(inspectionId, 'door')).toBe('pass');

    // Clearing is its own control, shown while there is an answer; focus stays on the item.
    const clear = page.getByRole('button', { name: 'Clear the answer to Door closes fully' });
    await clear.click();
    await door.getByRole('button', { name: 'Pass', pressed: false }).waitFor();
    expect(await clear.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pass');
    await expect.poll(() => serverValue(inspectionId, 'door')).toBeNull();

    // Offline: the clear waits on the device and is sent when the network is back.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await goOffline(page.context(), page);
    await page.getByRole('button', { name: 'Clear the answer to Alarm tested' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved on this device — will send when online (1 waiting)' }).waitFor();
    expect(await serverValue(inspectionId, 'alarm')).toBe('yes');
    await page.context().setOffline(false);
    await expect.poll(() => serverValue(inspectionId, 'alarm'), { timeout: 20_000 }).toBeNull();
    await saved(page).waitFor();
  });
});

describe('the limit of a text', () => {
  it('shows a live count near the limit, says typing stops there, and says what a paste kept', async () => {
    const inspectionId = await startedInspection();
    const page = await openPage({ ...phone(), permissions: ['clipboard-read', 'clipboard-write'] });
    await openRun(page, inspectionId);
    const remarks = page.getByLabel('Remarks', { exact: true });

    // Far from the limit: no count.
    await remarks.fill('Shelves fine.');
    expect(await page.getByText(/of 4,000 characters/).count()).toBe(0);
    // From 80 %: the count, and one polite announcement (not one per key).
    await remarks.fill('a'.repeat(3300));
    await page.getByText('3,300 of 4,000 characters.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Fewer than 800 characters left.' }).waitFor();
    await remarks.press('End');
    await remarks.press('b');
    await page.getByText('3,301 of 4,000 characters.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Fewer than 800 characters left.' }).waitFor();

    // A 5,000-character paste into the empty field keeps 4,000, and says so.
    await remarks.fill('');
    await page.evaluate((text) => navigator.clipboard.writeText(text), 'x'.repeat(5000));
    await remarks.focus();
    await page.keyboard.press('ControlOrMeta+V');
    const kept = 'Only the first 4,000 characters of the pasted text were kept: the limit is 4,000.';
    await page.locator('p.char-count').filter({ hasText: kept }).waitFor();
    await page.getByRole('status').filter({ hasText: kept }).waitFor();
    await page.getByText('4,000 of 4,000 characters: the limit, nothing more can be added.').waitFor();
    expect((await remarks.inputValue()).length).toBe(4000);
    await saved(page).waitFor();
    await expect.poll(async () => String(await serverValue(inspectionId, 'remarks')).length).toBe(4000);
    // Typing on at the limit adds nothing; the message about the paste goes with the next edit.
    await remarks.press('Backspace');
    await expect.poll(() => page.getByText(/pasted text were kept/).count()).toBe(0);
    await page.getByText('3,999 of 4,000 characters.').waitFor();

    // A note has its own limit (2,000), shown the same way.
    await page.getByRole('button', { name: 'Add a note to Door closes fully' }).click();
    await page.getByLabel('Note for Door closes fully').fill('n'.repeat(1700));
    await page.getByText('1,700 of 2,000 characters.').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shotsDir}run-page-limit-390.png`, fullPage: false });
  });
});

describe('steps that cannot be undone ask first', () => {
  it('submit says what is answered and which failed items open actions; "Keep editing" and Escape change nothing', async () => {
    const inspectionId = await startedInspection();
    for (const [index, size] of [phone(), { viewport: { width: 1280, height: 900 } }].entries()) {
      const page = await openPage(size);
      await openRun(page, inspectionId);
      if (index === 0) {
        await group(page, 'Door closes fully').getByRole('button', { name: 'Fail', exact: true }).click();
        await group(page, 'Alarm tested').getByRole('button', { name: 'Yes', exact: true }).click();
        await saved(page).waitFor();
      } else {
        // The answers given on the phone, read back on the wide screen.
        await group(page, 'Alarm tested').getByRole('button', { name: 'Yes', pressed: true }).waitFor();
      }
      const submit = page.getByRole('button', { name: 'Submit inspection' });
      await submit.click();
      const dialog = page.getByRole('dialog', { name: 'Submit this inspection?' });
      await dialog.getByText('2 of 3 items answered, all 2 required items among them.').waitFor();
      await dialog.getByText('1 failed item opens a corrective action (none for an item that already has one).').waitFor();
      await dialog.getByText('Once submitted, the answers can no longer be changed; a manager reviews them.').waitFor();
      // Focus starts on the safe choice, inside the dialog.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep editing');
      const box = (await dialog.boundingBox())!;
      const width = page.viewportSize()!.width;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `${shotsDir}run-page-submit-confirm-${width}.png` });
      await dialog.getByRole('button', { name: 'Keep editing' }).click();
      expect(await dialog.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Submit inspection');
      await submit.click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      expect(await dialog.count()).toBe(0);
      const [row] = await sql`select status from public.inspections where id = ${inspectionId}`;
      expect(row.status).toBe('in_progress');
      await page.context().close();
    }

    const page = await openPage(phone());
    await openRun(page, inspectionId);
    await page.getByRole('button', { name: 'Submit inspection' }).click();
    await page.getByRole('dialog', { name: 'Submit this inspection?' }).getByRole('button', { name: 'Submit inspection' }).click();
    await page.getByRole('definition').filter({ hasText: /^Submitted$/ }).waitFor();
    expect((await sql`select count(*)::int as n from public.actions where inspection_id = ${inspectionId}`)[0].n).toBe(1);
  });

  it('sending back needs a note (the request goes once one is typed) and asks first; approving says it is final', async () => {
    const inspectionId = await startedInspection();
    const path = `orgs/${w.orgId}/inspections/${inspectionId}`;
    const { error } = await w.inspector.client.functions.invoke(`api/${path}/answers`, {
      method: 'PUT',
      body: { answers: [{ item_key: 'door', value: 'fail', note: null, base_version: null }, { item_key: 'alarm', value: 'no', note: null, base_version: null }] },
    });
    expect(error).toBeNull();
    await api(w.inspector.client, `${path}/submit`, 'POST');

    const page = await openPage(phone());
    await openRun(page, inspectionId, w.manager);
    const review = page.getByRole('region', { name: 'Review' });
    await review.getByRole('button', { name: 'Request changes' }).click();
    await review.getByText('Say what needs to change in the review note.').waitFor();
    await review.getByLabel('Review note').fill('Check the alarm again with the site manager.');
    expect(await review.getByText('Say what needs to change in the review note.').count()).toBe(0);
    await review.getByRole('button', { name: 'Request changes' }).click();
    const back = page.getByRole('dialog', { name: 'Send it back for changes?' });
    await back.getByText(`${w.inspector.displayName} can change the answers and submit it again.`, { exact: false }).waitFor();
    await back.getByText('“Check the alarm again with the site manager.”', { exact: false }).waitFor();
    await page.screenshot({ path: `${shotsDir}run-page-request-changes-390.png` });
    await back.getByRole('button', { name: 'Cancel' }).click();

    await review.getByRole('button', { name: 'Approve' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve this inspection?' });
    await approve.getByText('Approval is final: the answers can no longer be changed, and the inspection can no longer be sent back.').waitFor();
    await approve.getByText('Its 2 failed items keep their corrective actions, open until each fix is verified.').waitFor();
    await approve.getByText('Your review note is kept with it.').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shotsDir}run-page-approve-390.png` });
    expect((await sql`select status from public.inspections where id = ${inspectionId}`)[0].status).toBe('submitted');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('definition').filter({ hasText: /^Approved$/ }).waitFor();
  });
});

describe('a long template', () => {
  it('mounts its sections and items a few at a time, all of them in the end, and "Next unanswered" reaches an item deep in a long section', async () => {
    // 14 sections (more than one turn of them) and a 40-item section (many turns of items).
    const definition = {
      sections: [
        { key: 'intro', title: 'Entrance', items: [{ key: 'mat', kind: 'pass_fail', label: 'Mat in place', help: null, required: true, weight: 1 }] },
        {
          key: 'racks',
          title: 'Racks',
          items: Array.from({ length: 40 }, (_, i) => ({ key: `rack-${i + 1}`, kind: 'pass_fail', label: `Rack ${i + 1} anchored`, help: null, required: true, weight: 1 })),
        },
        ...Array.from({ length: 12 }, (_, s) => ({
          key: `bay-${s + 1}`,
          title: `Bay ${s + 1}`,
          items: [{ key: `bay-${s + 1}-clear`, kind: 'yes_no', label: `Bay ${s + 1} clear`, help: null, required: false, weight: 1, fail_on: 'no' }],
        })),
      ],
    };
    const template = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/templates`, 'POST', { name: `Rack check ${uniqueSuffix()}`, definition });
    await api(w.manager.client, `orgs/${w.orgId}/templates/${template.id}/publish`, 'POST');
    const inspection = await api<{ id: string }>(w.manager.client, `orgs/${w.orgId}/inspections`, 'POST', {
      site_id: w.siteId,
      template_id: template.id,
      assignee_id: w.inspector.userId,
      title: `Rack walk ${uniqueSuffix()}`,
    });
    const path = `orgs/${w.orgId}/inspections/${inspection.id}`;
    await api(w.inspector.client, `${path}/start`, 'POST', {});
    // Everything answered up to rack 34.
    const answered = ['mat', ...Array.from({ length: 34 }, (_, i) => `rack-${i + 1}`)];
    const { error } = await w.inspector.client.functions.invoke(`api/${path}/answers`, {
      method: 'PUT',
      body: { answers: answered.map((key) => ({ item_key: key, value: 'pass', base_version: null })) },
    });
    expect(error).toBeNull();

    const page = await openPage(phone());
    await signInToOrganization(page, w.inspector.email, w.slug);
    await page.goto(`/o/${w.slug}/inspections/${inspection.id}`);
    await group(page, 'Mat in place').waitFor();
    // Every section's header is there in the end, the last one included, with its count.
    await page.getByRole('button', { name: /^Bay 12\b/ }).waitFor();
    expect(await page.locator('.accordion-section').count()).toBe(14);

    // From the entrance, "Next unanswered" opens the racks and lands on rack 35, in view and focused.
    await page.getByRole('button', { name: 'Next unanswered' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-item-key]')?.getAttribute('data-item-key'))).toBe('rack-35');
    // (It scrolls there smoothly: some 12,000 px.)
    const rack35 = group(page, 'Rack 35 anchored');
    const inView = async () => {
      const box = await rack35.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height;
    };
    await expect.poll(inView, { timeout: 10_000 }).toBe(true);
    // All 40 racks end up in the page, answers as saved.
    await group(page, 'Rack 40 anchored').waitFor();
    expect(await page.locator('[data-item-key^="rack-"]').count()).toBe(40);
    await group(page, 'Rack 34 anchored').getByRole('button', { name: 'Pass', pressed: true }).waitFor();
  });
});
