// Literals for the statements sent without bind parameters (supabase/functions/_shared/sql-literal.ts).
// What Postgres makes of them is checked against a real server in tests/api/functions/sql-literal.test.ts.
import assert from 'node:assert/strict';
import { literal, numberLiteral } from '../../supabase/functions/_shared/sql-literal.ts';

Deno.test('a literal doubles single quotes and needs no E form without a backslash', () => {
  assert.equal(literal('plain'), "'plain'");
  assert.equal(literal(''), "''");
  assert.equal(literal("O'Brien's"), "'O''Brien''s'");
  assert.equal(literal("'); drop table x; --"), "'''); drop table x; --'");
  assert.equal(literal('Café Ñandú — 東京'), "'Café Ñandú — 東京'");
});

Deno.test('a literal with a backslash takes the E form with backslashes doubled', () => {
  assert.equal(literal('a\\b'), "E'a\\\\b'");
  assert.equal(literal("\\'"), "E'\\\\'''");
});

Deno.test('NUL cannot be in a literal', () => {
  assert.throws(() => literal('a\0b'), /NUL/);
});

Deno.test('numbers must be finite', () => {
  assert.equal(numberLiteral(60), '60');
  assert.equal(numberLiteral(0.5), '0.5');
  assert.equal(numberLiteral(-3), '-3');
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.throws(() => numberLiteral(bad), /finite/);
});
