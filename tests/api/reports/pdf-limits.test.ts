// What a report PDF may cost the function (issue 24.1; docs/reports.md, "Images"): every image's
// size is read from its header before anything decodes it. A signature stored before the 2 MP
// rule is left out with its size; PNG photos without transparency go into the PDF as their own
// image data, never decoded (six 12 MP PNGs of the finding held 252 MB when decoded); PNG photos
// with transparency are decoded only up to 2 MP each and 8 MP a report, signatures first, the rest
// labelled; a page of alternating scripts names each font once. Then every kind of PNG the PDF
// carries as it is, decoded again by pdf.js, pixel for pixel.
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodePng, type PngSpec } from '../../support/png.ts';
import { accessTokenOf, PHOTO, rawReport, SIGNATURE_DATA_URL, uploadPhoto } from './support.ts';
import { call, expectStatus, post } from '../../support/api.ts';
import { createPublishedTemplate, createGeofencedSite, inspectionPath, inspectionWorldAndStranger, startInspection } from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';

const { world } = inspectionWorldAndStranger();

const photoItem = (key: string, label: string) => ({ key, kind: 'photo', label, help: null, required: false, weight: 0, max_photos: 10 });
const DEFINITION = {
  sections: [{
    key: 'main',
    title: 'Everything at its limit',
    items: [
      { key: 'sig_ok', kind: 'signature', label: 'Signature drawn on the pad', help: null, required: false, weight: 0 },
      { key: 'sig_big', kind: 'signature', label: 'Signature stored before the 2 MP rule', help: null, required: false, weight: 0 },
      photoItem('opaque', 'Six 12 MP PNGs without transparency'),
      photoItem('alpha', 'PNGs with transparency'),
      { key: 'mixed', kind: 'text', label: 'Remarks in two scripts', help: null, required: false, weight: 0 },
    ],
  }],
};

/** The PNG's image data: its IDAT chunks' data, joined. */
function imageDataOf(png: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    if (new TextDecoder().decode(png.subarray(at + 4, at + 8)) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return new Uint8Array(Buffer.concat(parts));
}

async function imageObjects(bytes: Uint8Array): Promise<PDFRawStream[]> {
  const document = await PDFDocument.load(bytes);
  return document.context.enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((object): object is PDFRawStream => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
}

async function allText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item: any) => `${item.str}${item.hasEOL ? '\n' : ''}`).join(''));
  }
  await document.destroy();
  return pages.join('\n');
}

