// The inspection report PDF (docs/reports.md): a cover (organization, site with address and
// coordinates, template and version, inspectors, dates, score, status, geofence), the failed items
// with their corrective actions, then every section and item with its answer, pass / fail mark,
// note, photos and signature; page numbers and the time it was made on every page.
//
// Built with pdf-lib and Noto Sans (Latin, Greek, Cyrillic) falling back to Noto Sans SC (Chinese,
// Japanese kana) per character, both subset to the characters used (report-fonts.ts).
//
// Memory stays flat in the number of photos and bounded by the worst input (issue 24): every
// image's size is read from its header before anything decodes it. A JPEG, and a PNG without
// transparency, is not decoded at all: its bytes are fetched from Storage and written straight into
// the response when the writer reaches its object, one photo at a time. PNGs with transparency and
// signatures are decoded within a pixel budget ("Images" below). WebP and HEIC, which PDF cannot
// show, become a labelled box saying so — never left out silently. Finished pages are compressed
// as the layout leaves them.
import {
  beginText,
  degrees,
  drawImage,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  showText,
  PDFArray,
  PDFContentStream,
  type PDFDict,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRawStream,
  PDFRef,
  PDFWriter,
  rgb,
} from 'pdf-lib';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { type MemoryProbe, memoryProbe } from '../_shared/memory-probe.ts';
import { ACTION_PRIORITY_LABELS, ACTION_STATUS_LABELS, type ActionPriority, type ActionStatus } from '../_shared/schemas/action-states.ts';
import { answerText } from '../_shared/schemas/answer-text.ts';
import { type InspectionStatus, STATUS_LABELS } from '../_shared/schemas/inspection-states.ts';
import { PNG_DATA_URL_PREFIX, PNG_HEADER_BYTES, type PngHeader, pngHeaderOf, pngHeaderOfDataUrl } from '../_shared/schemas/png.ts';
import { SIGNATURE_MAX_PIXELS, type TemplateDefinition, type TemplateItem } from '../_shared/schemas/templates.ts';
import type { StorageCaller } from './evidence.ts';
import { fontkitParsingOnce, loadFonts } from './report-fonts.ts';

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
  /** The value, a signature's without its image (that is in ReportData.signatureImages). */
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
  /** The first REPORT_MAX_ACTIONS corrective actions of the inspection, oldest first. */
  actions: ReportAction[];
  /** How many corrective actions the inspection has, listed or not. */
  actionCount: number;
  /** Everyone who worked on it: who started, answered, uploaded and submitted, in that order. */
  inspectors: string[];
  /** Each shown signature's image, or why the report leaves it out, by item key. */
  signatureImages: Map<string, SignatureImage>;
  /** What is left of the report's decoded pixels once the signatures took theirs; PNG photos take from it. */
  decodeBudget: PixelBudget;
}

/** A signature's PNG to draw, or why the report leaves it out (placeholder wording). */
export type SignatureImage = { dataUrl: string } | { omitted: string };

/** An answers row as the report reads it: a signature's image left behind, its header and length read instead. */
interface AnswerRow extends ReportAnswer {
  item_key: string;
  image_head: string | null;
  image_length: number | null;
}

/**
 * Corrective actions a report lists. An inspection's submit opens one a failed item (at most 500),
 * and people may add any number more; each takes up to a few KB of text in memory and on paper.
 */
