// The inspection report PDF (docs/reports.md): a cover (organization, site with address and
// coordinates, template and version, inspectors, dates, score, status, geofence), the failed items
// with their corrective actions, then every section and item with its answer, pass / fail mark,
// note, photos and signature; page numbers and the time it was made on every page.
//
// Built with pdf-lib and Noto Sans (Latin, Greek, Cyrillic) falling back to Noto Sans SC (Chinese,
// Japanese kana) per character, both subset to the characters used (report-fonts.ts).
//
// Memory stays flat in the number of photos: a JPEG is not read when the page is laid out, only
// its header (for its size in pixels); its bytes are fetched from Storage and written straight
// into the response when the writer reaches its object, one photo at a time. PNGs (and the
// signature) are decoded by pdf-lib when laid out, so only PNGs up to PNG_MAX_PIXELS are embedded.
// WebP and HEIC, which PDF cannot show, become a labelled box saying so — never left out silently.
import fontkit from '@pdf-lib/fontkit';
import {
  degrees,
  drawImage,
  type PDFDict,
  PDFDocument,
  type PDFFont,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
  type PDFRef,
  PDFWriter,
  rgb,
} from 'pdf-lib';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { type MemoryProbe, memoryProbe } from '../_shared/memory-probe.ts';
import { ACTION_PRIORITY_LABELS, ACTION_STATUS_LABELS, type ActionPriority, type ActionStatus } from '../_shared/schemas/action-states.ts';
import { answerText } from '../_shared/schemas/answer-text.ts';
import { type InspectionStatus, STATUS_LABELS } from '../_shared/schemas/inspection-states.ts';
import { pixelCountOf } from '../_shared/schemas/photos.ts';
import type { TemplateDefinition, TemplateItem } from '../_shared/schemas/templates.ts';
import type { StorageCaller } from './evidence.ts';
import { loadFonts } from './report-fonts.ts';

// --- Reading ---------------------------------------------------------------------------------

export interface ReportPhoto {
  id: string;
  item_key: string;
  object_path: string;
  content_type: string;
  byte_size: number;
  uploaded_by_name: string | null;
  created_at: Date;
}

export interface ReportAction {
  item_key: string | null;
  title: string;
  priority: ActionPriority;
  status: ActionStatus;
  assignee_name: string | null;
  due_at: Date;
  resolution_note: string | null;
}

export interface ReportAnswer {
  value: unknown;
  note: string | null;
  failed: boolean | null;
  answered_by_name: string | null;
  answered_at: Date;
}

export interface ReportData {
  generatedAt: string;
  organization: { name: string; slug: string };
  inspection: {
    id: string;
    title: string;
    status: InspectionStatus;
    external_ref: string | null;
    assignee_name: string | null;
    due_at: Date | null;
    started_at: Date | null;
    started_by_name: string | null;
    submitted_at: Date | null;
    submitted_by_name: string | null;
    reviewed_at: Date | null;
    reviewed_by_name: string | null;
    review_note: string | null;
    canceled_at: Date | null;
    score: number;
    max_score: number;
    failed_count: number;
    start_distance_m: number | null;
    start_accuracy_m: number | null;
    start_outside_geofence: boolean | null;
    /** Items the template's rules hide (docs/templates.md, show_when): not asked, not counted. */
    hidden: Set<string>;
  };
  site: {
    name: string;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
    geofence_m: number;
    timezone: string;
    external_ref: string | null;
  };
  template: { name: string; version: number; definition: TemplateDefinition };
  answers: Map<string, ReportAnswer>;
  photos: ReportPhoto[];
  actions: ReportAction[];
  /** Everyone who worked on it: who started, answered, uploaded and submitted, in that order. */
  inspectors: string[];
}

