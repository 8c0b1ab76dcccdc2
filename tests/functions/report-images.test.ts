// The report's image headers, read from a stream before anything is decoded (issue 24.1;
// supabase/functions/api/report-pdf/images.ts): a JPEG's frame header, a PNG's chunks (its
// palette, transparency and the length of its image data) and its image data passed on, whatever
// the sizes of the chunks the stream brings; and the report's pixel budget.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  ByteReader,
  jpegFrameFrom,
  PixelBudget,
  pngImageData,
  pngLayoutFrom,
  pngShowsAsIs,
} from '../../supabase/functions/api/report-pdf/images.ts';
import { encodePng, type PngSpec } from '../support/png.ts';

/** `bytes` as a stream of pieces of `size` bytes, as a network would cut them. */
function streamOf(bytes: Uint8Array, size: number): ByteReader {
  let at = 0;
  return new ByteReader(new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  }).getReader());
}

async function collect(parts: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: number[] = [];
  for await (const part of parts) chunks.push(...part);
  return new Uint8Array(chunks);
}

const JPEG = new Uint8Array(readFileSync(new URL('../fixtures/reports/photo.jpg', import.meta.url)));
const PIECE_SIZES = [1, 3, 7, 64, 100_000];

Deno.test('ByteReader reads, skips and passes on exact counts across any cut of the stream', async () => {
  const bytes = new Uint8Array(1000).map((_, i) => i & 255);
  for (const size of PIECE_SIZES) {
    const reader = streamOf(bytes, size);
    assert.deepEqual(await reader.read(5), bytes.subarray(0, 5));
    assert.equal(await reader.skip(100), true);
    assert.deepEqual(await collect(reader.pass(300)), bytes.subarray(105, 405));
    assert.deepEqual(await reader.read(10), bytes.subarray(405, 415));
    assert.deepEqual(await collect(reader.rest()), bytes.subarray(415));
    assert.equal(await reader.read(1), null, 'nothing after the end');
    assert.equal(await streamOf(bytes, size).skip(1001), false, 'a skip past the end says so');
  }
});

Deno.test("a JPEG's frame header is found behind any amount of metadata, in any cut", async () => {
  // 300 KB of comment segments and fill bytes before the frame header, as a large ICC profile puts it.
  const comments: number[] = [];
  for (let left = 300 * 1024; left > 0; left -= 65_533) {
    const payload = Math.min(65_533, left);
    comments.push(0xff, 0xff, 0xfe, ((payload + 2) >> 8) & 0xff, (payload + 2) & 0xff, ...new Array(payload).fill(0x20));
  }
  const late = new Uint8Array([...JPEG.subarray(0, 2), ...comments, ...JPEG.subarray(2)]);
  for (const size of PIECE_SIZES) {
    assert.deepEqual(await jpegFrameFrom(streamOf(JPEG, size)), { width: 320, height: 240, components: 3 });
    assert.deepEqual(await jpegFrameFrom(streamOf(late, size)), { width: 320, height: 240, components: 3 });
  }
});

Deno.test('no frame header: another file, a scan before a frame, a stream cut short', async () => {
  assert.equal(await jpegFrameFrom(ByteReader.of(encodePng({ width: 1, height: 1, colorType: 0, sample: () => [0] }))), null);
  assert.equal(await jpegFrameFrom(ByteReader.of(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6]))), null);
  assert.equal(await jpegFrameFrom(ByteReader.of(JPEG.subarray(0, 40))), null);
  assert.equal(await jpegFrameFrom(ByteReader.of(new Uint8Array([0xff, 0xd8, 0x00]))), null);
});

/** The PNG's image data: its IDAT chunks' data, joined. */
function imageDataOf(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: number[] = [];
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === 'IDAT') parts.push(...png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return new Uint8Array(parts);
}

const SPEC: PngSpec = { width: 50, height: 40, colorType: 2, sample: (x, y) => [x * 5, y * 6, (x + y) & 255] };

Deno.test("a PNG's layout: header, palette, transparency and the bytes of its image data, in any cut", async () => {
  const palette = new Uint8Array(12).fill(200);
  const cases: Array<[string, Uint8Array, boolean]> = [
    ['RGB', encodePng(SPEC), true],
    ['grey, 1 bit', encodePng({ width: 9, height: 3, colorType: 0, bitDepth: 1, sample: (x) => [x & 1] }), true],
    ['palette', encodePng({ width: 9, height: 3, colorType: 3, bitDepth: 2, palette, sample: () => [3] }), true],
    ['palette with tRNS', encodePng({ width: 9, height: 3, colorType: 3, palette, sample: () => [1], extra: [['tRNS', new Uint8Array([0, 255])]] }), false],
    ['RGB with a transparent colour', encodePng({ ...SPEC, extra: [['tRNS', new Uint8Array(6)]] }), false],
    ['RGBA', encodePng({ ...SPEC, colorType: 6, sample: () => [1, 2, 3, 4] }), false],
    ['grey with alpha', encodePng({ ...SPEC, colorType: 4, sample: () => [1, 2] }), false],
    ['interlaced', encodePng({ ...SPEC, interlaced: true }), false],
    ['palette without PLTE', encodePng({ width: 9, height: 3, colorType: 3, sample: () => [0] }), false],
  ];
  for (const [name, png, asIs] of cases) {
    for (const size of PIECE_SIZES) {
      const layout = await pngLayoutFrom(streamOf(png, size));
      assert.ok(layout, name);
      assert.equal(layout.dataBytes, imageDataOf(png).length, name);
      assert.equal(pngShowsAsIs(layout), asIs, name);
    }
  }
  const withPalette = await pngLayoutFrom(ByteReader.of(cases[2][1]));
  assert.deepEqual(withPalette?.palette, palette);
});

Deno.test('no PNG layout: not a PNG, a chunk cut short, no IEND', async () => {
  const png = encodePng(SPEC);
  assert.equal(await pngLayoutFrom(ByteReader.of(JPEG)), null);
  assert.equal(await pngLayoutFrom(ByteReader.of(png.subarray(0, png.length - 20))), null);
  assert.equal(await pngLayoutFrom(ByteReader.of(png.subarray(0, png.length - 12))), null, 'ends before IEND');
  const huge = png.slice();
  // The length of the chunk after IHDR.
  huge.set([0xff, 0xff, 0xff, 0xff], 33);
  assert.equal(await pngLayoutFrom(ByteReader.of(huge)), null, 'a chunk longer than the format allows');
});

Deno.test("a PNG's image data passes through as its IDAT chunks' data, in any cut", async () => {
  const png = encodePng({ ...SPEC, extra: [['tEXt', new TextEncoder().encode('Comment\0between chunks')]] });
  for (const size of PIECE_SIZES) assert.deepEqual(await collect(pngImageData(streamOf(png, size))), imageDataOf(png));
});

Deno.test('the pixel budget gives while there is enough left, and no more', () => {
  const budget = new PixelBudget(8_000_000);
  assert.equal(budget.take(2_000_000), true);
  assert.equal(budget.take(5_000_000), true);
  assert.equal(budget.take(1_000_001), false);
  assert.equal(budget.take(1_000_000), true);
  assert.equal(budget.take(1), false);
});