export const REPORT_MAX_ACTIONS = 1000;

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
  const [answers, photos, actions, [{ action_count }]] = await Promise.all([
    // A signature's image (up to 200 000 characters each, 500 of them) is not read here: only its
    // header, for its size, and its length. The images the report draws are read below.
    tx<AnswerRow[]>`
      select a.item_key, a.note, a.failed, a.answered_at, p.display_name as answered_by_name,
             case when jsonb_typeof(a.value -> 'image') = 'string' then a.value - 'image' else a.value end as value,
             left(a.value ->> 'image', ${PNG_DATA_URL_PREFIX.length + SIGNATURE_HEAD_CHARACTERS}) as image_head,
             length(a.value ->> 'image') as image_length
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
      limit ${REPORT_MAX_ACTIONS}
    `,
    tx<Array<{ action_count: number }>>`select count(*)::int as action_count from public.actions where inspection_id = ${inspectionId}`,
  ]);
  const names = [row.started_by_name, ...answers.map((a) => a.answered_by_name), ...photos.map((p) => p.uploaded_by_name), row.submitted_by_name];
  const hidden = new Set<string>(row.hidden_item_keys ?? []);
  const decodeBudget = new PixelBudget(REPORT_DECODE_PIXELS);
  const signatureImages = await readSignatureImages(tx, inspectionId, row.definition, hidden, answers, decodeBudget);
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
      hidden,
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
    answers: new Map(answers.map(({ item_key, value, note, failed, answered_by_name, answered_at }) => [
      item_key,
      { value, note, failed, answered_by_name, answered_at },
    ])),
    photos: [...photos],
    actions: [...actions],
    actionCount: action_count,
    inspectors: [...new Set(names.filter((name): name is string => typeof name === 'string' && name.length > 0))],
    signatureImages,
    decodeBudget,
  };
}

/**
 * The signatures the report draws, in the template's order, each read from its header before any
 * is fetched: one over SIGNATURE_MAX_PIXELS (stored before that rule) is left out, and so is any
 * beyond the report's decoded pixels or SIGNATURE_IMAGES_MAX_CHARACTERS of data URLs. Then the
 * chosen images are read, in the same transaction.
 */
