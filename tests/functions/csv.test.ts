// CSV fields as the exports write them (supabase/functions/_shared/csv.ts): RFC 4180 quoting, the
// CSV-injection rule for text, numbers left as numbers, and the download's file name header.
import assert from 'node:assert/strict';
import { attachmentDisposition, csvBoolean, csvHeader, csvNumber, csvPlain, csvRecord, csvText } from '../../supabase/functions/_shared/csv.ts';
import { answerText } from '../../supabase/functions/_shared/schemas/answer-text.ts';

Deno.test('text that a spreadsheet would run as a formula gets a leading apostrophe', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) assert.equal(csvText(`${start}1+2`).replace(/^"|"$/g, '').startsWith(`'${start}`), true, JSON.stringify(start));
  assert.equal(csvText('=HYPERLINK("http://evil.test")'), `"'=HYPERLINK(""http://evil.test"")"`);
  assert.equal(csvText('-2+3 degrees'), "'-2+3 degrees");
  assert.equal(csvText('@SUM(A1)'), "'@SUM(A1)");
  // Anything else is left as typed, the formula characters inside it too.
  assert.equal(csvText('Café Ñandú — 東京'), 'Café Ñandú — 東京');
  assert.equal(csvText('a=b+c'), 'a=b+c');
  assert.equal(csvText(' =padded'), ' =padded');
});

Deno.test('fields with a comma, a quote or a line break are quoted, quotes doubled (RFC 4180)', () => {
  assert.equal(csvText('a,b'), '"a,b"');
  assert.equal(csvText('say "hi"'), '"say ""hi"""');
  assert.equal(csvText('line one\nline two'), '"line one\nline two"');
  assert.equal(csvText('cr\rlf'), '"cr\rlf"');
  assert.equal(csvText(null), '');
  assert.equal(csvText(''), '');
  assert.equal(csvPlain('2026-11-21T09:05:00-08:00'), '2026-11-21T09:05:00-08:00');
  assert.equal(csvRecord(['a', '"b,c"', '']), 'a,"b,c",\r\n');
  assert.equal(csvHeader(['id', 'title']), 'id,title\r\n');
});

Deno.test('numbers and booleans we compute are written as they are, negative numbers included', () => {
  assert.equal(csvNumber(-0.1246), '-0.1246');
  assert.equal(csvNumber('87.5'), '87.5');
  assert.equal(csvNumber(null), '');
  assert.equal(csvNumber(Number.NaN), '');
  assert.equal(csvBoolean(true), 'true');
  assert.equal(csvBoolean(false), 'false');
  assert.equal(csvBoolean(null), '');
});

Deno.test('the download name is plain ASCII for every client, and UTF-8 for those that read RFC 8187', () => {
  assert.equal(
    attachmentDisposition('harbor-foods-Café Ñandú — 東京-2026-11-26.pdf'),
    `attachment; filename="harbor-foods-Cafe-Nandu--2026-11-26.pdf"; filename*=UTF-8''${encodeURIComponent('harbor-foods-Café Ñandú — 東京-2026-11-26.pdf')}`,
  );
  assert.equal(attachmentDisposition('a"b\\c.csv'), `attachment; filename="abc.csv"; filename*=UTF-8''${encodeURIComponent('a"b\\c.csv')}`);
});

Deno.test('answers read as a person reads them', () => {
  assert.equal(answerText({ kind: 'pass_fail' }, 'na'), 'N/A');
  assert.equal(answerText({ kind: 'yes_no' }, 'no'), 'No');
  assert.equal(answerText({ kind: 'number', unit: '°C' }, 3.5), '3.5 °C');
  assert.equal(answerText({ kind: 'number', unit: null }, -2), '-2');
  assert.equal(answerText({ kind: 'multi_choice' }, ['Wet floor, slippery', 'Blocked exit']), 'Wet floor, slippery; Blocked exit');
  assert.equal(answerText({ kind: 'signature' }, { signer: 'Zoë', image: 'data:…' }), 'Signed by Zoë');
  assert.equal(answerText({ kind: 'photo' }, null), '');
  assert.equal(answerText({ kind: 'text' }, null), '');
  assert.equal(answerText({ kind: 'date' }, '2026-01-31'), '2026-01-31');
});
