// The inspection report PDF (issue 16 parts 2 and 4), parsed with pdf.js (its text) and pdf-lib
// (its image objects): the cover, every item, the failed items with their corrective actions, the
// unicode names in an embedded font, the photos and the signature as images, a WebP as a labelled
// placeholder, page numbers; members and keys of the organization get it, nobody else does.
import { writeFileSync } from 'node:fs';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../keys/support.ts';
import { accessTokenOf, csvReport, PHOTO, rawReport, SIGNATURE_DATA_URL, textOf, uploadPhoto } from './support.ts';
import { call, expectProblem, expectStatus, MISSING_ID, post } from '../../support/api.ts';
import { createPublishedTemplate, createGeofencedSite, inspectionPath, inspectionWorldAndStranger, startInspection } from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';

const { world, stranger } = inspectionWorldAndStranger();

const DEFINITION = {
  sections: [
    {
      key: 'kitchen',
      title: 'Kitchen — Küche 厨房',
      items: [
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 2 },
        { key: 'fridge', kind: 'number', label: 'Fridge temperature', help: null, required: false, weight: 1, min: 0, max: 5, unit: '°C' },
        { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
        { key: 'photos', kind: 'photo', label: 'Photos of the kitchen', help: null, required: false, weight: 0, max_photos: 4 },
      ],
    },
    {
      key: 'sign_off',
      title: 'Sign-off',
      items: [
        { key: 'exit_clear', kind: 'yes_no', label: 'Fire exit is clear', help: null, required: false, weight: 1, fail_on: 'no' },
        {
          key: 'exit_blocked_by', kind: 'text', label: 'What blocks the exit', help: null, required: false, weight: 0,
          show_when: { match: 'all', conditions: [{ item: 'exit_clear', op: 'equals', value: 'no' }] },
        },
        { key: 'not_answered', kind: 'text', label: 'Anything else', help: null, required: false, weight: 0 },
        { key: 'signature', kind: 'signature', label: 'Manager signature', help: null, required: false, weight: 0 },
      ],
    },
  ],
};

let inspectionId: string;
let pdfBytes: Uint8Array;
let pdfResponse: Response;

/** The image XObjects of a PDF, by pdf-lib's parse of its objects. */
async function imageObjects(bytes: Uint8Array): Promise<PDFRawStream[]> {
  const document = await PDFDocument.load(bytes);
  return document.context.enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((object): object is PDFRawStream => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
}

beforeAll(async () => {
  const site = await createGeofencedSite(world.manager, world.org.id, {
    name: 'Café Ñandú — 東京', address: '1-1 Marunouchi, Chiyoda, Tokyo', latitude: 35.68123, longitude: 139.76712, geofence_m: 100, timezone: 'Asia/Tokyo',
  });
  const template = await createPublishedTemplate(world.manager, world.org.id, DEFINITION, 'Kitchen audit — Café Ñandú');
  const created = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/inspections`, { site_id: site.id, template_id: template.id, title: 'Café Ñandú — 東京' }), 201);
  inspectionId = created.id;
  // Started about 1.1 km away: outside the 100 m geofence.
  await startInspection(world, inspectionId, world.inspector, { latitude: 35.69123, longitude: 139.76712, accuracy_m: 12 });
  expectStatus(await call(world.inspector.client, `${inspectionPath(world.org.id, inspectionId)}/answers`, {
    method: 'PUT',
    body: { answers: [
      { item_key: 'floor', value: 'fail', note: 'Grease under the fryer — 油', base_version: null },
      { item_key: 'fridge', value: 3.5, base_version: null },
      { item_key: 'remarks', value: 'Staff: Zoë, Łukasz, 山田太郎', base_version: null },
      { item_key: 'exit_clear', value: 'no', base_version: null },
      { item_key: 'exit_blocked_by', value: 'Pallets of flour', base_version: null },
      { item_key: 'signature', value: { signer: 'Ñandú Manager', image: SIGNATURE_DATA_URL }, base_version: null },
    ] },
  }), 200);
  // The exit is cleared: the follow-up question is hidden by its rule, its answer kept but not counted.
  expectStatus(await call(world.inspector.client, `${inspectionPath(world.org.id, inspectionId)}/answers`, {
    method: 'PUT',
    body: { answers: [{ item_key: 'exit_clear', value: 'yes', base_version: 1 }] },
  }), 200);
  await uploadPhoto(world, inspectionId, 'photos', world.inspector, PHOTO.jpeg, 'image/jpeg');
  await uploadPhoto(world, inspectionId, 'photos', world.inspector, PHOTO.png, 'image/png');
  await uploadPhoto(world, inspectionId, 'photos', world.inspector, PHOTO.webp, 'image/webp');
  expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, inspectionId)}/submit`, undefined), 200);
  // The failed item's action, opened by the submit, gets an assignee and a clear title.
  await db()`update public.actions set title = 'Degrease the floor under the fryer' where inspection_id = ${inspectionId} and item_key = 'floor'`;

  pdfResponse = await rawReport(await accessTokenOf(world.manager), `${inspectionPath(world.org.id, inspectionId)}/report.pdf`);
  expect(pdfResponse.status).toBe(200);
  pdfBytes = new Uint8Array(await pdfResponse.arrayBuffer());
  // To look at it: REPORT_PDF_OUT=/tmp/report.pdf, then pdftoppm -png /tmp/report.pdf /tmp/page.
  if (process.env.REPORT_PDF_OUT) writeFileSync(process.env.REPORT_PDF_OUT, pdfBytes);
}, 120_000);

