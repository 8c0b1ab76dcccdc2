// The PDF report's fonts (supabase/functions/api/report-fonts.ts): the files are the npm packages'
// own, and padded for @pdf-lib/fontkit's subsetter a subset keeps every glyph it was asked for.
// Unpadded, Noto Sans's subset loses most letters (the reason for the padding), so the check
// below would fail without it. Each font is parsed once an instance and shared by every report.
import assert from 'node:assert/strict';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { FONT_FILE_NAMES, fontkitParsingOnce, loadFonts, padGlyphs } from '../../supabase/functions/api/report-fonts.ts';

const fontsDir = new URL('../../supabase/functions/api/fonts/', import.meta.url);
const read = (name: string) => Deno.readFile(new URL(name, fontsDir));

/** The glyphs of the font program embedded in a one-line PDF of `text`, parsed back with fontkit. */
async function subsetGlyphs(font: Uint8Array, text: string, kit: Parameters<PDFDocument['registerFontkit']>[0] = fontkit) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(kit);
  const embedded = await doc.embedFont(font, { subset: true });
  doc.addPage([400, 100]).drawText(text, { x: 10, y: 50, size: 12, font: embedded });
  const saved = await PDFDocument.load(await doc.save({ useObjectStreams: false }));
  const descriptor = saved.context.enumerateIndirectObjects()
    .map(([, object]) => object)
    .find((object) => object instanceof PDFDict && object.has(PDFName.of('FontFile2'))) as PDFDict;
  const program = saved.context.lookup(descriptor.get(PDFName.of('FontFile2'))) as PDFRawStream;
  const { inflate } = await import('node:zlib').then((zlib) => ({ inflate: zlib.inflateSync }));
  const subset = fontkit.create(inflate(program.getContents()));
  return Array.from({ length: subset.numGlyphs }, (_, id) => subset.getGlyph(id));
}

/** Glyphs besides .notdef with no outline, or none that can be read: letters a reader would not see (the texts have no spaces). */
const blank = (glyphs: Awaited<ReturnType<typeof subsetGlyphs>>) =>
  glyphs.slice(1).filter((glyph) => {
    try {
      return glyph.path.toSVG() === '';
    } catch {
      return true;
    }
  }).map((glyph) => glyph.id);

Deno.test('the bundled fonts are the pinned npm packages\' files, byte for byte', async () => {
  const packages: Record<string, string> = {
    [FONT_FILE_NAMES.regular]: '@expo-google-fonts/noto-sans/400Regular/',
    [FONT_FILE_NAMES.bold]: '@expo-google-fonts/noto-sans/700Bold/',
    [FONT_FILE_NAMES.cjk]: '@expo-google-fonts/noto-sans-sc/400Regular/',
  };
  for (const [name, folder] of Object.entries(packages)) {
    const fromPackage = await Deno.readFile(new URL(`../../node_modules/${folder}${name}`, import.meta.url));
    assert.deepEqual(await read(name), fromPackage, name);
  }
});

Deno.test('padding keeps every glyph and makes every glyph a whole number of words', async () => {
  const original = await read(FONT_FILE_NAMES.regular);
  const padded = padGlyphs(original);
  const a = fontkit.create(original as never);
  const b = fontkit.create(padded as never);
  assert.equal(b.numGlyphs, a.numGlyphs);
  for (const code of [...'Café Ñandú — Łódź Ωμέγα Жук 0123456789'].map((c) => c.codePointAt(0)!)) {
    assert.equal(b.glyphForCodePoint(code).path.toSVG(), a.glyphForCodePoint(code).path.toSVG(), String.fromCodePoint(code));
  }
});

Deno.test('a subset of the padded fonts keeps every letter it draws; unpadded it loses some', async () => {
  const text = 'InspectionreportOrgaoy7wjCaféÑandú—ŁukaszZoë';
  const fonts = await loadFonts();
  assert.deepEqual(blank(await subsetGlyphs(fonts.regular, text)), []);
  assert.deepEqual(blank(await subsetGlyphs(fonts.bold, text)), []);
  assert.deepEqual(blank(await subsetGlyphs(fonts.cjk, '東京厨房山田太郎油Café')), []);
  assert.ok(blank(await subsetGlyphs(await read(FONT_FILE_NAMES.regular), text)).length > 0, 'the unpadded font no longer breaks: padding may be unneeded');
});

Deno.test('each font is parsed once an instance, and one parse serves several documents whole', async () => {
  const fonts = await loadFonts();
  assert.equal(fontkitParsingOnce.create(fonts.cjk), fontkitParsingOnce.create(fonts.cjk));
  assert.notEqual(fontkitParsingOnce.create(fonts.regular), fontkitParsingOnce.create(fonts.cjk));
  // Two documents at once from the same parsed font: each subset has its own letters, all drawn.
  const [first, second] = await Promise.all([
    subsetGlyphs(fonts.cjk, '東京厨房', fontkitParsingOnce),
    subsetGlyphs(fonts.cjk, '山田太郎油Café', fontkitParsingOnce),
  ]);
  assert.equal(first.length, 1 + 4);
  assert.equal(second.length, 1 + 9);
  assert.deepEqual(blank(first), []);
  assert.deepEqual(blank(second), []);
});
