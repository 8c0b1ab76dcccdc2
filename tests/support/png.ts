// PNGs for tests, made here rather than committed as files: an encoder for any colour type and
// bit depth that uses every row filter in turn (as real encoders mix them), and data URLs of
// PNGs as signatures are sent.
import { deflateSync } from 'node:zlib';

/** A real 1 × 1 PNG (grey with alpha) as a data URL: the smallest valid signature image. */
export const TINY_PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface PngSpec {
  width: number;
  height: number;
  colorType: 0 | 2 | 3 | 4 | 6;
  bitDepth?: 1 | 2 | 4 | 8 | 16;
  /** The samples of pixel (x, y), one per channel (a palette index for type 3). */
  sample: (x: number, y: number) => number[];
  palette?: Uint8Array;
  /** Chunks written before the image data (tRNS, tEXt …). */
  extra?: Array<[string, Uint8Array]>;
  /** Filter of each row; by default every filter in turn. */
  filter?: (y: number) => number;
  /** zlib's compression level (default 6). */
  level?: number;
  /** Adam7 interlacing declared in the header; the data is still written as one pass (for headers only). */
  interlaced?: boolean;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The image's rows as bytes, before filtering: what a decoder has after undoing the filters. */
export function pngRows(spec: PngSpec): Uint8Array[] {
  const depth = spec.bitDepth ?? 8;
  const channels = CHANNELS[spec.colorType];
  const rowBytes = Math.ceil((spec.width * channels * depth) / 8);
  const rows: Uint8Array[] = [];
  for (let y = 0; y < spec.height; y++) {
    const row = new Uint8Array(rowBytes);
    let bit = 0;
    for (let x = 0; x < spec.width; x++) {
      for (const value of spec.sample(x, y)) {
        if (depth === 16) {
          row[bit >> 3] = value >> 8;
          row[(bit >> 3) + 1] = value & 255;
        } else if (depth === 8) row[bit >> 3] = value;
        else row[bit >> 3] |= (value & ((1 << depth) - 1)) << (8 - depth - (bit & 7));
        bit += depth;
      }
    }
    rows.push(row);
  }
  return rows;
}

/** The PNG file: signature, IHDR, PLTE, the extra chunks, the data in two IDAT chunks, IEND. */
export function encodePng(spec: PngSpec): Uint8Array {
  const depth = spec.bitDepth ?? 8;
  const bpp = Math.max(1, (CHANNELS[spec.colorType] * depth) / 8);
  const rows = pngRows(spec);
  const rowBytes = rows[0]?.length ?? 0;
  const raw = new Uint8Array((rowBytes + 1) * spec.height);
  let previous: Uint8Array = new Uint8Array(rowBytes);
  for (const [y, row] of rows.entries()) {
    const filter = spec.filter ? spec.filter(y) : y % 5;
    const out = raw.subarray(y * (rowBytes + 1), (y + 1) * (rowBytes + 1));
    out[0] = filter;
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? row[i - bpp] : 0;
      const b = previous[i];
      const c = i >= bpp ? previous[i - bpp] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      out[i + 1] = (row[i] - predictor) & 255;
    }
    previous = row;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, spec.width);
  view.setUint32(4, spec.height);
  header[8] = depth;
  header[9] = spec.colorType;
  header[12] = spec.interlaced ? 1 : 0;
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header)];
  if (spec.palette) parts.push(pngChunk('PLTE', spec.palette));
  for (const [type, data] of spec.extra ?? []) parts.push(pngChunk(type, data));
  const data = deflateSync(raw, { level: spec.level ?? 6 });
  // Two IDAT chunks, as encoders split long data.
  const half = data.length >> 1;
  parts.push(pngChunk('IDAT', data.subarray(0, half)), pngChunk('IDAT', data.subarray(half)), pngChunk('IEND', new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
