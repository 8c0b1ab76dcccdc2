// Literals for the statements sent without bind parameters (supabase/functions/_shared/sql-literal.ts).
// What Postgres makes of them is checked against a real server in tests/api/shared/sql-literal.test.ts.
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

Deno.test('inline writes each value as a literal and nests fragments as they are', async () => {
  const { inline, InlineSql } = await import('../../supabase/functions/_shared/sql-literal.ts');
  const status = inline`status in ${['scheduled', "it's"]}`;
  const statement = inline`select * from t where id = ${"a'b"} and ${status} and n = ${-2} and m = ${3} and b = ${true} and x is ${null} and at = ${new Date('2026-01-02T03:04:05.678Z')}`;
  assert.ok(statement instanceof InlineSql);
  assert.equal(statement.text,
    "select * from t where id = 'a''b' and status in ('scheduled', 'it''s') and n = (-2) and m = 3 and b = true and x is null and at = '2026-01-02T03:04:05.678Z'");
  // A negative number after a minus sign does not become a comment.
  assert.equal(inline`select 1 -${-1}`.text, 'select 1 -(-1)');
  assert.throws(() => inline`in ${[]}`, /empty list/);
  assert.throws(() => inline`x = ${{ a: 1 } as never}`, /Cannot inline/);
  assert.throws(() => inline`x = ${Number.NaN}`, /finite/);
});

Deno.test('the caller settings statement writes the claims as one literal', async () => {
  const { callerSettingsStatement } = await import('../../supabase/functions/_shared/sql-literal.ts');
  const text = callerSettingsStatement({ role: 'authenticated', claims: { sub: 'u', email: "o'neil@example.test" } });
  assert.equal(text,
    "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', '{\"sub\":\"u\",\"email\":\"o''neil@example.test\"}', true), " +
    "set_config('request.jwt.claim.sub', 'u', true), set_config('request.jwt.claim.role', 'authenticated', true)");
});
