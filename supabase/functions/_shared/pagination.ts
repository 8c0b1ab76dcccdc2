// Opaque cursors for keyset pagination (docs/product.md §7). A cursor is the sort key of the last row
// of a page, so a page never repeats or skips rows that existed when the first page was read,
// whatever is inserted meanwhile. Clients must not build cursors; a tampered one is a 422.
import { base64UrlDecode, base64UrlEncode } from './encoding.ts';
import { ApiError } from './errors.ts';

export function encodeCursor(key: unknown[]): string {
  return base64UrlEncode(new TextEncoder().encode(JSON.stringify(key)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Timestamps travel with microseconds (Postgres's precision) so no row of the same millisecond is skipped.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}Z$/;

/** What a part of a sort key may be: `string`, `number`, `null`, `uuid`, `timestamp`. */
function matches(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
    case 'string':
      return typeof value === 'string' && !value.includes('\u0000');
    default:
      return false;
  }
}

/**
 * The sort key in `cursor`, checked against the types the list expects (`['string', 'uuid']`,
 * `['number|null', 'uuid']`): a forged cursor is a 422 on `query.cursor`, never a database error.
 */
export function decodeCursor(cursor: string | undefined, types: string[]): unknown[] | null {
  if (cursor === undefined) return null;
  const invalid = () => ApiError.validation([{ field: 'query.cursor', message: 'This cursor is not valid. Start again from the first page.' }]);
  let key: unknown;
  try {
    key = JSON.parse(new TextDecoder().decode(base64UrlDecode(cursor)));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(key) || key.length !== types.length) throw invalid();
  key.forEach((value, i) => {
    if (!types[i].split('|').some((type) => matches(value, type))) throw invalid();
  });
  return key;
}

/** Fetch `limit + 1` rows; this splits off the extra one into the next cursor. */
export function pageOf<Row, Item>(rows: Row[], limit: number, item: (row: Row) => Item, keyOf: (row: Row) => unknown[]) {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: pageRows.map(item),
    next_cursor: hasMore ? encodeCursor(keyOf(pageRows[pageRows.length - 1])) : null,
  };
}
