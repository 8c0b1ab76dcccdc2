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
  assert.equal(csvText('Temp -2 at night'), 'Temp -2 at night');
});

/**
 * How a spreadsheet that splits on `separator` reads one record we wrote with commas: Excel in a
 * locale whose list separator is `;` (German, French, …) opens a .csv that way, honours a double
 * quote only where it opens a field (after one of ITS separators), and a line break outside such
 * quotes ends the row. Every cell it would make, with its quotes removed as it removes them.
 */
function cellsAsSplitBy(record: string, separator: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= record.length) {
    let cell = '';
    if (record[i] === '"') {
      for (i++; i < record.length; i++) {
        if (record[i] === '"' && record[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (record[i] === '"') break;
        else cell += record[i];
      }
      i++;
    }
    for (; i < record.length && record[i] !== separator && record[i] !== '\r' && record[i] !== '\n'; i++) cell += record[i];
    cells.push(cell);
    i++;
  }
  return cells;
}

/** What a spreadsheet would run: a cell whose first character after blanks and quotes starts a formula. */
const runsAsFormula = (cell: string) => /^[\s"]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell);

Deno.test('a formula after a semicolon, tab or line break is neutralized too: no separator a spreadsheet splits on starts a formula', () => {
  // The review's case (issue 24, finding 7): written unquoted and unprefixed before.
  assert.equal(csvText("Site;=cmd|' /C calc'!A0;"), `"Site;'=cmd|' /C calc'!A0;"`);
  assert.equal(csvText('a;b'), '"a;b"');
  assert.equal(csvText('a\tb'), '"a\tb"');
  assert.equal(csvText('Wet floor; -2 points'), `"Wet floor; '-2 points"`);
  assert.equal(csvText('x,+1'), `"x,'+1"`);
  assert.equal(csvText('x;"=1+1"'), `"x;""'=1+1"""`);
  assert.equal(csvText('one\n@two'), `"one\n'@two"`);
  assert.equal(csvText(' =padded'), " '=padded");
  // Full-width forms, which Excel's East Asian editions also take as formula starts.
  assert.equal(csvText('\uFF1D1+2'), "'\uFF1D1+2");
  assert.equal(csvText('a;\uFF20SUM(A1)'), `"a;'\uFF20SUM(A1)"`);

  const hostile = [
    "Site;=cmd|' /C calc'!A0;", '=1+2', 'a; =1', 'a;\t=1', 'a,"=1"', 'a;"=HYPERLINK(""x"")', 'a\r\n=1', 'a\n-1', 'a;;+1',
    'a|=1;@b', '";=1', '\t\t', 'x;\uFF0B1', 'x,\uFF0D1', ';', ',', '"', '=', 'plain',
  ];
  for (const text of hostile) {
    const record = csvRecord(['0b7e6b1e-0000-4000-8000-000000000001', csvText(text), csvNumber(-3), csvText(text)]);
    for (const separator of [',', ';', '\t']) {
      for (const cell of cellsAsSplitBy(record.slice(0, -2), separator)) {
        assert.equal(runsAsFormula(cell) && cell !== '-3', false, `${JSON.stringify(text)} split by ${JSON.stringify(separator)}: ${JSON.stringify(cell)}`);
      }
    }
  }
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
  // The guard is per column type: a number column never gets the apostrophe, a text cell does.
  assert.equal(csvNumber(-0.1246), '-0.1246');
  assert.equal(csvNumber(-19), '-19');
  assert.equal(csvText('-19 °C'), "'-19 °C");
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
