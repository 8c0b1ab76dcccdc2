// What a PNG declares, read before anything decodes it (supabase/functions/_shared/schemas/png.ts,
// issue 24), and the signature rule built on it: 2 megapixels at most, by the header alone.
import assert from 'node:assert/strict';
import { pngHeaderOf, pngHeaderOfDataUrl } from '../../supabase/functions/_shared/schemas/png.ts';
import { answerValueSchemaFor, signatureImageSizeProblem, type TemplateItem } from '../../supabase/functions/_shared/schemas/templates.ts';
import { encodePng, pngDataUrl, TINY_PNG_DATA_URL } from '../support/png.ts';

const grey = (width: number, height: number, extra: Partial<Parameters<typeof encodePng>[0]> = {}) =>
  encodePng({ width, height, colorType: 0, sample: () => [0], filter: () => 0, level: 9, ...extra });
/** The finding's signature: 7000 × 7000 pixels in a data URL well under 200 000 characters. */
const FINDING = pngDataUrl(grey(7000, 7000));

Deno.test('reads width, height, depth, colour type and interlacing from IHDR', () => {
  assert.deepEqual(pngHeaderOf(grey(600, 200)), { width: 600, height: 200, bitDepth: 8, colorType: 0, interlaced: false });
  const rgba16 = encodePng({ width: 3, height: 2, colorType: 6, bitDepth: 16, interlaced: true, sample: () => [1, 2, 3, 4] });
  assert.deepEqual(pngHeaderOf(rgba16), { width: 3, height: 2, bitDepth: 16, colorType: 6, interlaced: true });
});

Deno.test('declares sides up to 2^32 - 1 without a sign', () => {
  const png = grey(1, 1);
  png.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 16);
  assert.deepEqual(pngHeaderOf(png)?.width, 4294967295);
  assert.deepEqual(pngHeaderOf(png)?.height, 4294967295);
});

Deno.test('is no PNG header: another signature, IHDR not first or not 13 bytes, a zero side, a made-up colour type or interlace', () => {
  const broken = (at: number, value: number) => {
    const png = grey(4, 4);
    png[at] = value;
    return pngHeaderOf(png);
  };
  assert.equal(broken(1, 0x51), null, 'signature');
  assert.equal(broken(11, 14), null, 'IHDR length');
  assert.equal(broken(12, 0x69), null, 'chunk type');
  assert.equal(pngHeaderOf(grey(4, 4).subarray(0, 32)), null, 'cut short');
  const zero = grey(4, 4);
  zero.set([0, 0, 0, 0], 16);
  assert.equal(pngHeaderOf(zero), null, 'zero width');
  assert.equal(broken(25, 5), null, 'colour type 5');
  assert.equal(broken(28, 2), null, 'interlace method 2');
});

Deno.test('reads a data URL from its first 44 base64 characters only', () => {
  assert.deepEqual(pngHeaderOfDataUrl(TINY_PNG_DATA_URL), { width: 1, height: 1, bitDepth: 8, colorType: 4, interlaced: false });
  // The rest is not decoded: a header followed by anything still has its size.
  const header = FINDING.slice(0, 22 + 44);
  assert.equal(pngHeaderOfDataUrl(`${header}${'!'.repeat(10)}`)?.width, 7000);
  assert.equal(pngHeaderOfDataUrl('data:image/png;base64,iVBORw0KGgo='), null, 'the signature alone');
  assert.equal(pngHeaderOfDataUrl(`data:image/png;base64,${'A'.repeat(1000)}`), null, 'not a PNG');
  assert.equal(pngHeaderOfDataUrl(header.replace('image/png', 'image/gif')), null, 'another media type');
});

Deno.test('a signature may declare 2 megapixels, not one row more, whatever its length', () => {
  const item = { key: 's', kind: 'signature', label: 'Signature', help: null, required: false, weight: 0 } as TemplateItem;
  const schema = answerValueSchemaFor(item);
  const sign = (image: string) => schema.safeParse({ signer: 'Mia', image });
  assert.equal(sign(pngDataUrl(grey(2000, 1000))).success, true);
  assert.equal(signatureImageSizeProblem(pngDataUrl(grey(600, 200))), null);
  const over = sign(pngDataUrl(grey(2000, 1001)));
  assert.equal(over.success, false);
  assert.deepEqual(over.error?.issues.map((issue) => issue.message), [
    'The signature image is too large (2000 × 1001 pixels; the limit is 2 megapixels); clear it and sign again.',
  ]);
  assert.ok(FINDING.length < 200_000, 'the finding fits the length limit');
  assert.deepEqual(sign(FINDING).error?.issues.map((issue) => issue.message), [
    'The signature image is too large (7000 × 7000 pixels; the limit is 2 megapixels); clear it and sign again.',
  ]);
  // One problem at a time, as in SQL: a data URL that is no PNG is only that.
  assert.deepEqual(sign('data:image/png;base64,iVBORw0KGgo=').error?.issues.map((issue) => issue.message), ['Send the signature as a PNG data URL.']);
  assert.deepEqual(sign('data:image/jpeg;base64,/9j/').error?.issues.map((issue) => issue.message), ['Send the signature as a PNG data URL.']);
});
