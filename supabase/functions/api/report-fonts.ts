// The PDF report's fonts (docs/reports.md, "Fonts"): Noto Sans regular and bold (Latin, Greek,
// Cyrillic) and Noto Sans SC regular (Chinese, Japanese kana), the unchanged files of the npm
// packages @expo-google-fonts/noto-sans and @expo-google-fonts/noto-sans-sc, kept beside this
// module and bundled with the function as static files (supabase/config.toml).
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument } from 'pdf-lib';

/** Glyph data of a TrueType font, each glyph padded to a whole number of 4-byte words. */
export function padGlyphs(font: Uint8Array): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tableCount = view.getUint16(4);
  const tables = new Map<string, { record: number; offset: number; length: number }>();
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + 16 * i;
    const tag = String.fromCharCode(...font.subarray(record, record + 4));
    tables.set(tag, { record, offset: view.getUint32(record + 8), length: view.getUint32(record + 12) });
  }
  const head = tables.get('head');
  const maxp = tables.get('maxp');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  if (!head || !maxp || !loca || !glyf) return font; // Not a glyf-outline TrueType font: nothing to pad.
  const longOffsets = view.getInt16(head.offset + 50) === 1;
  const glyphCount = view.getUint16(maxp.offset + 4);
  const offsetOf = (i: number) => (longOffsets ? view.getUint32(loca.offset + 4 * i) : view.getUint16(loca.offset + 2 * i) * 2);

  // The new glyf and loca (long offsets) go at the end of the file; the old ones stay, unused.
  const starts: number[] = [];
  let size = 0;
  for (let i = 0; i < glyphCount; i++) {
    starts.push(size);
    size += Math.ceil((offsetOf(i + 1) - offsetOf(i)) / 4) * 4;
  }
  starts.push(size);
  const glyfAt = Math.ceil(font.byteLength / 4) * 4;
  const locaAt = glyfAt + size;
  const out = new Uint8Array(locaAt + 4 * (glyphCount + 1));
  out.set(font);
  for (let i = 0; i < glyphCount; i++) out.set(font.subarray(glyf.offset + offsetOf(i), glyf.offset + offsetOf(i + 1)), glyfAt + starts[i]);
  const outView = new DataView(out.buffer);
  for (let i = 0; i <= glyphCount; i++) outView.setUint32(locaAt + 4 * i, starts[i]);
  outView.setUint32(glyf.record + 8, glyfAt);
  outView.setUint32(glyf.record + 12, size);
  outView.setUint32(loca.record + 8, locaAt);
  outView.setUint32(loca.record + 12, 4 * (glyphCount + 1));
  outView.setInt16(head.offset + 50, 1);
  return out;
}

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
  cjk: Uint8Array;
}

export const FONT_FILE_NAMES = { regular: 'NotoSans_400Regular.ttf', bold: 'NotoSans_700Bold.ttf', cjk: 'NotoSansSC_400Regular.ttf' } as const;

let loading: Promise<FontFiles> | undefined;

/**
 * The three fonts, read once per function instance (~12 MB) and padded for the subsetter:
 * @pdf-lib/fontkit (a fork of fontkit 1) writes a subset's glyph offsets in the short format,
 * which can only point at even positions, without padding the glyphs; Google's Noto builds have
 * thousands of odd-length glyphs, so a subset lost most of its letters. Padded to whole words
 * first, every subset offset is even (tests/functions/report-fonts.test.ts).
 */
export function loadFonts(): Promise<FontFiles> {
  loading ??= (async () => {
    const read = (name: string) => Deno.readFile(new URL(`./fonts/${name}`, import.meta.url)).then(padGlyphs);
    const [regular, bold, cjk] = await Promise.all([read(FONT_FILE_NAMES.regular), read(FONT_FILE_NAMES.bold), read(FONT_FILE_NAMES.cjk)]);
    return { regular, bold, cjk };
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type FontkitFont = ReturnType<Fontkit['create']>;
const parsedFonts = new WeakMap<Uint8Array, FontkitFont>();

/**
 * fontkit, parsing each font once per function instance, in place. fontkit.create copies a font's
 * bytes into a buffer of its own before parsing them (Buffer.from of a typed array), for every
 * document that embeds the font: 21 MB a report for the three fonts, held until it is written
 * (issue 24). Given the array's ArrayBuffer instead, Buffer.from makes a view of it, no copy. pdf-lib
 * only reads a parsed font (each document makes a subset of its own), so one parse serves every
 * report; the fonts of loadFonts() are the same arrays for the life of the instance.
 */
export const fontkitParsingOnce: Fontkit = {
  create(fontData: Uint8Array, postscriptName?: string) {
    let font = parsedFonts.get(fontData);
    if (!font) {
      const whole = fontData.byteOffset === 0 && fontData.byteLength === fontData.buffer.byteLength;
      font = fontkit.create((whole ? fontData.buffer : fontData) as Uint8Array, postscriptName);
      parsedFonts.set(fontData, font);
    }
    return font;
  },
};
