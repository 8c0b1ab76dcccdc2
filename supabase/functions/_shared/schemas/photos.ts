// Photos: limits, types and what a file's first bytes show, without zod (attachments.ts has the
// request schemas and re-exports these), so the web's run page carries no validation library.

/** docs/product.md §9: 10 MB per photo (MiB, as the evidence bucket counts it), 40 megapixels. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTO_PIXELS = 40_000_000;
/** Signed download URLs for showing photos live an hour. */
export const PHOTO_URL_LIFETIME_SECONDS = 60 * 60;

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

/** The file extension each type is stored under (`<uuid>.<ext>`). */
export const PHOTO_EXTENSIONS: Record<PhotoType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
};

export function isPhotoType(value: string): value is PhotoType {
  return (PHOTO_TYPES as readonly string[]).includes(value);
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1']);

/** The photo type the first bytes of a file show (at least 12 are needed), or null. */
export function photoTypeOf(bytes: Uint8Array): PhotoType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp' && HEIC_BRANDS.has(ascii(bytes, 8, 4))) return 'image/heic';
  return null;
}

/** Big-endian unsigned integers, as PNG and JPEG headers write them (png.ts and the report read them too). */
export function u16be(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}
export function u32be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
}
function u24le(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
}

/** Whether a JPEG marker starts a frame header (SOFn: C0–CF but DHT C4, JPG C8 and DAC CC), which holds the size. */
export function isJpegFrameMarker(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * Width × height from the header of a PNG, WebP or JPEG, or null when the bytes given do not
 * reach it (JPEG: the first SOF marker inside them) or the type is HEIC, whose size lives in
 * boxes this check does not read.
 */
export function pixelCountOf(type: PhotoType, bytes: Uint8Array): number | null {
  if (type === 'image/png') {
    // IHDR is always the first chunk: width and height at bytes 16 and 20.
    return bytes.length >= 24 && ascii(bytes, 12, 4) === 'IHDR' ? u32be(bytes, 16) * u32be(bytes, 20) : null;
  }
  if (type === 'image/webp') {
    if (bytes.length < 30) return null;
    const chunk = ascii(bytes, 12, 4);
    if (chunk === 'VP8X') return (u24le(bytes, 24) + 1) * (u24le(bytes, 27) + 1);
    if (chunk === 'VP8L' && bytes[20] === 0x2f) {
      const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
      return ((bits & 0x3fff) + 1) * (((bits >>> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8 ' && startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) {
      return ((bytes[26] | (bytes[27] << 8)) & 0x3fff) * ((bytes[28] | (bytes[29] << 8)) & 0x3fff);
    }
    return null;
  }
  if (type === 'image/jpeg') {
    let at = 2;
    while (at + 4 <= bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1];
      // Fill bytes and markers without a length.
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      if (isJpegFrameMarker(marker)) return at + 9 <= bytes.length ? u16be(bytes, at + 5) * u16be(bytes, at + 7) : null;
      at += 2 + u16be(bytes, at + 2);
    }
    return null;
  }
  return null;
}