async function reportOf(inspectionId: string): Promise<Uint8Array> {
  const response = await rawReport(await accessTokenOf(world.manager), `${inspectionPath(world.org.id, inspectionId)}/report.pdf`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
  return bytes;
}

async function newInspection(definition: unknown, title: string): Promise<string> {
  const site = await createGeofencedSite(world.manager, world.org.id);
  const template = await createPublishedTemplate(world.manager, world.org.id, definition, title);
  const created = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/inspections`, { site_id: site.id, template_id: template.id, title }), 201);
  await startInspection(world, created.id, world.inspector);
  return created.id;
}

const uniform = (samples: number[]) => () => samples;
/** 12 MP of one grey-blue: 35 KB as a PNG, 36 MB as decoded RGB. */
const OPAQUE_12MP = encodePng({ width: 4000, height: 3000, colorType: 2, sample: uniform([60, 90, 120]), filter: () => 0, level: 9 });
const ALPHA_12MP = encodePng({ width: 4000, height: 3000, colorType: 6, sample: uniform([60, 90, 120, 128]), filter: () => 0, level: 9 });
/** 1.92 MP with transparency: four fit the report's 8 MP once the signature has its 0.03 MP, a fifth does not. */
const ALPHA_1_9MP = encodePng({ width: 1600, height: 1200, colorType: 6, sample: uniform([200, 40, 40, 200]), filter: () => 0, level: 9 });
const MIXED_SCRIPTS = Array.from({ length: 4000 }, (_, i) => (i % 2 ? '東' : 'a')).join('');

describe('report.pdf within its memory limits', () => {
  let inspectionId: string;
  let pdf: Uint8Array;
  let text: string;

  beforeAll(async () => {
    inspectionId = await newInspection(DEFINITION, 'Report at its limits');
    expectStatus(await call(world.inspector.client, `${inspectionPath(world.org.id, inspectionId)}/answers`, {
      method: 'PUT',
      body: { answers: [
        { item_key: 'sig_ok', value: { signer: 'Pat Pad', image: SIGNATURE_DATA_URL }, base_version: null },
        { item_key: 'mixed', value: MIXED_SCRIPTS, base_version: null },
      ] },
    }), 200);
    // A 7000 × 7000 signature as answers held them before the 2 MP rule: written past the triggers.
    const big = encodePng({ width: 7000, height: 7000, colorType: 0, sample: uniform([255]), filter: () => 0, level: 9 });
    await db().begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.answers (org_id, inspection_id, item_key, value, answered_by)
        values (${world.org.id}, ${inspectionId}, 'sig_big',
                ${tx.json({ signer: 'Old Signer', image: `data:image/png;base64,${Buffer.from(big).toString('base64')}` })}, ${world.inspector.userId})
      `;
    });
    for (let i = 0; i < 6; i++) await uploadPhoto(world, inspectionId, 'opaque', world.inspector, OPAQUE_12MP, 'image/png');
    await uploadPhoto(world, inspectionId, 'alpha', world.inspector, ALPHA_12MP, 'image/png');
    for (let i = 0; i < 5; i++) await uploadPhoto(world, inspectionId, 'alpha', world.inspector, ALPHA_1_9MP, 'image/png');
    pdf = await reportOf(inspectionId);
    // Lines joined: a placeholder's sentences wrap inside its box.
    text = (await allText(pdf)).replace(/\s+/g, ' ');
  }, 180_000);

  it('leaves out a signature over 2 MP, saying its size, and draws the other', async () => {
    expect(text).toContain('Signed by Old Signer');
    expect(text).toContain('Signature image too large to include — 49.0 MP (a report includes signatures of up to 2 MP).');
    const images = await imageObjects(pdf);
    const sizes = images.map((image) => `${image.dict.get(PDFName.of('Width'))}×${image.dict.get(PDFName.of('Height'))}`);
    expect(sizes).toContain('300×100');
    expect(sizes).not.toContain('7000×7000');
  });

  it('carries PNGs without transparency as their own image data, never decoded', async () => {
    const asIs = (await imageObjects(pdf)).filter((image) => image.dict.get(PDFName.of('DecodeParms')) instanceof PDFDict);
    expect(asIs).toHaveLength(6);
    const expected = imageDataOf(OPAQUE_12MP);
    for (const image of asIs) {
      const parms = image.dict.get(PDFName.of('DecodeParms')) as PDFDict;
      expect(String(parms.get(PDFName.of('Predictor')))).toBe('15');
      expect(String(parms.get(PDFName.of('Colors')))).toBe('3');
      expect(String(parms.get(PDFName.of('Columns')))).toBe('4000');
      expect(image.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
      expect(image.dict.get(PDFName.of('ColorSpace'))).toBe(PDFName.of('DeviceRGB'));
      expect(`${image.dict.get(PDFName.of('Width'))}×${image.dict.get(PDFName.of('Height'))}`).toBe('4000×3000');
      expect(Buffer.from(image.getContents()).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('decodes PNGs with transparency up to 2 MP each and 8 MP a report, signatures first, and labels the rest with their size', async () => {
    expect(text).toContain('Photo too large to include — 12.0 MP');
    expect(text).toContain('A report includes PNG photos with transparency of up to 2 MP.');
    expect(text).toContain('Photo too large to include — 1.9 MP');
    expect(text).toContain('This report has reached its limit of 8 MP of signatures and PNG photos with transparency.');
    const decoded = (await imageObjects(pdf)).filter((image) => {
      const size = `${image.dict.get(PDFName.of('Width'))}×${image.dict.get(PDFName.of('Height'))}`;
      return size === '1600×1200' && image.dict.get(PDFName.of('ColorSpace')) === PDFName.of('DeviceRGB');
    });
    expect(decoded).toHaveLength(4);
    // Each with its transparency as a soft mask.
    for (const image of decoded) expect(image.dict.get(PDFName.of('SMask'))).toBeInstanceOf(PDFRef);
  });

  it('names each font once on a page of alternating Latin and CJK characters, and keeps the text', async () => {
    const document = await PDFDocument.load(pdf);
    for (const page of document.getPages()) {
      const fonts = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
      expect(fonts?.keys().length ?? 0).toBeLessThanOrEqual(3);
    }
    expect(text.replace(/ /g, '')).toContain(MIXED_SCRIPTS.slice(0, 200));
  });
});

describe('report.pdf shows every kind of PNG it carries as it is, pixel for pixel', () => {
  const W = 37;
  const H = 23;
  const palette = new Uint8Array(48).map((_, i) => (i * 53) & 255);
  // Every colour type and bit depth PDF reads with the PNG predictors, every row filter in turn.
  const kinds: Array<[string, PngSpec]> = [
    ['RGB, 8 bits', { width: W, height: H, colorType: 2, sample: (x, y) => [(x * 7 + y * 3) & 255, (x * y) & 255, (255 - x * 5) & 255] }],
    ['RGB, 16 bits', { width: W, height: H, colorType: 2, bitDepth: 16, sample: (x, y) => [x * 1700, y * 2800, 65535 - x * 1000] }],
    ['grey, 8 bits', { width: W, height: H, colorType: 0, sample: (x, y) => [(x * 11 + y) & 255] }],
    ['grey, 4 bits', { width: W, height: H, colorType: 0, bitDepth: 4, sample: (x, y) => [(x + y) % 16] }],
    ['palette, 8 bits', { width: W, height: H, colorType: 3, palette, sample: (x, y) => [(x * 3 + y) % 16] }],
    ['palette, 2 bits', { width: W, height: H, colorType: 3, bitDepth: 2, palette, sample: (x, y) => [(x + 2 * y) % 4] }],
  ];
  /** RGB of pixel (x, y) as the PNG says. */
  function expectedRgb(spec: PngSpec, x: number, y: number): number[] {
    const samples = spec.sample(x, y);
    const depth = spec.bitDepth ?? 8;
    if (spec.colorType === 3) return [0, 1, 2].map((k) => spec.palette![samples[0] * 3 + k]);
    const to8 = (v: number) => (depth === 16 ? v >> 8 : Math.round((v * 255) / ((1 << depth) - 1)));
    return spec.colorType === 0 ? [to8(samples[0]), to8(samples[0]), to8(samples[0])] : samples.map(to8);
  }

  let pdf: Uint8Array;
  beforeAll(async () => {
    const definition = { sections: [{ key: 'main', title: 'Kinds', items: [photoItem('kinds', 'One PNG of each kind')] }] };
    const inspectionId = await newInspection(definition, 'PNG kinds');
    for (const [, spec] of kinds) await uploadPhoto(world, inspectionId, 'kinds', world.inspector, encodePng(spec), 'image/png');
    pdf = await reportOf(inspectionId);
  }, 120_000);

  it('draws each as pdf.js decodes it, from image data the function passed on', async () => {
    const document = await getDocument({ data: pdf.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
    const seen: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const operators = await page.getOperatorList();
      for (const [i, fn] of operators.fnArray.entries()) {
        if (fn !== OPS.paintImageXObject) continue;
        const image: any = await new Promise((resolve) => page.objs.get(operators.argsArray[i][0], resolve));
        if (image.width !== W) continue;
        // pdf.js hands RGB (3 bytes a pixel) or RGBA (4).
        const channels = image.data.length / (W * H);
        const match = kinds.find(([, spec]) => {
          for (let y = 0; y < H; y++) {
            for (let x = 0; x < W; x++) {
              const want = expectedRgb(spec, x, y);
              for (let k = 0; k < 3; k++) if (Math.abs(image.data[(y * W + x) * channels + k] - want[k]) > 1) return false;
            }
          }
          return true;
        });
        seen.push(match?.[0] ?? 'no kind matches');
      }
    }
    await document.destroy();
    expect(seen.sort()).toEqual(kinds.map(([name]) => name).sort());
    const asIs = (await imageObjects(pdf)).filter((image) => image.dict.get(PDFName.of('DecodeParms')) instanceof PDFDict);
    expect(asIs).toHaveLength(kinds.length);
    const indexed = asIs.filter((image) => image.dict.get(PDFName.of('ColorSpace')) instanceof PDFArray);
    expect(indexed.map((image) => (image.dict.get(PDFName.of('ColorSpace')) as PDFArray).get(2))).toEqual([PDFNumber.of(15), PDFNumber.of(15)]);
  });

  it('still shows a JPEG whose frame header lies beyond the first 256 KB', async () => {
    // PHOTO.jpeg with 300 KB of comment segments before its frame header, as a large ICC profile puts it.
    const jpeg = PHOTO.jpeg;
    const comments: number[] = [];
    for (let left = 300 * 1024; left > 0; left -= 65_533) {
      const payload = Math.min(65_533, left);
      comments.push(0xff, 0xfe, ((payload + 2) >> 8) & 0xff, (payload + 2) & 0xff, ...new Array(payload).fill(0x20));
    }
    const padded = new Uint8Array([...jpeg.subarray(0, 2), ...comments, ...jpeg.subarray(2)]);
    const definition = { sections: [{ key: 'main', title: 'JPEG', items: [photoItem('jpeg', 'A JPEG with large metadata')] }] };
    const inspectionId = await newInspection(definition, 'Late frame header');
    await uploadPhoto(world, inspectionId, 'jpeg', world.inspector, padded, 'image/jpeg');
    const images = await imageObjects(await reportOf(inspectionId));
    expect(images).toHaveLength(1);
    expect(`${images[0].dict.get(PDFName.of('Width'))}×${images[0].dict.get(PDFName.of('Height'))}`).toBe('320×240');
    expect(Buffer.from(images[0].getContents()).equals(Buffer.from(padded))).toBe(true);
  });
});

describe('report.pdf lists at most 1000 corrective actions', () => {
  it('says how many there are and that the first 1000 are listed; a failed item without a listed one says so', async () => {
    const definition = { sections: [{ key: 'main', title: 'Actions', items: [
      { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: false, weight: 1 },
    ] }] };
    const inspectionId = await newInspection(definition, 'Many actions');
    expectStatus(await call(world.inspector.client, `${inspectionPath(world.org.id, inspectionId)}/answers`, {
      method: 'PUT',
      body: { answers: [{ item_key: 'floor', value: 'fail', base_version: null }] },
    }), 200);
    // 1001 actions added by hand (no limit stops people adding them), the failed item's own last.
    await db().begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.actions (org_id, site_id, inspection_id, item_key, origin, title, priority, due_at, created_at)
        select i.org_id, i.site_id, i.id, case when n = 1001 then 'floor' end, 'manual', 'Action ' || n, 'low',
               now() + interval '1 day', now() + n * interval '1 second'
        from public.inspections i, generate_series(1, 1001) n
        where i.id = ${inspectionId}
      `;
    });
    const text = (await allText(await reportOf(inspectionId))).replace(/\s+/g, ' ');
    expect(text).toContain('This inspection has 1001 corrective actions; the first 1000 are listed here. Open the inspection in Fieldcheck to see them all.');
    expect(text).toContain('No corrective action among those listed.');
    expect(text).toContain('• Action 1000 —');
    expect(text).not.toContain('• Action 1001 —');
  }, 120_000);
});
