// Keyset cursors: what a page hands out comes back as the same sort key, and anything a client
// made up or damaged is a validation error rather than a database error.
import assert from 'node:assert/strict';
import { ApiError } from '../../supabase/functions/_shared/errors.ts';
import { decodeCursor, encodeCursor, pageOf } from '../../supabase/functions/_shared/pagination.ts';

Deno.test('a cursor round-trips its sort key, including non-ASCII names and nulls', () => {
  const key = ['Café Ærø – Łódź', null, 12.5, '0d000000-0000-4000-8000-000000000001'];
  assert.deepEqual(decodeCursor(encodeCursor(key), ['string', 'null', 'number', 'string']), key);
});

Deno.test('no cursor means the first page', () => {
  assert.equal(decodeCursor(undefined, ['string']), null);
});

for (
  const [label, cursor] of [
    ['not base64', '***'],
    ['not JSON', btoa('nope')],
    ['not an array', encodeCursor({ a: 1 } as unknown as unknown[])],
    ['wrong length', encodeCursor(['a'])],
    ['wrong types', encodeCursor([1, 'b'])],
  ]
) {
  Deno.test(`a cursor that is ${label} is a validation error on query.cursor`, () => {
    assert.throws(
      () => decodeCursor(cursor, ['string', 'string']),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'validation_failed' && error.errors?.[0].field === 'query.cursor',
    );
  });
}

Deno.test('pageOf returns limit rows and a cursor only when there is more', () => {
  const rows = [{ n: 'a' }, { n: 'b' }, { n: 'c' }];
  const full = pageOf(rows, 2, (r) => r.n, (r) => [r.n]);
  assert.deepEqual(full.data, ['a', 'b']);
  assert.deepEqual(decodeCursor(full.next_cursor!, ['string']), ['b']);
  const last = pageOf(rows, 3, (r) => r.n, (r) => [r.n]);
  assert.deepEqual(last.data, ['a', 'b', 'c']);
  assert.equal(last.next_cursor, null);
});