/** What the report shows, read as the caller (RLS): 404 for an inspection they cannot see. */
export async function readReportData(tx: Tx, orgId: string, inspectionId: string): Promise<ReportData> {
  const [row] = await tx`
    select i.id, i.title, i.status, i.external_ref, i.due_at, i.started_at, i.submitted_at, i.reviewed_at, i.review_note,
           i.canceled_at, i.score, i.max_score, i.failed_count, i.start_distance_m, i.start_accuracy_m, i.start_outside_geofence,
           i.hidden_item_keys,
           pa.display_name as assignee_name, ps.display_name as started_by_name, pu.display_name as submitted_by_name,
           pr.display_name as reviewed_by_name,
           o.name as org_name, o.slug as org_slug,
           s.name as site_name, s.address, s.latitude, s.longitude, s.geofence_m, s.timezone, s.external_ref as site_external_ref,
           v.name as template_name, v.version as template_version, v.definition
    from public.inspections i
    join public.organizations o on o.id = i.org_id
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    left join public.profiles pa on pa.user_id = i.assignee_id
    left join public.profiles ps on ps.user_id = i.started_by
    left join public.profiles pu on pu.user_id = i.submitted_by
    left join public.profiles pr on pr.user_id = i.reviewed_by
    where i.org_id = ${orgId} and i.id = ${inspectionId}
  `;
  if (!row) throw ApiError.notFound('inspection');
  const [answers, photos, actions] = await Promise.all([
    tx`
      select a.item_key, a.value, a.note, a.failed, a.answered_at, p.display_name as answered_by_name
      from public.answers a left join public.profiles p on p.user_id = a.answered_by
      where a.inspection_id = ${inspectionId}
      order by a.answered_at
    `,
    tx<ReportPhoto[]>`
      select t.id, t.item_key, t.object_path, t.content_type, t.byte_size::float8 as byte_size, t.created_at,
             p.display_name as uploaded_by_name
      from public.attachments t left join public.profiles p on p.user_id = t.uploaded_by
      where t.inspection_id = ${inspectionId} and t.confirmed_at is not null
      order by t.created_at, t.id
    `,
    tx<ReportAction[]>`
      select a.item_key, a.title, a.priority, a.status, a.due_at, a.resolution_note, p.display_name as assignee_name
      from public.actions a left join public.profiles p on p.user_id = a.assignee_id
      where a.inspection_id = ${inspectionId}
      order by a.created_at, a.id
    `,
  ]);
  const names = [row.started_by_name, ...answers.map((a) => a.answered_by_name), ...photos.map((p) => p.uploaded_by_name), row.submitted_by_name];
  return {
    generatedAt: new Date().toISOString(),
    organization: { name: row.org_name, slug: row.org_slug },
    inspection: {
      id: row.id,
      title: row.title,
      status: row.status,
      external_ref: row.external_ref,
      assignee_name: row.assignee_name,
      due_at: row.due_at,
      started_at: row.started_at,
      started_by_name: row.started_by_name,
      submitted_at: row.submitted_at,
      submitted_by_name: row.submitted_by_name,
      reviewed_at: row.reviewed_at,
      reviewed_by_name: row.reviewed_by_name,
      review_note: row.review_note,
      canceled_at: row.canceled_at,
      score: Number(row.score),
      max_score: Number(row.max_score),
      failed_count: row.failed_count,
      start_distance_m: row.start_distance_m,
      start_accuracy_m: row.start_accuracy_m,
      start_outside_geofence: row.start_outside_geofence,
      hidden: new Set<string>(row.hidden_item_keys ?? []),
    },
    site: {
      name: row.site_name,
      address: row.address,
      latitude: row.latitude,
      longitude: row.longitude,
      geofence_m: row.geofence_m,
      timezone: row.timezone,
      external_ref: row.site_external_ref,
    },
    template: { name: row.template_name, version: row.template_version, definition: row.definition },
    answers: new Map(answers.map((a) => [a.item_key as string, a as unknown as ReportAnswer])),
    photos: [...photos],
    actions: [...actions],
    inspectors: [...new Set(names.filter((name): name is string => typeof name === 'string' && name.length > 0))],
  };
}

// --- Fonts -----------------------------------------------------------------------------------

// The code points each font covers, computed once per instance (the CJK font has ~30 000).
const coverage = new Map<string, Set<number>>();
function coverageOf(name: string, font: PDFFont): Set<number> {
  let set = coverage.get(name);
  if (!set) {
    set = new Set(font.getCharacterSet());
    coverage.set(name, set);
  }
  return set;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  cjk: PDFFont;
  latin: Set<number>;
  han: Set<number>;
}

// --- Layout ----------------------------------------------------------------------------------

const PAGE = { width: 595.28, height: 841.89 }; // A4
const MARGIN = { left: 50, right: 50, top: 56, bottom: 64 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const INK = rgb(0.12, 0.14, 0.17);
const MUTED = rgb(0.4, 0.43, 0.47);
const RULE = rgb(0.85, 0.87, 0.9);
const PASS = rgb(0.08, 0.5, 0.24);
const FAIL = rgb(0.75, 0.1, 0.1);
const PLACEHOLDER_FILL = rgb(0.95, 0.95, 0.96);

interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: ReturnType<typeof rgb>;
  indent?: number;
  width?: number;
  /** Space after the paragraph. */
  after?: number;
}

interface Run {
  text: string;
  font: PDFFont;
}