async function readSignatureImages(
  tx: Tx,
  inspectionId: string,
  definition: TemplateDefinition,
  hidden: Set<string>,
  answers: AnswerRow[],
  budget: PixelBudget,
): Promise<Map<string, SignatureImage>> {
  const byKey = new Map(answers.map((answer) => [answer.item_key, answer]));
  const images = new Map<string, SignatureImage>();
  const chosen: string[] = [];
  let characters = 0;
  for (const item of definition.sections.flatMap((section) => section.items)) {
    const answer = byKey.get(item.key);
    // Hidden items are listed without their answer's image.
    if (item.kind !== 'signature' || hidden.has(item.key) || !answer?.image_head) continue;
    const header = pngHeaderOfDataUrl(answer.image_head);
    if (!header) {
      images.set(item.key, { omitted: 'The signature image could not be read.' });
      continue;
    }
    const pixels = header.width * header.height;
    if (pixels > SIGNATURE_MAX_PIXELS) {
      images.set(item.key, { omitted: `Signature image too large to include — ${megapixels(pixels)} MP (a report includes signatures of up to ${SIGNATURE_MAX_PIXELS / 1e6} MP).` });
    } else if (characters + (answer.image_length ?? 0) > SIGNATURE_IMAGES_MAX_CHARACTERS || !budget.take(pixels)) {
      images.set(item.key, { omitted: `Signature image not included: this report has reached its limit of ${REPORT_DECODE_PIXELS / 1e6} MP of signatures and transparent PNG photos.` });
    } else {
      characters += answer.image_length ?? 0;
      chosen.push(item.key);
    }
  }
  if (chosen.length > 0) {
    const rows = await tx<Array<{ item_key: string; image: string }>>`
      select item_key, value ->> 'image' as image from public.answers where inspection_id = ${inspectionId} and item_key in ${tx(chosen)}
    `;
    for (const { item_key, image } of rows) {
      // Saved again between the two reads: the size checked above is not this image's.
      const checked = byKey.get(item_key)!;
      const same = image.length === checked.image_length && image.startsWith(checked.image_head!);
      images.set(item_key, same ? { dataUrl: image } : { omitted: 'The signature changed while this report was made: download the report again.' });
    }
  }
  return images;
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

/**
 * Makes `font` encode text character by character, each character's glyph code worked out once.
 * pdf-lib encodes every string it draws by shaping it with fontkit (GSUB and GPOS lookups), which
 * was nearly all of a long report's CPU: 10 s for 50 items of 6 500 characters, a minute for 500.
 * The report measures text per character already (Flow.widthOf), so it now draws exactly what it
 * measured: each character's own glyph, without ligatures or contextual forms, none of which the
 * Latin, Greek, Cyrillic and CJK text it draws needs (pdf-lib applies no kerning either way).
 */
function encodeByCharacter(font: PDFFont): void {
  const embedder = (font as unknown as { embedder: { encodeText(text: string): PDFHexString } }).embedder;
  const shape = embedder.encodeText.bind(embedder);
  const codes = new Map<string, string>();
  embedder.encodeText = (text: string) => {
    let hex = '';
    for (const char of text) {
      let code = codes.get(char);
      // Shaping one character adds its glyph to the font's subset, as drawing it would.
      if (code === undefined) codes.set(char, (code = shape(char).asString()));
      hex += code;
    }
    return PDFHexString.of(hex);
  };
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

/**
 * Compresses what has been drawn on `page` so far into its finished bytes, now rather than when the
 * document is written. pdf-lib keeps a page's drawing as operator objects until then (~1 KB of
 * objects a line of text: a 500-item report of long answers held 150 MB of them); the finished
 * page keeps a few KB. Drawing on the page afterwards (the footer) goes into a stream of its own.
 */
function compressPage(doc: PDFDocument, page: PDFPage): void {
  const contents = page.node.Contents();
  if (!(contents instanceof PDFArray)) return;
  for (let i = 0; i < contents.size(); i++) {
    const ref = contents.get(i);
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (stream instanceof PDFContentStream) doc.context.assign(ref as PDFRef, PDFRawStream.of(stream.dict, stream.getContents()));
  }
  // The next drawing on the page starts a stream of its own. pdf-lib's resetPosition() would
  // start it now, and an empty stream on every page cost a deflate each (~70 MB of buffers for a
  // 1 500-page report) when the writer sized them: forget the page's stream instead, and pdf-lib
  // makes one when something is drawn.
  (page as unknown as { contentStream?: unknown; contentStreamRef?: unknown }).contentStream = undefined;
  (page as unknown as { contentStream?: unknown; contentStreamRef?: unknown }).contentStreamRef = undefined;
}

/**
 * Resource names of the images on a page, Im0, Im1 …: the same on every page, so that pdf-lib's
 * table of every name it made (PDFName.of keeps them all, for the life of the function instance)
 * stays a few entries long, where pdf-lib's own names are random.
 */
const IMAGE_NAMES: PDFName[] = [];

/** A page cursor that flows text and boxes down A4 pages, starting new ones as needed. */
class Flow {
  readonly doc: PDFDocument;
  readonly fonts: Fonts;
  private readonly fontNames = new Map<PDFFont, PDFName>();
  private readonly fontsOnPage = new WeakMap<PDFPage, Set<PDFFont>>();
  page!: PDFPage;
  y = 0;

  constructor(doc: PDFDocument, fonts: Fonts, readonly probe: MemoryProbe) {
    this.doc = doc;
    this.fonts = fonts;
    this.newPage();
  }

  newPage(): void {
    this.probe.sample('page');
    if (this.page) compressPage(this.doc, this.page);
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

  /**
   * Draws one line at (x, y) without moving the cursor; returns its width. One text object whose
   * runs follow each other (each Tj moves on by its glyphs' widths, the ones measured here), rather
   * than pdf-lib's drawText per run: that registers the font under a new random name on every call
   * (the page's font names grow by one a run, each search for a free name reads them all, and
   * pdf-lib keeps every name it ever made), which made a page of alternating Latin and CJK
   * characters quadratic and a 500-item report of them take 1.5 GB and 11 minutes.
   */
  line(text: string, x: number, y: number, size: number, bold: boolean, color = INK): number {
    const operators = [pushGraphicsState(), setFillingColor(color), beginText(), moveText(x, y)];
    let width = 0;
    for (const run of this.runs(text, bold)) {
      operators.push(setFontAndSize(this.fontName(run.font), size), showText(run.font.encodeText(run.text)));
      width += this.widthOf(run.text, size, bold);
    }
    operators.push(endText(), popGraphicsState());
    this.page.pushOperators(...operators);
    return width;
  }

  /** The page's resource name of `font` (F0, F1, F2, the same on every page), registered on its first use there. */
  private fontName(font: PDFFont): PDFName {
    let name = this.fontNames.get(font);
    if (!name) this.fontNames.set(font, (name = PDFName.of(`F${this.fontNames.size}`)));
    let registered = this.fontsOnPage.get(this.page);
    if (!registered) this.fontsOnPage.set(this.page, (registered = new Set()));
    if (!registered.has(font)) {
      this.page.node.normalizedEntries().Font.set(name, font.ref);
      registered.add(font);
    }
    return name;
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

// --- Images --------------------------------------------------------------------------------------
//
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
/** Base64 characters of a data URL that hold a PNG's header. */
const SIGNATURE_HEAD_CHARACTERS = (PNG_HEADER_BYTES / 3) * 4;
/** First bytes of a JPEG read for its frame header; if that lies further, the rest is walked as it streams. */
const JPEG_HEADER_BYTES = 256 * 1024;
const PHOTO_BOX = { width: (CONTENT_WIDTH - 12) / 2, height: 190 };

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

function megapixels(pixels: number): string {
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
async function openEvidence(caller: StorageCaller, path: string): Promise<ByteReader | null> {
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

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u32 = (bytes: Uint8Array, at: number) => ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

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
    if (!length || u16(length, 0) < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      // Precision, height, width, components.
      const frame = await bytes.read(6);
      return frame ? { height: u16(frame, 1), width: u16(frame, 3), components: frame[5] } : null;
    }
    if (!(await bytes.skip(u16(length, 0) - 2))) return null;
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
    const length = u32(chunk, 0);
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
    const length = u32(chunk, 0);
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
interface DeferredImage {
  path: string;
  bytes: number;
  data: 'file' | 'png-image-data';
}

/** Draws the image XObject `ref` fitted into a box at the cursor's left + `x`. */
function placeImage(flow: Flow, ref: PDFRef, x: number, top: number, width: number, height: number, boxWidth: number, boxHeight: number) {
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
async function embedDecodedPng(doc: PDFDocument, png: Uint8Array | string, probe: MemoryProbe): Promise<{ ref: PDFRef; width: number; height: number }> {
  const image = await doc.embedPng(png);
  // Decoded: its pixels (RGB and alpha) are held now.
  probe.sample('image decoded', true);
  await image.embed();
  return { ref: image.ref, width: image.width, height: image.height };
}

const keptInFieldcheck = (size: string) => `The photo (${size}) is kept in Fieldcheck: open the inspection there to see it.`;

/** What preparing a photo needs: the document, Storage as the caller, the deferred images so far, the pixels left to decode. */
interface Photos {
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

async function preparePhoto(photos: Photos, photo: ReportPhoto): Promise<PhotoSlot> {
  if (photo.content_type === 'image/jpeg') return await prepareJpeg(photos, photo);
  if (photo.content_type === 'image/png') return await preparePng(photos, photo);
  // WebP and HEIC: PDF has no filter for them and pdf-lib no decoder.
  const kind = photo.content_type === 'image/webp' ? 'WebP' : photo.content_type.replace('image/', '').toUpperCase();
  return { reason: [`${kind} photo not shown`, `PDF cannot show ${kind} images. ${keptInFieldcheck(fileSize(photo.byte_size))}`] };
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
  doc.registerFontkit(fontkitParsingOnce);
  const [regular, bold, cjk] = await Promise.all([
    doc.embedFont(files.regular, { subset: true }),
    doc.embedFont(files.bold, { subset: true }),
    doc.embedFont(files.cjk, { subset: true }),
  ]);
  for (const font of [regular, bold, cjk]) encodeByCharacter(font);
  const fonts: Fonts = { regular, bold, cjk, latin: coverageOf('NotoSans', regular), han: coverageOf('NotoSansSC', cjk) };
  const { inspection, site, template, organization } = report;
  const zone = site.timezone;
  doc.setTitle(`${inspection.title} — inspection report`);
  doc.setAuthor(organization.name);
  doc.setCreator('Fieldcheck');
  doc.setProducer('Fieldcheck (pdf-lib)');
  doc.setCreationDate(new Date(report.generatedAt));

  const probe = memoryProbe('report.pdf');
  const flow = new Flow(doc, fonts, probe);

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
  const allActionsListed = report.actions.length === report.actionCount;
  if (!allActionsListed) {
    flow.text(
      `This inspection has ${report.actionCount} corrective actions; the first ${report.actions.length} are listed here. ` +
        'Open the inspection in Fieldcheck to see them all.',
      { size: 9.5, color: MUTED, after: 6 },
    );
  }
  const actionsByItem = new Map<string, ReportAction[]>();
  for (const action of report.actions) {
    if (action.item_key) actionsByItem.set(action.item_key, [...(actionsByItem.get(action.item_key) ?? []), action]);
  }
  for (const { section, item } of failed) {
    const answer = report.answers.get(item.key)!;
    flow.room(48);
    flow.text(`${item.label}`, { bold: true, size: 10.5, after: 1 });
    flow.text(`${section.title} · Answer: ${answerText(item, answer.value) || '—'}`, { color: MUTED, size: 9.5, after: 1 });
    if (answer.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
    const actions = actionsByItem.get(item.key) ?? [];
    if (actions.length === 0) {
      flow.text(allActionsListed ? 'No corrective action recorded.' : 'No corrective action among those listed.', { size: 9.5, color: FAIL, indent: 12, after: 2 });
    }
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
  const failedKeys = new Set(failed.map(({ item }) => item.key));
  const otherActions = report.actions.filter((action) => !action.item_key || !failedKeys.has(action.item_key));
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
  const photos: Photos = { doc, caller, deferred: new Map(), budget: report.decodeBudget, probe };
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
    for (const item of section.items) await drawItem(flow, item, report, photosByItem.get(item.key) ?? [], photos, zone);
    probe.sample('section');
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
    compressPage(doc, page);
  }

  await doc.flush();
  probe.sample('laid out', true);
  return StreamingWriter.stream(doc, photos.deferred, caller, probe);
}

async function drawItem(
  flow: Flow,
  item: TemplateItem,
  report: ReportData,
  itemPhotos: ReportPhoto[],
  photos: Photos,
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
    flow.text(itemPhotos.length === 0 ? 'No photo' : `${itemPhotos.length} ${itemPhotos.length === 1 ? 'photo' : 'photos'}`, {
      size: 10,
      color: itemPhotos.length ? INK : MUTED,
    });
  } else if (item.kind === 'signature') {
    flow.text(hasValue ? answerText(item, value) : 'Not signed', { size: 10, color: hasValue ? INK : MUTED });
  } else {
    flow.text(hasValue ? answerText(item, value) : 'Not answered', { size: 10, color: hasValue ? (answer?.failed ? FAIL : INK) : MUTED });
  }
  if (answer?.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
  if (answer && (hasValue || answer.note)) {
    flow.text(`${answer.answered_by_name ? `${answer.answered_by_name}, ` : ''}${siteTime(answer.answered_at, zone)}`, { size: 8.5, color: MUTED });
  }

  const signature = item.kind === 'signature' && hasValue ? report.signatureImages.get(item.key) : undefined;
  if (signature && 'omitted' in signature) flow.text(signature.omitted, { size: 9, color: MUTED });
  if (signature && 'dataUrl' in signature) {
    try {
      const png = await embedDecodedPng(flow.doc, signature.dataUrl, flow.probe);
      flow.probe.sample('signature embedded', true);
      flow.room(90);
      placeImage(flow, png.ref, MARGIN.left, flow.y - 4, png.width, png.height, 220, 80);
      flow.page.drawRectangle({ x: MARGIN.left, y: flow.y - 84, width: 220, height: 80, borderColor: RULE, borderWidth: 0.8 });
      flow.y -= 90;
    } catch {
      flow.text('The signature image could not be decoded.', { size: 9, color: FAIL });
    }
  }

  for (let i = 0; i < itemPhotos.length; i += 2) {
    flow.room(PHOTO_BOX.height + 26);
    const top = flow.y - 4;
    for (const [column, photo] of itemPhotos.slice(i, i + 2).entries()) {
      const x = MARGIN.left + column * (PHOTO_BOX.width + 12);
      const slot = await preparePhoto(photos, photo);
      flow.probe.sample('photo');
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
 * the deferred images' bytes as it reaches them (read from Storage then, one at a time). The
 * offsets come from pdf-lib's own size computation, with each deferred image counted at its
 * known size, so the length is known before the first byte.
 */
class StreamingWriter extends PDFWriter {
  static async stream(
    doc: PDFDocument,
    deferred: Map<PDFRef, DeferredImage>,
    caller: StorageCaller,
    probe: MemoryProbe,
  ): Promise<{ stream: ReadableStream<Uint8Array>; length: number }> {
    const writer = new StreamingWriter(doc.context, 50);
    return await writer.serialize(deferred, caller, probe);
  }

  private constructor(context: PDFDocument['context'], objectsPerTick: number) {
    super(context, objectsPerTick);
  }

  /** "<dict>\nstream\n" of a stream whose contents are written apart (a deferred image's, a raw stream's), its Length set to their size. */
  private streamHead(object: PDFObject, bytes: number): Uint8Array {
    const dict = (object as PDFRawStream).dict as PDFDict;
    dict.set(PDFName.of('Length'), PDFNumber.of(bytes));
    const head = new Uint8Array(dict.sizeInBytes() + 8);
    const n = dict.copyBytesInto(head, 0);
    head.set(encoder.encode('\nstream\n'), n);
    return head;
  }

  private async serialize(deferred: Map<PDFRef, DeferredImage>, caller: StorageCaller, probe: MemoryProbe) {
    const { header, indirectObjects, xref, trailerDict, trailer } = await this.computeBufferSize();
    // PDFWriter always makes both (only its object-stream subclass leaves them out).
    if (!xref || !trailerDict) throw new Error('pdf-lib made no cross-reference table');
    // computeBufferSize counted each deferred image with no contents: recompute the offsets with them.
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
    let photoInFlight: { reader: ByteReader | null; chunks: AsyncIterator<Uint8Array> | null; left: number } | null = null;
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const enqueue = (chunk: Uint8Array) => {
          written += chunk.byteLength;
          controller.enqueue(chunk);
        };
        probe.sample('writing');
        if (index === -1) {
          enqueue(copy(header, '\n\n'));
          index = 0;
          return;
        }
        if (photoInFlight) {
          // An image's bytes pass from Storage's answer to ours a chunk at a time, exactly the
          // number counted, so every offset after it holds even if Storage answered otherwise (a
          // missing object shows as an empty image, never a broken file).
          const chunk = photoInFlight.chunks ? await photoInFlight.chunks.next() : { done: true as const, value: undefined };
          if (!chunk.done && chunk.value.byteLength < photoInFlight.left) {
            photoInFlight.left -= chunk.value.byteLength;
            enqueue(chunk.value);
            return;
          }
          if (!chunk.done) {
            enqueue(chunk.value.subarray(0, photoInFlight.left));
            await photoInFlight.reader?.cancel();
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
          if (!photo && object instanceof PDFRawStream) {
            // A stream's bytes as the document holds them, not copied: a decoded image is megabytes,
            // and a copy would be held again until the client has it.
            const contents = object.getContents();
            enqueue(opening);
            enqueue(this.streamHead(object, contents.byteLength));
            enqueue(contents);
            enqueue(encoder.encode('\nendstream\nendobj\n\n'));
            return;
          }
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
          const reader = await openEvidence(caller, photo.path);
          const chunks = reader && (photo.data === 'file' ? reader.rest() : pngImageData(reader));
          photoInFlight = { reader, chunks: chunks ? chunks[Symbol.asyncIterator]() : null, left: photo.bytes };
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
        await photoInFlight?.reader?.cancel();
      },
    }, { highWaterMark: 1 });
    return { stream, length };
  }
}
