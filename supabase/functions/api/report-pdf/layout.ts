// The report's layout (docs/reports.md): A4 pages, the fonts chosen per character (Noto Sans for
// Latin, Greek and Cyrillic, Noto Sans SC for CJK; report-fonts.ts), and Flow, which wraps text,
// breaks pages and compresses each finished page as it leaves it.
import {
  beginText,
  endText,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  showText,
  PDFArray,
  PDFContentStream,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  type PDFPage,
  PDFRawStream,
  PDFRef,
  rgb,
} from 'pdf-lib';
import type { MemoryProbe } from '../../_shared/memory-probe.ts';

// The code points each font covers, computed once per instance (the CJK font has ~30 000).
const coverage = new Map<string, Set<number>>();
export function coverageOf(name: string, font: PDFFont): Set<number> {
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
export function encodeByCharacter(font: PDFFont): void {
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

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  cjk: PDFFont;
  latin: Set<number>;
  han: Set<number>;
}

// --- Layout ----------------------------------------------------------------------------------

export const PAGE = { width: 595.28, height: 841.89 }; // A4
export const MARGIN = { left: 50, right: 50, top: 56, bottom: 64 };
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
export const INK = rgb(0.12, 0.14, 0.17);
export const MUTED = rgb(0.4, 0.43, 0.47);
export const RULE = rgb(0.85, 0.87, 0.9);
export const PASS = rgb(0.08, 0.5, 0.24);
export const FAIL = rgb(0.75, 0.1, 0.1);
export const PLACEHOLDER_FILL = rgb(0.95, 0.95, 0.96);

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
export function compressPage(doc: PDFDocument, page: PDFPage): void {
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
export const IMAGE_NAMES: PDFName[] = [];

/** A page cursor that flows text and boxes down A4 pages, starting new ones as needed. */
export class Flow {
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