/** A page cursor that flows text and boxes down A4 pages, starting new ones as needed. */
class Flow {
  readonly doc: PDFDocument;
  readonly fonts: Fonts;
  page!: PDFPage;
  y = 0;

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.doc = doc;
    this.fonts = fonts;
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN.top;
  }

  /** Makes room for `height` points, on a new page when this one has too little left. */
  room(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  /** The font a character is drawn in, and the character drawn: Noto Sans, else Noto Sans SC, else "?". */
  private fontFor(char: string, bold: boolean): [PDFFont, string] {
    const code = char.codePointAt(0)!;
    if (this.fonts.latin.has(code)) return [bold ? this.fonts.bold : this.fonts.regular, char];
    if (this.fonts.han.has(code)) return [this.fonts.cjk, char];
    return [bold ? this.fonts.bold : this.fonts.regular, '?'];
  }

  /** `text` cut into runs of one font. */
  runs(text: string, bold: boolean): Run[] {
    const runs: Run[] = [];
    for (const char of text) {
      const [font, shown] = this.fontFor(char, bold);
      const last = runs.at(-1);
      if (last && last.font === font) last.text += shown;
      else runs.push({ text: shown, font });
    }
    return runs;
  }

  // Widths per character at 1 pt, measured once: pdf-lib measures a string by shaping it with
  // fontkit (GSUB, GPOS), far too slow to repeat for every candidate line of a 500-item report.
  // Summing advances leaves kerning out, which only makes lines a hair shorter than they could be.
  private readonly advances = new Map<PDFFont, Map<string, number>>();

  widthOf(text: string, size: number, bold: boolean): number {
    let width = 0;
    for (const char of text) {
      const [font, shown] = this.fontFor(char, bold);
      let known = this.advances.get(font);
      if (!known) this.advances.set(font, (known = new Map()));
      let advance = known.get(shown);
      if (advance === undefined) known.set(shown, (advance = font.widthOfTextAtSize(shown, 1)));
      width += advance;
    }
    return width * size;
  }

  /** Lines of at most `width` points: breaks at spaces, and anywhere in CJK text or an over-long word. */
  wrap(text: string, size: number, bold: boolean, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n')) {
      // Words with their following spaces; each CJK character is a word of its own.
      const tokens = paragraph.match(/[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+\s*|\s+/g) ?? [''];
      let line = '';
      let lineWidth = 0;
      for (const token of tokens) {
        // The line so far plus the token without its trailing spaces (they may hang off the end).
        const tokenWidth = this.widthOf(token.trimEnd(), size, bold);
        if (lineWidth + tokenWidth <= width) {
          line += token;
          lineWidth += this.widthOf(token, size, bold);
          continue;
        }
        if (line.trim() !== '') lines.push(line.trimEnd());
        line = '';
        // A token wider than the line is cut by characters.
        let rest = token.trimStart();
        while (this.widthOf(rest.trimEnd(), size, bold) > width) {
          let cut = 1;
          const chars = [...rest];
          while (cut < chars.length && this.widthOf(chars.slice(0, cut + 1).join(''), size, bold) <= width) cut++;
          lines.push(chars.slice(0, cut).join(''));
          rest = chars.slice(cut).join('');
        }
        line = rest;
        lineWidth = this.widthOf(rest, size, bold);
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  /** Draws one line at (x, y) without moving the cursor; returns its width. */
  line(text: string, x: number, y: number, size: number, bold: boolean, color = INK): number {
    let at = x;
    for (const run of this.runs(text, bold)) {
      this.page.drawText(run.text, { x: at, y, size, font: run.font, color });
      at += this.widthOf(run.text, size, bold);
    }
    return at - x;
  }

  /** A wrapped paragraph at the cursor. */
  text(text: string, style: TextStyle = {}): void {
    const size = style.size ?? 10;
    const bold = style.bold ?? false;
    const indent = style.indent ?? 0;
    const leading = size * 1.35;
    for (const line of this.wrap(text, size, bold, (style.width ?? CONTENT_WIDTH) - indent)) {
      this.room(leading);
      this.y -= leading;
      this.line(line, MARGIN.left + indent, this.y + size * 0.25, size, bold, style.color ?? INK);
    }
    this.y -= style.after ?? 0;
  }

  /** A label and its value side by side, the value wrapped in its column. */
  fact(label: string, value: string): void {
    const size = 10;
    const leading = size * 1.4;
    const labelWidth = 130;
    const lines = this.wrap(value || '—', size, false, CONTENT_WIDTH - labelWidth);
    this.room(leading * Math.min(lines.length, 3));
    this.line(label, MARGIN.left, this.y - leading + size * 0.25, size, true, MUTED);
    for (const line of lines) {
      this.room(leading);
      this.y -= leading;
      this.line(line, MARGIN.left + labelWidth, this.y + size * 0.25, size, false);
    }
    this.y -= 2;
  }

  rule(after = 8): void {
    this.room(after + 2);
    this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: PAGE.width - MARGIN.right, y: this.y }, thickness: 0.6, color: RULE });
    this.y -= after;
  }

  heading(text: string, size = 14): void {
    this.room(size * 3);
    this.y -= size * 0.6;
    this.text(text, { size, bold: true, after: 4 });
  }
}

// --- Times and numbers -------------------------------------------------------------------------

const formats = new Map<string, Intl.DateTimeFormat>();

/** "26 Nov 2026, 09:05 GMT-8 (America/Los_Angeles)": the clock on site, with its zone. */
export function siteTime(at: Date | null, zone: string): string {
  if (!at) return '';
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset',
    });
    formats.set(zone, format);
  }
  return `${format.format(at)} (${zone})`;
}

