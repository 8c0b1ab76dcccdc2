// The report's images (docs/reports.md, "Images"): every image's declared size read from its header
// before anything decodes it, photos read from Storage one at a time, and a pixel budget for the
// PNGs that must be decoded; what cannot be shown becomes a labelled box.
import {
  degrees,
  drawImage,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import { ApiError } from '../../_shared/errors.ts';
import type { MemoryProbe } from '../../_shared/memory-probe.ts';
import { isJpegFrameMarker, u16be, u32be } from '../../_shared/schemas/photos.ts';
import { PNG_HEADER_BYTES, type PngHeader, pngHeaderOf } from '../../_shared/schemas/png.ts';
import { SIGNATURE_MAX_PIXELS } from '../../_shared/schemas/templates.ts';
import type { StorageCaller } from '../evidence.ts';
import type { ReportPhoto } from './data.ts';
import { CONTENT_WIDTH, Flow, IMAGE_NAMES, INK, MUTED, PLACEHOLDER_FILL, RULE } from './layout.ts';

// What each kind of image costs the function, and so how it is handled (issue 24; docs/reports.md):
// - JPEG: nothing. PDF shows JPEG bytes as they are (DCTDecode), so only the frame header is read
//   (for the size in pixels) and the bytes pass from Storage into the response when written.
// - PNG without transparency, not interlaced (grey, RGB or palette): nothing either. A PNG's image
//   data (its IDAT chunks, joined) is a zlib stream of rows with PNG's row filters, which is what
//   PDF's FlateDecode with the PNG predictors (/Predictor 15) reads. So the chunks are walked for
//   the data's length at layout, and at writing the IDAT data passes into the response the same way.
// - PNG with transparency (an alpha channel or tRNS) or interlaced, and every signature (a canvas
//   makes RGBA): decoded by pdf-lib, which holds ~20 bytes a pixel while it works and keeps the
//   re-compressed pixels until written. Each is held to PNG_DECODE_MAX_PIXELS, all of a report's
//   to REPORT_DECODE_PIXELS; past either, a labelled box says so.
// - WebP and HEIC: PDF cannot show them and no decoder in pure JS fits; a labelled box.

/** A PNG (photo or signature) decoded to be drawn: at most this many pixels (the signature limit). */
export const PNG_DECODE_MAX_PIXELS = SIGNATURE_MAX_PIXELS;
/** All pixels one report decodes: its signatures first, then PNG photos that must be decoded, in order. */
export const REPORT_DECODE_PIXELS = 8_000_000;
/** Characters of signature data URLs one report reads (each may have up to 200 000). */
export const SIGNATURE_IMAGES_MAX_CHARACTERS = 4_000_000;
/** First bytes of a JPEG read for its frame header; if that lies further, the rest is walked as it streams. */
const JPEG_HEADER_BYTES = 256 * 1024;
export const PHOTO_BOX = { width: (CONTENT_WIDTH - 12) / 2, height: 190 };

/** Pixels a report may still decode. */
export class PixelBudget {
  constructor(private left: number) {}

  /** Takes `pixels` if that many are left. */
  take(pixels: number): boolean {
    if (pixels > this.left) return false;
    this.left -= pixels;
    return true;
  }
}

export function megapixels(pixels: number): string {
  return (pixels / 1e6).toFixed(1);
}

function supabaseUrl(): string {
  const url = Deno.env.get('SUPABASE_URL');
  if (!url) throw new Error('SUPABASE_URL is not set');
  return url.replace(/\/+$/, '');
}

/**
 * Storage's ok response for the object (all, or its first `rangeBytes`) in bucket `evidence`, as
 * `caller`; null when Storage has none (its body cancelled). A missing SUPABASE_URL throws at once;
 * a failed request rejects the returned promise, which each caller handles in its own way.
 */
function fetchEvidence(caller: StorageCaller, path: string, rangeBytes?: number): Promise<Response | null> {
  return fetch(`${supabaseUrl()}/storage/v1/object/authenticated/evidence/${path}`, {
    headers: { apikey: caller.apikey, authorization: caller.authorization, ...(rangeBytes ? { range: `bytes=0-${rangeBytes - 1}` } : {}) },
  }).then(async (response) => {
    if (response.ok) return response;
    await response.body?.cancel();
    return null;
  });
}

/** The object's bytes (all, or the first `rangeBytes`) from bucket `evidence`, as `caller`; null when Storage has none. */
async function readEvidence(caller: StorageCaller, path: string, rangeBytes?: number): Promise<Uint8Array | null> {
  let response: Response | null;
  try {
    response = await fetchEvidence(caller, path, rangeBytes);
  } catch (error) {
    throw ApiError.serviceUnavailable(error);
  }
  if (!response) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return rangeBytes ? bytes.subarray(0, rangeBytes) : bytes;
}

/** The object's bytes as a stream, from bucket `evidence` as `caller`; null when Storage has none or cannot be reached. */
export async function openEvidence(caller: StorageCaller, path: string): Promise<ByteReader | null> {
  const response = await fetchEvidence(caller, path).catch(() => null);
  return response?.body ? new ByteReader(response.body.getReader()) : null;
}

/** Reads a stream of bytes as a file's parts: so many bytes, skipped or passed on, never more than one chunk held. */
export class ByteReader {
  private chunk: Uint8Array = new Uint8Array(0);
  private at = 0;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Reads bytes that are already in memory (a test, a header read earlier). */
  static of(bytes: Uint8Array): ByteReader {
    return new ByteReader(new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(bytes), controller.close()) }).getReader());
  }

  /** Whether there is a byte to read, waiting for the next chunk if needed. */
  private async ready(): Promise<boolean> {
    while (this.at >= this.chunk.length) {
      const next = await this.reader.read();
      if (next.done) return false;
      this.chunk = next.value;
      this.at = 0;
    }
    return true;
  }

  /** The next `n` bytes, or null when the stream ends first. */
  async read(n: number): Promise<Uint8Array | null> {
    if (!(await this.ready())) return n === 0 ? new Uint8Array(0) : null;
    if (this.chunk.length - this.at >= n) return this.chunk.subarray(this.at, (this.at += n));
    const out = new Uint8Array(n);
    let filled = 0;
    for await (const part of this.pass(n)) {
      out.set(part, filled);
      filled += part.length;
    }
    return filled === n ? out : null;
  }

  /** Skips `n` bytes; false when the stream ends first. */
  async skip(n: number): Promise<boolean> {
    let skipped = 0;
    for await (const part of this.pass(n)) skipped += part.length;
    return skipped === n;
  }

  /** The next `n` bytes as the stream brings them (views of its chunks, not copies); fewer when it ends first. */
  async *pass(n: number): AsyncGenerator<Uint8Array> {
    let left = n;
    while (left > 0 && (await this.ready())) {
      const part = this.chunk.subarray(this.at, this.at + Math.min(left, this.chunk.length - this.at));
      this.at += part.length;
      left -= part.length;
      yield part;
    }
  }

  /** Whatever is left, as it comes. */
  async *rest(): AsyncGenerator<Uint8Array> {
    while (await this.ready()) {
      const part = this.chunk.subarray(this.at);
      this.at = this.chunk.length;
      yield part;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

export interface JpegFrame {
  width: number;
  height: number;
  components: number;
}

/**
 * The frame header (SOFn) of a JPEG: its size and colour components, walking the markers before
 * it and skipping their segments; null when the stream is no JPEG or ends, or the scan starts,
 * before a frame header.
 */
export async function jpegFrameFrom(bytes: ByteReader): Promise<JpegFrame | null> {
  const start = await bytes.read(2);
  if (!start || start[0] !== 0xff || start[1] !== 0xd8) return null;
  for (;;) {
    const byte = await bytes.read(1);
    if (!byte || byte[0] !== 0xff) return null;
    let marker = 0xff;
    // Fill bytes (0xFF) may come before a marker.
    while (marker === 0xff) {
      const next = await bytes.read(1);
      if (!next) return null;
      marker = next[0];
    }
    // Markers without a segment.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    // End of image or start of scan: no frame header came.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = await bytes.read(2);
    if (!length || u16be(length, 0) < 2) return null;
    if (isJpegFrameMarker(marker)) {
      // Precision, height, width, components.
      const frame = await bytes.read(6);
      return frame ? { height: u16be(frame, 1), width: u16be(frame, 3), components: frame[5] } : null;
    }
    if (!(await bytes.skip(u16be(length, 0) - 2))) return null;
  }
}

/** What a PNG shows the writer: its header, its palette, whether it has transparency, and the bytes of its image data. */
export interface PngLayout {
  header: PngHeader;
  palette: Uint8Array | null;
  /** A tRNS chunk: transparency by colour or by palette entry. */
  transparency: boolean;
  /** Bytes of all IDAT chunks' data together. */
  dataBytes: number;
}

/** Whether PDF can show a PNG's image data as it is: no alpha channel, no transparency, not interlaced. */
export function pngShowsAsIs(layout: PngLayout): boolean {
  const { colorType, interlaced } = layout.header;
  return !interlaced && !layout.transparency && (colorType === 0 || colorType === 2 || (colorType === 3 && layout.palette !== null));
}

/**
 * Walks a PNG's chunks up to IEND without keeping them: its header, palette and transparency, and
 * how many bytes of image data it has. Null when it is no PNG, or a chunk is cut or impossibly large.
 */
export async function pngLayoutFrom(bytes: ByteReader): Promise<PngLayout | null> {
  const head = await bytes.read(PNG_HEADER_BYTES);
  const header = head && pngHeaderOf(head);
  if (!header) return null;
  const layout: PngLayout = { header, palette: null, transparency: false, dataBytes: 0 };
  for (;;) {
    const chunk = await bytes.read(8);
    if (!chunk) return null;
    const length = u32be(chunk, 0);
    const type = String.fromCharCode(...chunk.subarray(4, 8));
    // The format's own limit for a chunk.
    if (length > 0x7fffffff) return null;
    if (type === 'IEND') return layout;
    if (type === 'PLTE' && length % 3 === 0 && length >= 3 && length <= 768) {
      layout.palette = await bytes.read(length);
      if (!layout.palette) return null;
    } else {
      if (type === 'tRNS') layout.transparency = true;
      if (type === 'IDAT') layout.dataBytes += length;
      if (!(await bytes.skip(length))) return null;
    }
    // CRC.
    if (!(await bytes.skip(4))) return null;
  }
}

/** The image data of a PNG, its IDAT chunks' data in order, as the stream brings it. */
export async function* pngImageData(bytes: ByteReader): AsyncGenerator<Uint8Array> {
  if (!(await bytes.skip(8))) return;
  for (;;) {
    const chunk = await bytes.read(8);
    if (!chunk) return;
    const length = u32be(chunk, 0);
    const type = String.fromCharCode(...chunk.subarray(4, 8));
    if (type === 'IEND') return;
    if (type === 'IDAT') yield* bytes.pass(length);
    else if (!(await bytes.skip(length))) return;
    if (!(await bytes.skip(4))) return;
  }
}

/**
 * An image whose bytes are written only when the writer reaches its object (`StreamingWriter`):
 * `bytes` of the object at `path` in Storage — the whole file (a JPEG), or a PNG's image data.
 */
export interface DeferredImage {
  path: string;
  bytes: number;
  data: 'file' | 'png-image-data';
}

/** Draws the image XObject `ref` fitted into a box at the cursor's left + `x`. */
export function placeImage(flow: Flow, ref: PDFRef, x: number, top: number, width: number, height: number, boxWidth: number, boxHeight: number) {
  const scale = Math.min(boxWidth / width, boxHeight / height, 1);
  const w = width * scale;
  const h = height * scale;
  const images = flow.page.node.normalizedEntries().XObject;
  const name = IMAGE_NAMES[images.keys().length] ??= PDFName.of(`Im${images.keys().length}`);
  images.set(name, ref);
  flow.page.pushOperators(...drawImage(name, {
    x: x + (boxWidth - w) / 2, y: top - boxHeight + (boxHeight - h) / 2, width: w, height: h,
    rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0),
  }));
}

/** A grey box with a message where a photo cannot be shown. */
export function placeholder(flow: Flow, x: number, top: number, lines: string[]) {
  flow.page.drawRectangle({
    x, y: top - PHOTO_BOX.height, width: PHOTO_BOX.width, height: PHOTO_BOX.height, color: PLACEHOLDER_FILL, borderColor: RULE, borderWidth: 1,
  });
  let y = top - 24;
  for (const [i, text] of lines.entries()) {
    for (const line of flow.wrap(text, i === 0 ? 10 : 9, i === 0, PHOTO_BOX.width - 20)) {
      flow.line(line, x + 10, y, i === 0 ? 10 : 9, i === 0, i === 0 ? INK : MUTED);
      y -= 13;
    }
    y -= 4;
  }
}

/** What the PDF holds for one photo: an image (deferred or decoded), or a reason it cannot. */
type PhotoSlot = { ref: PDFRef; width: number; height: number } | { reason: string[] };

/** The image object of a deferred image: its dictionary now, its bytes when written. */
function deferImage(doc: PDFDocument, deferred: Map<PDFRef, DeferredImage>, image: DeferredImage, dict: Record<string, unknown>): PDFRef {
  // pdf-lib's context.obj turns strings into names, numbers into numbers, arrays and objects alike.
  const literal = { Type: 'XObject', Subtype: 'Image', ...dict, Length: image.bytes } as unknown as Record<string, PDFObject>;
  const stream = PDFRawStream.of(doc.context.obj(literal), new Uint8Array(0));
  const ref = doc.context.register(stream);
  deferred.set(ref, image);
  return ref;
}

/** Decodes a PNG with pdf-lib and embeds it at once, so its pixels are let go now rather than when the document is written. */
export async function embedDecodedPng(doc: PDFDocument, png: Uint8Array | string, probe: MemoryProbe): Promise<{ ref: PDFRef; width: number; height: number }> {
  const image = await doc.embedPng(png);
  // Decoded: its pixels (RGB and alpha) are held now.
  probe.sample('image decoded', true);
  await image.embed();
  return { ref: image.ref, width: image.width, height: image.height };
}

const keptInFieldcheck = (size: string) => `The photo (${size}) is kept in Fieldcheck: open the inspection there to see it.`;

/** What preparing a photo needs: the document, Storage as the caller, the deferred images so far, the pixels left to decode. */
export interface Photos {
  doc: PDFDocument;
  caller: StorageCaller;
  deferred: Map<PDFRef, DeferredImage>;
  budget: PixelBudget;
  probe: MemoryProbe;
}

async function prepareJpeg({ doc, caller, deferred }: Photos, photo: ReportPhoto): Promise<PhotoSlot> {
  const size = fileSize(photo.byte_size);
  const head = await readEvidence(caller, photo.object_path, JPEG_HEADER_BYTES);
  if (!head) return { reason: ['Photo unavailable', `The JPEG photo (${size}) could not be read from storage.`] };
  let frame = await jpegFrameFrom(ByteReader.of(head));
  if (!frame && photo.byte_size > head.byteLength) {
    // Behind very large metadata (an ICC profile, XMP) the frame header lies further in: walk the
    // whole file as it streams, keeping nothing.
    const stream = await openEvidence(caller, photo.object_path);
    if (stream) {
      frame = await jpegFrameFrom(stream);
      await stream.cancel();
    }
  }
  if (!frame || frame.width === 0 || frame.height === 0) return { reason: ['Photo not shown', `The JPEG photo (${size}) has no frame header this report can read.`] };
  const colorSpace = frame.components === 1 ? 'DeviceGray' : frame.components === 4 ? 'DeviceCMYK' : 'DeviceRGB';
  const ref = deferImage(doc, deferred, { path: photo.object_path, bytes: photo.byte_size, data: 'file' }, {
    Width: frame.width,
    Height: frame.height,
    BitsPerComponent: 8,
    ColorSpace: colorSpace,
    Filter: 'DCTDecode',
    // Adobe's CMYK JPEGs are stored inverted.
    ...(frame.components === 4 ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
  });
  return { ref, width: frame.width, height: frame.height };
}

async function preparePng({ doc, caller, deferred, budget, probe }: Photos, photo: ReportPhoto): Promise<PhotoSlot> {
  const size = fileSize(photo.byte_size);
  const unavailable = { reason: ['Photo unavailable', `The PNG photo (${size}) could not be read from storage.`] };
  const stream = await openEvidence(caller, photo.object_path);
  if (!stream) return unavailable;
  const layout = await pngLayoutFrom(stream).finally(() => stream.cancel());
  if (!layout) return { reason: ['Photo not shown', `The PNG photo (${size}) could not be read.`] };
  const { header } = layout;
  if (layout.dataBytes === 0) return { reason: ['Photo not shown', `The PNG photo (${size}) has no image data.`] };
  if (pngShowsAsIs(layout)) {
    const colorSpace = header.colorType === 0
      ? 'DeviceGray'
      : header.colorType === 2
      ? 'DeviceRGB'
      : [PDFName.of('Indexed'), PDFName.of('DeviceRGB'), layout.palette!.length / 3 - 1, PDFHexString.of(hexOf(layout.palette!))];
    const ref = deferImage(doc, deferred, { path: photo.object_path, bytes: layout.dataBytes, data: 'png-image-data' }, {
      Width: header.width,
      Height: header.height,
      BitsPerComponent: header.bitDepth,
      ColorSpace: colorSpace,
      Filter: 'FlateDecode',
      DecodeParms: { Predictor: 15, Colors: header.colorType === 2 ? 3 : 1, BitsPerComponent: header.bitDepth, Columns: header.width },
    });
    return { ref, width: header.width, height: header.height };
  }
  // Transparency or interlacing: decoded, within the limits.
  const pixels = header.width * header.height;
  if (pixels > PNG_DECODE_MAX_PIXELS) {
    return {
      reason: [
        `Photo too large to include — ${megapixels(pixels)} MP`,
        `A report includes PNG photos with transparency of up to ${PNG_DECODE_MAX_PIXELS / 1e6} MP. ${keptInFieldcheck(size)}`,
      ],
    };
  }
  if (!budget.take(pixels)) {
    return {
      reason: [
        `Photo too large to include — ${megapixels(pixels)} MP`,
        `This report has reached its limit of ${REPORT_DECODE_PIXELS / 1e6} MP of signatures and PNG photos with transparency. ${keptInFieldcheck(size)}`,
      ],
    };
  }
  const bytes = await readEvidence(caller, photo.object_path);
  if (!bytes) return unavailable;
  try {
    return await embedDecodedPng(doc, bytes, probe);
  } catch {
    return { reason: ['Photo not shown', `The PNG photo (${size}) could not be decoded.`] };
  }
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function preparePhoto(photos: Photos, photo: ReportPhoto): Promise<PhotoSlot> {
  if (photo.content_type === 'image/jpeg') return await prepareJpeg(photos, photo);
  if (photo.content_type === 'image/png') return await preparePng(photos, photo);
  // WebP and HEIC: PDF has no filter for them and pdf-lib no decoder.
  const kind = photo.content_type === 'image/webp' ? 'WebP' : photo.content_type.replace('image/', '').toUpperCase();
  return { reason: [`${kind} photo not shown`, `PDF cannot show ${kind} images. ${keptInFieldcheck(fileSize(photo.byte_size))}`] };
}


/** "2.4 MB", "340 KB". */
function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