describe('report.pdf', () => {
  it('is a PDF download named after the organization, the inspection and the day, of the length it announced', async () => {
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    expect(Number(pdfResponse.headers.get('content-length'))).toBe(pdfBytes.byteLength);
    const today = new Date().toISOString().slice(0, 10);
    expect(pdfResponse.headers.get('content-disposition')).toBe(
      `attachment; filename="${world.org.slug}-Cafe-Nandu-.pdf"; filename*=UTF-8''${encodeURIComponent(`${world.org.slug}-Café Ñandú — 東京-${today}.pdf`)}`.replace(
        `${world.org.slug}-Cafe-Nandu-.pdf`,
        `${world.org.slug}-Cafe-Nandu--${today}.pdf`,
      ),
    );
    expect(new TextDecoder().decode(pdfBytes.subarray(0, 8))).toBe('%PDF-1.7');
    expect(new TextDecoder().decode(pdfBytes.subarray(-6))).toContain('%%EOF');
  });

  it('has the cover, every section and item, the unicode names, and page numbers, as pdf.js reads its text', async () => {
    const { pages, numPages } = await textOf(pdfBytes);
    const all = pages.join('\n');
    expect(numPages).toBeGreaterThanOrEqual(2);
    // The cover.
    expect(pages[0]).toContain('Inspection report');
    expect(pages[0]).toContain('Café Ñandú — 東京');
    expect(pages[0]).toContain(world.org.name);
    expect(pages[0]).toContain('1-1 Marunouchi, Chiyoda, Tokyo');
    expect(pages[0]).toContain('35.68123, 139.76712');
    expect(pages[0]).toContain('Kitchen audit — Café Ñandú, version 1');
    expect(pages[0]).toContain('Submitted');
    expect(pages[0]).toContain('Ivan Inspector');
    expect(pages[0]).toMatch(/Started \d+ m from the site \(accuracy 12 m\): OUTSIDE its 100 m geofence/);
    expect(pages[0]).toMatch(/GMT\+9 \(Asia\/Tokyo\)/);
    expect(pages[0]).toMatch(/\d+(\.\d)?% \(\d+ of \d+\)/);
    // The failed item and its corrective action.
    expect(all).toContain('Failed items and corrective actions (1)');
    expect(all).toContain('Degrease the floor under the fryer');
    expect(all).toContain('Grease under the fryer — 油');
    // Every section and item, answered or not.
    for (const section of DEFINITION.sections) {
      expect(all).toContain(section.title);
      for (const item of section.items) expect(all).toContain(item.label);
    }
    expect(all).toContain('3.5 °C');
    expect(all).toContain('Staff: Zoë, Łukasz, 山田太郎');
    expect(all).toContain('Not answered');
    expect(all).toContain('Signed by Ñandú Manager');
    expect(all).toContain('FAIL');
    expect(all).toContain('PASS');
    // The item its rule hides: shown as not asked, its kept answer as not counted.
    expect(all).toContain("Hidden by the template's rules: not asked, not counted.");
    expect(all).toContain('Kept answer, not counted: Pallets of flour');
    expect(all).toContain("2 of 3 answered (1 hidden by the template's rules)");
    // The WebP, labelled rather than left out.
    expect(all).toContain('WebP photo not shown');
    expect(all).toContain('PDF cannot show WebP images');
    // Page numbers and the time it was made, on every page.
    for (const [i, page] of pages.entries()) {
      expect(page).toContain(`Page ${i + 1} of ${numPages}`);
      expect(page).toContain('generated');
    }
  });

  it('embeds the JPEG and PNG photos and the signature as images, the JPEG byte for byte as uploaded', async () => {
    const images = await imageObjects(pdfBytes);
    expect(images.length).toBe(3);
    const jpeg = images.find((image) => image.dict.get(PDFName.of('Filter')) === PDFName.of('DCTDecode'))!;
    expect(jpeg).toBeDefined();
    expect(Buffer.from(jpeg.getContents()).equals(Buffer.from(PHOTO.jpeg))).toBe(true);
    expect(String(jpeg.dict.get(PDFName.of('Width')))).toBe('320');
    expect(String(jpeg.dict.get(PDFName.of('Height')))).toBe('240');
    const { images: painted } = await textOf(pdfBytes);
    expect(painted).toBe(3);
  });

  it('embeds a font with the unicode names, subset to the characters used', async () => {
    const document = await PDFDocument.load(pdfBytes);
    const fonts = document.context.enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object: any) => object?.dict?.get?.(PDFName.of('Type')) === PDFName.of('Font') || object?.get?.(PDFName.of('Type')) === PDFName.of('Font'));
    const names = fonts.map((font: any) => String((font.dict ?? font).get(PDFName.of('BaseFont')) ?? ''));
    expect(names.some((name) => /NotoSans-Regular|NotoSans_400Regular|NotoSans$/.test(name) || name.includes('NotoSans'))).toBe(true);
    expect(names.some((name) => name.includes('NotoSansSC'))).toBe(true);
    // Subset: far smaller than the 10 MB CJK font it came from.
    expect(pdfBytes.byteLength).toBeLessThan(1_500_000);
  });
});