/** "2.4 MB", "340 KB". */
function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function scoreText(score: number, max: number): string {
  if (max <= 0) return 'Not scored';
  return `${Math.round((score / max) * 1000) / 10}% (${score} of ${max})`;
}

function geofenceText(report: ReportData): string {
  const { inspection, site } = report;
  if (!inspection.started_at) return 'Not started';
  if (inspection.start_distance_m === null) return 'Started without a location';
  const where = `Started ${Math.round(inspection.start_distance_m)} m from the site` +
    (inspection.start_accuracy_m !== null ? ` (accuracy ${Math.round(inspection.start_accuracy_m)} m)` : '');
  return inspection.start_outside_geofence
    ? `${where}: OUTSIDE its ${site.geofence_m} m geofence`
    : `${where}: inside its ${site.geofence_m} m geofence`;
}

// --- Photos ----------------------------------------------------------------------------------

/** PNGs are decoded to pixels by pdf-lib (4 bytes each): larger ones are shown as a placeholder. */
export const PNG_MAX_PIXELS = 12_000_000;
const JPEG_HEADER_BYTES = 256 * 1024;
const PHOTO_BOX = { width: (CONTENT_WIDTH - 12) / 2, height: 190 };

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
async function openEvidence(caller: StorageCaller, path: string): Promise<ReadableStreamDefaultReader<Uint8Array> | null> {
  const response = await fetchEvidence(caller, path).catch(() => null);
  return response?.body ? response.body.getReader() : null;
}

interface JpegFrame {
  width: number;
  height: number;
  components: number;
}

/** The frame header (SOFn) of a JPEG: its size and colour components; null when not in `bytes`. */
export function jpegFrameOf(bytes: Uint8Array): JpegFrame | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8], components: bytes[at + 9] };
    }
    at += 2 + length;
  }
  return null;
}

/** A JPEG whose bytes are written only when the writer reaches its object (`StreamingWriter`). */
interface DeferredJpeg {
  path: string;
  bytes: number;
}

/** Draws the image XObject `ref` fitted into a box at the cursor's left + `x`. */
function placeImage(flow: Flow, ref: PDFRef, x: number, top: number, width: number, height: number, boxWidth: number, boxHeight: number) {
  const scale = Math.min(boxWidth / width, boxHeight / height, 1);
  const w = width * scale;
  const h = height * scale;
  const name = flow.page.node.newXObject('Image', ref);
  flow.page.pushOperators(...drawImage(name, {
    x: x + (boxWidth - w) / 2, y: top - boxHeight + (boxHeight - h) / 2, width: w, height: h,
    rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0),
  }));
}

