// What a PNG declares in its header, read before anything decodes it (issue 24): a decoder such as
// pdf-lib's inflates a PNG to 4 bytes a pixel and more, so a 143 KB file declaring 7000 × 7000
// pixels costs hundreds of MB. Without zod or Deno APIs: the answer schemas (templates.ts), the
// web client and the report (api/report-pdf/images.ts) share it. The database repeats the data URL rule in
// private.png_data_url_size (migration 20261128180100).
import { PNG_SIGNATURE, u32be } from './photos.ts';

/** The PNG colour types: grey, RGB, palette, grey with alpha, RGB with alpha. */
export type PngColorType = 0 | 2 | 3 | 4 | 6;

export interface PngHeader {
  width: number;
  height: number;
  /** Bits per sample (per palette index for colour type 3): 1, 2, 4, 8 or 16. */
  bitDepth: number;
  colorType: PngColorType;
  /** Adam7 interlacing. */
  interlaced: boolean;
}

/** Bytes of a PNG's header: the signature and the whole IHDR chunk (length, type, 13 bytes, CRC). */
export const PNG_HEADER_BYTES = 33;

const COLOR_TYPES = new Set([0, 2, 3, 4, 6]);

/**
 * The header of a PNG: the signature, then IHDR, which the format puts first with 13 bytes of
 * data. Null when `bytes` does not start that way, declares a zero side, or an impossible colour
 * type or interlace method.
 */
export function pngHeaderOf(bytes: Uint8Array): PngHeader | null {
  if (bytes.length < PNG_HEADER_BYTES || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  if (u32be(bytes, 8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  const width = u32be(bytes, 16);
  const height = u32be(bytes, 20);
  const colorType = bytes[25];
  if (width === 0 || height === 0 || !COLOR_TYPES.has(colorType) || bytes[28] > 1) return null;
  return { width, height, bitDepth: bytes[24], colorType: colorType as PngColorType, interlaced: bytes[28] === 1 };
}

export const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';

/** Base64 characters that hold the header: 44 characters are 33 bytes. */
export const HEADER_BASE64_LENGTH = (PNG_HEADER_BYTES / 3) * 4;

/**
 * The header of a PNG data URL, from its first 44 base64 characters, without decoding the rest.
 * Null unless the URL is `data:image/png;base64,` followed by a PNG's header.
 */
export function pngHeaderOfDataUrl(url: string): PngHeader | null {
  if (!url.startsWith(PNG_DATA_URL_PREFIX)) return null;
  const head = url.slice(PNG_DATA_URL_PREFIX.length, PNG_DATA_URL_PREFIX.length + HEADER_BASE64_LENGTH);
  // Padding inside the header's characters means the data ends before the header does.
  if (!/^[A-Za-z0-9+/]{44}$/.test(head)) return null;
  const binary = atob(head);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return pngHeaderOf(bytes);
}
