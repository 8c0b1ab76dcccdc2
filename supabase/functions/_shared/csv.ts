// CSV as RFC 4180 writes it (comma-separated, CRLF line ends, fields with a comma, quote or line
// break in double quotes, quotes doubled), with text neutralized against CSV injection: a
// spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula
// (OWASP "CSV Injection"), so such text gets a leading apostrophe, which spreadsheets show as text
// and do not run. Numbers, booleans and timestamps we write ourselves are not text and are left as
// they are: -0.1246 is a longitude, not a formula (docs/reports.md).

/** What a spreadsheet would run as a formula when it starts a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What makes RFC 4180 quote a field. */
const NEEDS_QUOTES = /[",\r\n]/;

/** The UTF-8 byte order mark: Excel reads a CSV as UTF-8 only when the file starts with it. */
export const UTF8_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';

/** Free text (names, answers, notes) as one CSV field: neutralized, then quoted when needed. */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
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