/** A grey box with a message where a photo cannot be shown. */
function placeholder(flow: Flow, x: number, top: number, lines: string[]) {
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

/** What the PDF holds for one photo: a deferred JPEG, an embedded PNG, or a reason it cannot. */
type PhotoSlot = { ref: PDFRef; width: number; height: number } | { reason: string[] };

async function preparePhoto(doc: PDFDocument, photo: ReportPhoto, caller: StorageCaller, deferred: Map<PDFRef, DeferredJpeg>): Promise<PhotoSlot> {
  const kind = photo.content_type === 'image/webp' ? 'WebP' : photo.content_type.replace('image/', '').toUpperCase();
  const size = fileSize(photo.byte_size);
  if (photo.content_type === 'image/jpeg') {
    const head = await readEvidence(caller, photo.object_path, JPEG_HEADER_BYTES);
    if (!head) return { reason: ['Photo unavailable', `The ${kind} photo (${size}) could not be read from storage.`] };
    // Behind very large metadata (an ICC profile, XMP) the frame header lies further in: read it all once.
    const frame = jpegFrameOf(head) ?? (photo.byte_size > head.byteLength ? jpegFrameOf((await readEvidence(caller, photo.object_path)) ?? head) : null);
    if (!frame || frame.width === 0 || frame.height === 0) return { reason: ['Photo not shown', `The JPEG photo (${size}) has no frame header this report can read.`] };
    const colorSpace = frame.components === 1 ? 'DeviceGray' : frame.components === 4 ? 'DeviceCMYK' : 'DeviceRGB';
    const dict = doc.context.obj({
      Type: 'XObject',
      Subtype: 'Image',
      Width: frame.width,
      Height: frame.height,
      BitsPerComponent: 8,
      ColorSpace: colorSpace,
      Filter: 'DCTDecode',
      Length: photo.byte_size,
      // Adobe's CMYK JPEGs are stored inverted.
      ...(frame.components === 4 ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
    });
    const ref = doc.context.register(PDFRawStream.of(dict, new Uint8Array(0)));
    deferred.set(ref, { path: photo.object_path, bytes: photo.byte_size });
    return { ref, width: frame.width, height: frame.height };
  }
  if (photo.content_type === 'image/png') {
    const bytes = await readEvidence(caller, photo.object_path);
    if (!bytes) return { reason: ['Photo unavailable', `The PNG photo (${size}) could not be read from storage.`] };
    const pixels = pixelCountOf('image/png', bytes);
    if (pixels !== null && pixels > PNG_MAX_PIXELS) {
      return { reason: ['Photo not embedded', `This PNG photo has ${(pixels / 1e6).toFixed(1)} megapixels, more than a report embeds (${PNG_MAX_PIXELS / 1e6}). Open the inspection in Fieldcheck to see it.`] };
    }
    try {
      const image = await doc.embedPng(bytes);
      return { ref: image.ref, width: image.width, height: image.height };
    } catch {
      return { reason: ['Photo not shown', `The PNG photo (${size}) could not be decoded.`] };
    }
  }
  // WebP and HEIC: PDF has no filter for them and pdf-lib no decoder.
  return {
    reason: [
      `${kind} photo not shown`,
      `PDF cannot show ${kind} images. The photo (${size}) is kept in Fieldcheck: open the inspection there to see it.`,
    ],
  };
}

// --- The document ------------------------------------------------------------------------------

function itemMark(flow: Flow, failed: boolean | null, answered: boolean) {
  if (failed === null || !answered) return;
  const text = failed ? 'FAIL' : 'PASS';
  const size = 8.5;
  const width = flow.widthOf(text, size, true) + 10;
  const x = PAGE.width - MARGIN.right - width;
  flow.page.drawRectangle({ x, y: flow.y - 14, width, height: 13, color: failed ? FAIL : PASS });
  flow.line(text, x + 5, flow.y - 10.5, size, true, rgb(1, 1, 1));
}

/** Builds the report; photos are read from Storage as `caller`. Answers the PDF as a stream, with its length. */
export async function buildInspectionReport(report: ReportData, caller: StorageCaller): Promise<{ stream: ReadableStream<Uint8Array>; length: number }> {
  const files = await loadFonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [regular, bold, cjk] = await Promise.all([
    doc.embedFont(files.regular, { subset: true }),
    doc.embedFont(files.bold, { subset: true }),
    doc.embedFont(files.cjk, { subset: true }),
  ]);
  const fonts: Fonts = { regular, bold, cjk, latin: coverageOf('NotoSans', regular), han: coverageOf('NotoSansSC', cjk) };
  const { inspection, site, template, organization } = report;
  const zone = site.timezone;
  doc.setTitle(`${inspection.title} — inspection report`);
  doc.setAuthor(organization.name);
  doc.setCreator('Fieldcheck');
  doc.setProducer('Fieldcheck (pdf-lib)');
  doc.setCreationDate(new Date(report.generatedAt));

  const flow = new Flow(doc, fonts);
  const probe = memoryProbe('report.pdf');

  // Cover.
  flow.text(organization.name, { size: 11, color: MUTED, after: 2 });
  flow.text('Inspection report', { size: 11, bold: true, color: MUTED, after: 10 });
  flow.text(inspection.title, { size: 20, bold: true, after: 14 });
  flow.rule(12);
  const facts: Array<[string, string]> = [
    ['Organization', organization.name],
    ['Site', site.name + (site.external_ref ? ` (ref. ${site.external_ref})` : '')],
    ['Address', site.address ?? 'No address recorded'],
    ['Coordinates', site.latitude !== null && site.longitude !== null ? `${site.latitude.toFixed(5)}, ${site.longitude.toFixed(5)}` : 'No position recorded'],
    ['Template', `${template.name}, version ${template.version}`],
    ['Status', STATUS_LABELS[inspection.status] ?? inspection.status],
    ['Score', scoreText(inspection.score, inspection.max_score)],
    ['Failed items', String(inspection.failed_count)],
    ['Inspectors', report.inspectors.join(', ') || 'Nobody yet'],
    ['Assigned to', inspection.assignee_name ?? 'Unassigned'],
  ];
  if (inspection.due_at) facts.push(['Due', siteTime(inspection.due_at, zone)]);
  if (inspection.started_at) facts.push(['Started', `${siteTime(inspection.started_at, zone)}${inspection.started_by_name ? ` by ${inspection.started_by_name}` : ''}`]);
  facts.push(['Location check', geofenceText(report)]);
  if (inspection.submitted_at) facts.push(['Submitted', `${siteTime(inspection.submitted_at, zone)}${inspection.submitted_by_name ? ` by ${inspection.submitted_by_name}` : ''}`]);
  if (inspection.reviewed_at) facts.push(['Reviewed', `${siteTime(inspection.reviewed_at, zone)}${inspection.reviewed_by_name ? ` by ${inspection.reviewed_by_name}` : ''}`]);
  if (inspection.review_note) facts.push(['Review note', inspection.review_note]);
  if (inspection.canceled_at) facts.push(['Canceled', siteTime(inspection.canceled_at, zone)]);
  if (inspection.external_ref) facts.push(['External reference', inspection.external_ref]);
  facts.push(['Report generated', siteTime(new Date(report.generatedAt), zone)]);
  for (const [label, value] of facts) flow.fact(label, value);

  // Failed items and their corrective actions, first: what a reader acts on.
  const sections = template.definition.sections;
  const hidden = inspection.hidden;
  const failed = sections.flatMap((section) =>
    section.items.filter((item) => !hidden.has(item.key) && report.answers.get(item.key)?.failed).map((item) => ({ section, item }))
  );
  flow.y -= 8;
  flow.heading(`Failed items and corrective actions (${failed.length})`);
  if (failed.length === 0) flow.text('No item failed.', { color: MUTED, after: 6 });
  for (const { section, item } of failed) {
    const answer = report.answers.get(item.key)!;
    flow.room(48);
    flow.text(`${item.label}`, { bold: true, size: 10.5, after: 1 });
    flow.text(`${section.title} · Answer: ${answerText(item, answer.value) || '—'}`, { color: MUTED, size: 9.5, after: 1 });
    if (answer.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
    const actions = report.actions.filter((action) => action.item_key === item.key);
    if (actions.length === 0) flow.text('No corrective action recorded.', { size: 9.5, color: FAIL, indent: 12, after: 2 });
    for (const action of actions) {
      flow.text(
        `• ${action.title} — ${ACTION_PRIORITY_LABELS[action.priority] ?? action.priority} priority, ${ACTION_STATUS_LABELS[action.status] ?? action.status}` +
          `, ${action.assignee_name ? `assigned to ${action.assignee_name}` : 'unassigned'}, due ${siteTime(action.due_at, zone)}` +
          (action.resolution_note ? `. Resolution: ${action.resolution_note}` : ''),
        { size: 9.5, indent: 12, after: 2 },
      );
    }
    flow.y -= 6;
  }
  const otherActions = report.actions.filter((action) => !action.item_key || !failed.some(({ item }) => item.key === action.item_key));
  if (otherActions.length > 0) {
    flow.text('Other corrective actions of this inspection', { bold: true, size: 10.5, after: 2 });
    for (const action of otherActions) {
      flow.text(
        `• ${action.title} — ${ACTION_PRIORITY_LABELS[action.priority] ?? action.priority} priority, ${ACTION_STATUS_LABELS[action.status] ?? action.status}` +
          `, ${action.assignee_name ? `assigned to ${action.assignee_name}` : 'unassigned'}, due ${siteTime(action.due_at, zone)}`,
        { size: 9.5, indent: 12, after: 2 },
      );
    }
  }

  // Every section and item.
  const deferred = new Map<PDFRef, DeferredJpeg>();
  const photosByItem = new Map<string, ReportPhoto[]>();
  for (const photo of report.photos) photosByItem.set(photo.item_key, [...(photosByItem.get(photo.item_key) ?? []), photo]);
  for (const [s, section] of sections.entries()) {
    if (s === 0) flow.newPage();
    const shown = section.items.filter((item) => !hidden.has(item.key));
    const answered = shown.filter((item) => report.answers.get(item.key)?.value != null || (photosByItem.get(item.key)?.length ?? 0) > 0).length;
    flow.heading(`${section.title}`, 14);
    flow.text(
      shown.length === 0 ? 'Hidden by the template\'s rules' : `${answered} of ${shown.length} answered` + (shown.length < section.items.length ? ` (${section.items.length - shown.length} hidden by the template's rules)` : ''),
      { size: 9, color: MUTED, after: 4 },
    );
    flow.rule(6);
    for (const item of section.items) await drawItem(flow, item, report, photosByItem.get(item.key) ?? [], caller, deferred, zone);
    probe.sample();
  }

  // Page numbers and the time of making on every page.
  const pages = doc.getPages();
  const footer = `${organization.name} · ${inspection.title} · generated ${siteTime(new Date(report.generatedAt), zone)}`;
  for (const [i, page] of pages.entries()) {
    flow.page = page;
    const number = `Page ${i + 1} of ${pages.length}`;
    const numberWidth = flow.widthOf(number, 8, false);
    const left = flow.wrap(footer, 8, false, CONTENT_WIDTH - numberWidth - 20)[0];
    page.drawLine({ start: { x: MARGIN.left, y: 44 }, end: { x: PAGE.width - MARGIN.right, y: 44 }, thickness: 0.5, color: RULE });
    flow.line(left, MARGIN.left, 32, 8, false, MUTED);
    flow.line(number, PAGE.width - MARGIN.right - numberWidth, 32, 8, false, MUTED);
  }

  await doc.flush();
  probe.sample();
  return StreamingWriter.stream(doc, deferred, caller, probe);
}

async function drawItem(
  flow: Flow,
  item: TemplateItem,
  report: ReportData,
  photos: ReportPhoto[],
  caller: StorageCaller,
  deferred: Map<PDFRef, DeferredJpeg>,
  zone: string,
) {
  const answer = report.answers.get(item.key);
  const value = answer?.value ?? null;
  const hasValue = value !== null && value !== undefined;
  flow.room(40);
  if (report.inspection.hidden.has(item.key)) {
    // Not asked: the rules hid it. An answer given before it was hidden is kept, and shown as not counted.
    flow.text(item.label, { bold: true, size: 10.5, color: MUTED, width: CONTENT_WIDTH - 50, after: 1 });
    flow.text('Hidden by the template\'s rules: not asked, not counted.', { size: 9.5, color: MUTED });
    if (hasValue) flow.text(`Kept answer, not counted: ${answerText(item, value)}`, { size: 9.5, color: MUTED });
    flow.y -= 4;
    flow.rule(8);
    return;
  }
  itemMark(flow, answer?.failed ?? null, hasValue);
  flow.text(item.label + (item.required ? ' *' : ''), { bold: true, size: 10.5, width: CONTENT_WIDTH - 50, after: 1 });
  if (item.kind === 'photo') {
    flow.text(photos.length === 0 ? 'No photo' : `${photos.length} ${photos.length === 1 ? 'photo' : 'photos'}`, { size: 10, color: photos.length ? INK : MUTED });
  } else if (item.kind === 'signature') {
    flow.text(hasValue ? answerText(item, value) : 'Not signed', { size: 10, color: hasValue ? INK : MUTED });
  } else {
    flow.text(hasValue ? answerText(item, value) : 'Not answered', { size: 10, color: hasValue ? (answer?.failed ? FAIL : INK) : MUTED });
  }
  if (answer?.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
  if (answer && (hasValue || answer.note)) {
    flow.text(`${answer.answered_by_name ? `${answer.answered_by_name}, ` : ''}${siteTime(answer.answered_at, zone)}`, { size: 8.5, color: MUTED });
  }

  if (item.kind === 'signature' && hasValue) {
    const image = (value as { image?: unknown }).image;
    if (typeof image === 'string' && image.startsWith('data:image/png;base64,')) {
      try {
        const png = await flow.doc.embedPng(image);
        flow.room(90);
        placeImage(flow, png.ref, MARGIN.left, flow.y - 4, png.width, png.height, 220, 80);
        flow.page.drawRectangle({ x: MARGIN.left, y: flow.y - 84, width: 220, height: 80, borderColor: RULE, borderWidth: 0.8 });
        flow.y -= 90;
      } catch {
        flow.text('The signature image could not be decoded.', { size: 9, color: FAIL });
      }
    }
  }

  for (let i = 0; i < photos.length; i += 2) {
    flow.room(PHOTO_BOX.height + 26);
    const top = flow.y - 4;
    for (const [column, photo] of photos.slice(i, i + 2).entries()) {
      const x = MARGIN.left + column * (PHOTO_BOX.width + 12);
      const slot = await preparePhoto(flow.doc, photo, caller, deferred);
      if ('ref' in slot) placeImage(flow, slot.ref, x, top, slot.width, slot.height, PHOTO_BOX.width, PHOTO_BOX.height);
      else placeholder(flow, x, top, slot.reason);
      const caption = `Photo ${i + column + 1}${photo.uploaded_by_name ? ` by ${photo.uploaded_by_name}` : ''}, ${siteTime(photo.created_at, zone)}`;
      flow.line(flow.wrap(caption, 7.5, false, PHOTO_BOX.width)[0], x, top - PHOTO_BOX.height - 11, 7.5, false, MUTED);
    }
    flow.y = top - PHOTO_BOX.height - 20;
  }
  flow.y -= 4;
  flow.rule(8);
}

// --- Writing -----------------------------------------------------------------------------------

const encoder = new TextEncoder();

/**
 * pdf-lib's PDFWriter, writing object by object into a stream instead of one buffer, and writing
 * the deferred JPEGs' bytes as it reaches them (read from Storage then, one at a time). The
 * offsets come from pdf-lib's own size computation, with each deferred JPEG counted at its
 * recorded size, so the length is known before the first byte.
 */
class StreamingWriter extends PDFWriter {
  static async stream(
    doc: PDFDocument,
    deferred: Map<PDFRef, DeferredJpeg>,
    caller: StorageCaller,
    probe: MemoryProbe,
  ): Promise<{ stream: ReadableStream<Uint8Array>; length: number }> {
    const writer = new StreamingWriter(doc.context, 50);
    return await writer.serialize(deferred, caller, probe);
  }

  private constructor(context: PDFDocument['context'], objectsPerTick: number) {
    super(context, objectsPerTick);
  }

  /** "<dict>\nstream\n" of a deferred JPEG, its Length set to the photo's size. */
  private streamHead(object: PDFObject, bytes: number): Uint8Array {
    const dict = (object as PDFRawStream).dict as PDFDict;
    dict.set(PDFName.of('Length'), PDFNumber.of(bytes));
    const head = new Uint8Array(dict.sizeInBytes() + 8);
    const n = dict.copyBytesInto(head, 0);
    head.set(encoder.encode('\nstream\n'), n);
    return head;
  }

  private async serialize(deferred: Map<PDFRef, DeferredJpeg>, caller: StorageCaller, probe: MemoryProbe) {
    const { header, indirectObjects, xref, trailerDict, trailer } = await this.computeBufferSize();
    // PDFWriter always makes both (only its object-stream subclass leaves them out).
    if (!xref || !trailerDict) throw new Error('pdf-lib made no cross-reference table');
    // computeBufferSize counted each deferred JPEG with no contents: recompute the offsets with them.
    let offset = header.sizeInBytes() + 2;
    const sizes = indirectObjects.map(([ref, object]) => {
      const photo = deferred.get(ref);
      const size = photo
        ? ref.sizeInBytes() + 3 + this.streamHead(object, photo.bytes).byteLength + photo.bytes + '\nendstream'.length + 9
        : this.computeIndirectObjectSize([ref, object]);
      return size;
    });
    const entries = new Map<PDFRef, { offset: number }>();
    for (const subsection of (xref as unknown as { subsections: Array<Array<{ ref: PDFRef; offset: number }>> }).subsections) {
      for (const entry of subsection) entries.set(entry.ref, entry);
    }
    for (const [i, [ref]] of indirectObjects.entries()) {
      // Offsets are written with a fixed width (10 digits): changing them keeps the table's size.
      const entry = entries.get(ref);
      if (entry) entry.offset = offset;
      offset += sizes[i];
    }
    const xrefOffset = offset;
    const fixedTrailer = (trailer.constructor as unknown as { forLastCrossRefSectionOffset(n: number): typeof trailer }).forLastCrossRefSectionOffset(xrefOffset);
    const length = xrefOffset + xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + fixedTrailer.sizeInBytes();

    const copy = (source: { sizeInBytes(): number; copyBytesInto(buffer: Uint8Array, offset: number): number }, extra = '') => {
      const buffer = new Uint8Array(source.sizeInBytes() + extra.length);
      const n = source.copyBytesInto(buffer, 0);
      buffer.set(encoder.encode(extra), n);
      return buffer;
    };
    let index = -1;
    let written = 0;
    let photoInFlight: { reader: ReadableStreamDefaultReader<Uint8Array> | null; left: number } | null = null;
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const enqueue = (chunk: Uint8Array) => {
          written += chunk.byteLength;
          controller.enqueue(chunk);
        };
        probe.sample();
        if (index === -1) {
          enqueue(copy(header, '\n\n'));
          index = 0;
          return;
        }
        if (photoInFlight) {
          // A photo's bytes pass from Storage's answer to ours a chunk at a time, exactly its
          // recorded number, so every offset after it holds even if Storage answered otherwise (a
          // missing object shows as an empty image, never a broken file).
          const chunk = photoInFlight.reader ? await photoInFlight.reader.read() : { done: true as const, value: undefined };
          if (!chunk.done && chunk.value.byteLength < photoInFlight.left) {
            photoInFlight.left -= chunk.value.byteLength;
            enqueue(chunk.value);
            return;
          }
          if (!chunk.done) {
            enqueue(chunk.value.subarray(0, photoInFlight.left));
            await photoInFlight.reader?.cancel().catch(() => undefined);
          } else if (photoInFlight.left > 0) {
            enqueue(new Uint8Array(photoInFlight.left));
          }
          photoInFlight = null;
          enqueue(encoder.encode('\nendstream\nendobj\n\n'));
          return;
        }
        if (index < indirectObjects.length) {
          const [ref, object] = indirectObjects[index++];
          const photo = deferred.get(ref);
          const opening = encoder.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
          if (!photo) {
            const body = new Uint8Array(object.sizeInBytes());
            object.copyBytesInto(body, 0);
            const chunk = new Uint8Array(opening.byteLength + body.byteLength + 9);
            chunk.set(opening, 0);
            chunk.set(body, opening.byteLength);
            chunk.set(encoder.encode('\nendobj\n\n'), opening.byteLength + body.byteLength);
            enqueue(chunk);
            return;
          }
          enqueue(opening);
          enqueue(this.streamHead(object, photo.bytes));
          photoInFlight = { reader: await openEvidence(caller, photo.path), left: photo.bytes };
          return;
        }
        enqueue(copy(xref, '\n'));
        enqueue(copy(trailerDict, '\n\n'));
        enqueue(copy(fixedTrailer));
        probe.end();
        if (written !== length) console.error(JSON.stringify({ level: 'error', message: 'report length differs from its computed size', written, length }));
        controller.close();
      },
      // The client went away: let go of the photo being read.
      cancel: async () => {
        await photoInFlight?.reader?.cancel().catch(() => undefined);
      },
    }, { highWaterMark: 1 });
    return { stream, length };
  }
}