describe('answers.csv of the same inspection', () => {
  it('marks the answer its rule hides, kept but counted for nothing', async () => {
    const { records } = await csvReport(world.manager.client, world.org.id, 'answers', { q: 'Café Ñandú — 東京' });
    const byKey = Object.fromEntries(records.map((r) => [r.item_key, r]));
    expect(byKey.exit_blocked_by).toMatchObject({ value: 'Pallets of flour', hidden: 'true' });
    expect(byKey.exit_clear).toMatchObject({ value: 'Yes', hidden: 'false', failed: 'false' });
    expect(records.filter((r) => r.hidden === 'true').map((r) => r.item_key)).toEqual(['exit_blocked_by']);
  });
});

describe('who gets it', () => {
  it('every member of the organization, a viewer too, and an API key with the same photos', async () => {
    const viewer = await rawReport(await accessTokenOf(world.viewer), `${inspectionPath(world.org.id, inspectionId)}/report.pdf`);
    expect(viewer.status).toBe(200);
    expect((await imageObjects(new Uint8Array(await viewer.arrayBuffer()))).length).toBe(3);
    const key = await createKey(world.owner, world.org.id, 'viewer');
    const byKey = await rawReport(key.secret, `${inspectionPath(world.org.id, inspectionId)}/report.pdf`);
    expect(byKey.status).toBe(200);
    const keyBytes = new Uint8Array(await byKey.arrayBuffer());
    const images = await imageObjects(keyBytes);
    expect(images.length).toBe(3);
    const { pages } = await textOf(keyBytes);
    expect(pages[0]).toContain('Café Ñandú — 東京');
  });

  it("nobody outside it: another organization's member gets a 404 and no bytes", async () => {
    const outsider = expectProblem(await call(stranger.client, `${inspectionPath(world.org.id, inspectionId)}/report.pdf`), 404, 'not_found');
    expect(outsider.title).toBe("We couldn't find that organization.");
    const strangerOrg = expectStatus(await post(stranger.client, 'orgs', { name: `Stranger PDF org ${Date.now()}` }), 201);
    // Their own organization in the path, our inspection's id: still nothing.
    expectProblem(await call(stranger.client, `${inspectionPath(strangerOrg.id, inspectionId)}/report.pdf`), 404, 'not_found');
  });

  it('answers a missing inspection with 404 and a malformed id with 422', async () => {
    const missing = expectProblem(await call(world.manager.client, `${inspectionPath(world.org.id, MISSING_ID)}/report.pdf`), 404, 'not_found');
    expect(missing.title).toBe("We couldn't find that inspection.");
    expectProblem(await call(world.manager.client, `orgs/${world.org.id}/inspections/not-an-id/report.pdf`), 422, 'validation_failed', ['id']);
  });

  it('makes a report of an inspection with nothing answered yet', async () => {
    const site = await createGeofencedSite(world.manager, world.org.id);
    const template = await createPublishedTemplate(world.manager, world.org.id, DEFINITION, 'Empty audit');
    const created = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/inspections`, { site_id: site.id, template_id: template.id }), 201);
    const response = await rawReport(await accessTokenOf(world.inspector), `${inspectionPath(world.org.id, created.id)}/report.pdf`);
    expect(response.status).toBe(200);
    const { pages } = await textOf(new Uint8Array(await response.arrayBuffer()));
    const all = pages.join('\n');
    expect(all).toContain('Not started');
    expect(all).toContain('Failed items and corrective actions (0)');
    expect(all).toContain('No photo');
  });
});
