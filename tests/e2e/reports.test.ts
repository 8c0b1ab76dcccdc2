// Reports in the browser (issue 16 part 3): on the inspections list a manager exports the
// inspections that the current filters select as CSV (and their answers), and on the run / review
// page downloads the inspection's PDF, at 390 px and at 1280 px. The downloads are the browser's
// own (Playwright's download event), parsed with csv-parse and pdf.js. Users and data are arranged
// through the API and the database.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '../support/database.ts';
import { team } from '../support/fixtures.ts';
import { api, PASSWORD, person, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const sql = db();
const { openPage } = useBrowser();
const screenshots = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e');

afterAll(closeDb);

const DEFINITION = {
  sections: [
    {
      key: 'kitchen',
      title: 'Kitchen',
      items: [
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
        { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
      ],
    },
  ],
};

describe('reports', () => {
  it('a manager exports the filtered list as CSV and downloads an inspection as PDF, at 390 px and 1280 px', async () => {
    const suffix = uniqueSuffix();
    const manager = await person('rep-manager', `Mia Ñandú ${suffix}`);
    const org = await api<{ id: string; slug: string; name: string }>(manager.client, 'orgs', 'POST', { name: `Café Reports ${suffix}` });
    const site = await api<{ id: string }>(manager.client, `orgs/${org.id}/sites`, 'POST', { name: 'Café Ñandú — 東京', timezone: 'Asia/Tokyo' });
    const other = await api<{ id: string }>(manager.client, `orgs/${org.id}/sites`, 'POST', { name: 'Harbour depot' });
    const template = await api<{ id: string }>(manager.client, `orgs/${org.id}/templates`, 'POST', { name: `Kitchen check ${suffix}`, definition: DEFINITION });
    await api(manager.client, `orgs/${org.id}/templates/${template.id}/publish`, 'POST');
    const inspection = await api<{ id: string }>(manager.client, `orgs/${org.id}/inspections`, 'POST', { site_id: site.id, template_id: template.id, title: 'Café Ñandú — 東京 audit' });
    await api(manager.client, `orgs/${org.id}/inspections`, 'POST', { site_id: other.id, template_id: template.id, title: 'Depot audit' });
    const run = `orgs/${org.id}/inspections/${inspection.id}`;
    await api(manager.client, `${run}/start`, 'POST', {});
    const { error } = await manager.client.functions.invoke(`api/${run}/answers`, {
      method: 'PUT',
      body: { answers: [{ item_key: 'floor', value: 'fail', note: '=cmd|calc', base_version: null }, { item_key: 'remarks', value: 'Zoë was here', base_version: null }] },
    });
    expect(error).toBeNull();

    for (const [size, options] of [['phone', phone()], ['desktop', { viewport: { width: 1280, height: 900 } }]] as const) {
      const page = await openPage({ ...options, acceptDownloads: true });
      await page.goto('/');
      await signInToOrganization(page, manager.email, org.slug);

      // The list, filtered to one status: the export holds what the filters select.
      await page.goto(`/o/${org.slug}/inspections?status=in_progress`);
      await page.getByRole('link', { name: 'Café Ñandú — 東京 audit' }).waitFor();
      const exportButton = page.getByRole('button', { name: 'Export inspections CSV' });
      await exportButton.waitFor();
      await page.screenshot({ path: path.join(screenshots, `reports-list-${size}.png`), fullPage: false });
      const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
      const today = new Date().toISOString().slice(0, 10);
      expect(download.suggestedFilename()).toBe(`${org.slug}-inspections-${today}.csv`);
      const csv = readFileSync((await download.path())!, 'utf8');
      const records: Record<string, string>[] = parse(csv, { columns: true, bom: true });
      expect(records.map((r) => r.title)).toEqual(['Café Ñandú — 東京 audit']);
      expect(records[0]).toMatchObject({ status: 'in_progress', site_name: 'Café Ñandú — 東京', site_timezone: 'Asia/Tokyo', started_by_name: `Mia Ñandú ${suffix}` });
      await page.getByText(`Downloaded ${org.slug}-inspections-${today}.csv.`).waitFor();

      const [answers] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export answers CSV' }).click()]);
      const answerRecords: Record<string, string>[] = parse(readFileSync((await answers.path())!, 'utf8'), { columns: true, bom: true });
      expect(answerRecords.map((r) => [r.item_key, r.value, r.note])).toEqual([['floor', 'Fail', "'=cmd|calc"], ['remarks', 'Zoë was here', '']]);

      // The run page: the PDF.
      await page.getByRole('link', { name: 'Café Ñandú — 東京 audit' }).click();
      const pdfButton = page.getByRole('button', { name: 'Download PDF' });
      await pdfButton.waitFor();
      await page.screenshot({ path: path.join(screenshots, `reports-run-${size}.png`), fullPage: false });
      const [pdf] = await Promise.all([page.waitForEvent('download'), pdfButton.click()]);
      expect(pdf.suggestedFilename()).toBe(`${org.slug}-Café Ñandú — 東京 audit-${today}.pdf`);
      const bytes = new Uint8Array(readFileSync((await pdf.path())!));
      const pdfDocument = await getDocument({ data: bytes, isEvalSupported: false }).promise;
      const first = await (await pdfDocument.getPage(1)).getTextContent();
      const text = first.items.map((item: any) => item.str).join('');
      expect(text).toContain('Café Ñandú — 東京 audit');
      expect(text).toContain(`Mia Ñandú ${suffix}`);
      await pdfDocument.destroy();
      await page.getByText(/^Downloaded .*\.pdf\.$/).waitFor();
      await page.screenshot({ path: path.join(screenshots, `reports-run-done-${size}.png`), fullPage: false });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    }
  }, 180_000);

  it('a refused export says why in the catalogue wording, and no file is offered', async () => {
    const suffix = uniqueSuffix();
    const { org, members: { manager } } = await team({
      label: 'rep',
      org: `Refused Co ${suffix}`,
      owner: `Olive Owner ${suffix}`,
      members: { manager: ['manager', `Rita Removed ${suffix}`] },
      password: PASSWORD,
    });
    const page = await openPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await page.goto('/');
    await signInToOrganization(page, manager.email, org.slug);
    await page.goto(`/o/${org.slug}/inspections`);
    await page.getByText('No inspections yet.').waitFor();
    // The manager's membership ends while the page is open, quietly (without the triggers that would
    // tell the open page at once): the api refuses the export, and the page says so.
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`delete from public.memberships where org_id = ${org.id} and user_id = ${manager.userId}`;
    });
    let downloaded = false;
    page.on('download', () => (downloaded = true));
    await page.getByRole('button', { name: 'Export inspections CSV' }).click();
    // Said beside the button, or — when the page learns from the refusal (or a refetch) that the
    // membership is gone, which races the alert — by the page itself, with its way out.
    await page.getByText("We couldn't find that organization.").first().waitFor();
    expect(downloaded).toBe(false);
  });
});
