// CSV as RFC 4180 writes it (comma-separated, CRLF line ends, quoted fields with their quotes
// doubled), with text neutralized against CSV injection (OWASP "CSV Injection"): a spreadsheet
// runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula, so such text
// gets an apostrophe in front, which spreadsheets show as text and do not run.
//
// A cell does not only start where the text starts. Excel in a locale whose list separator is `;`
// (German, French, Dutch, …) opens a .csv splitting on `;`, and honours a double quote only where
// it opens one of ITS fields; a line break outside such quotes ends its row. So `Site;=cmd|…` in
// a comma file is a formula there (issue 24, finding 7). Text that holds a separator is therefore
// always quoted, and a formula start after any separator a spreadsheet splits on (comma,
// semicolon, tab) or after a line break gets the apostrophe too, right after that separator.
//
// The guard is per column type: numbers, booleans and timestamps we write ourselves are not text
// and are left as they are: -0.1246 is a longitude, not a formula (docs/reports.md).

/**
 * Each place a cell may start inside the text (its start, and right after a separator or a line
 * break: group 1), then any blanks and double quotes (group 2), ahead of a character a spreadsheet
 * runs as a formula: the ones OWASP lists, and their full-width forms, which Excel's East Asian
 * editions take as the same. The blanks count because LibreOffice can trim them on import, the
 * quotes because a quoted field's formula runs too. Tab and CR are not blanks here: they are
 * formula starts (and separators) themselves.
 */
const CELL_STARTING_A_FORMULA = /(^|[,;\t\r\n])((?:[^\S\t\r\n]|")*)(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;
/** What gets a field quoted: RFC 4180's comma, quote and line breaks, and the other separators. */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** The UTF-8 byte order mark: Excel reads a CSV as UTF-8 only when the file starts with it. */
export const UTF8_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

/** Free text (names, answers, notes) as one CSV field: neutralized, then quoted when needed. */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = value.replace(CELL_STARTING_A_FORMULA, "$1$2'");
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A number we computed (a score, a distance): as it is; empty when unknown. */
export function csvNumber(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? String(n) : '';
}

/** true / false; empty when unknown. */
export function csvBoolean(value: boolean | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * A value of our own making that is never text a person typed (an id, a status, a timestamp in ISO
 * 8601): written as it is, quoted only if it ever needed quotes.
 */
export function csvPlain(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Fields already made with the functions above, as one record with its line end. */
export function csvRecord(fields: string[]): string {
  return fields.join(',') + CSV_LINE_END;
}

/** The header record of `columns`. */
export function csvHeader(columns: readonly string[]): string {
  return csvRecord(columns.map((column) => csvPlain(column)));
}

/**
 * `Content-Disposition` for a download: an ASCII file name for every client, and the same name
 * in UTF-8 (RFC 6266 / 8187) for those that read it.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '').replace(/\s+/g, '-') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
