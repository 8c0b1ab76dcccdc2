// The literals the functions write into their per-request statements (sql-literal.ts, issue 15)
// mean exactly the text they were made from, in a real Postgres, whether standard_conforming_strings
// is on (hosted's default) or off, and a hostile text stays one value: it never ends the
// statement. The caller's settings statement (db.ts) carries the claims through unchanged.
import { afterAll, describe, expect, it } from 'vitest';
import { callerSettingsStatement, inline, literal } from '../../../supabase/functions/_shared/sql-literal.ts';
import { database } from '../../support/database.ts';

const sql = database();
afterAll(() => sql.end());

const texts = [
  '',
  'plain',
  "O'Brien",
  "'; select pg_sleep(10); --",
  '\\',
  "\\'; drop table public.sites; --",
  "E'\\x41'",
  '$$ dollar $$',
  'line\nbreak\ttab\r',
  'Café Ñandú — 東京 🧯',
  '{"sub":"a\'b","role":"authenticated","x":"\\\\u0000"}',
];

describe('a literal', () => {
  for (const conforming of ['on', 'off']) {
    it(`reads back as the same text with standard_conforming_strings ${conforming}`, async () => {
      const read = await sql.begin(async (tx) => {
        await tx.unsafe(`set local standard_conforming_strings = ${conforming}`);
        const values: string[] = [];
        // One statement per text, sent as the functions send theirs: no bind parameters.
        for (const text of texts) values.push((await tx.unsafe(`select ${literal(text)}::text as value`))[0].value);
        return values;
      });
      expect(read).toEqual(texts);
    });
  }

  it('keeps a hostile text one value: the statement returns one row with one column', async () => {
    const rows = await sql.unsafe(`select ${literal("x'); select 1; --")} as value`);
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0])).toEqual(['value']);
    expect(rows[0].value).toBe("x'); select 1; --");
  });
});

describe('an inline statement', () => {
  it('compares like bind parameters do: a uuid, a list, a negative number, a time, and hostile text that matches nothing', async () => {
    const statement = inline`select ${'00000000-0000-4000-8000-000000000001'}::uuid = '00000000-0000-4000-8000-000000000001'::uuid as same_id,
      'b' in ${['a', 'b', "c'"]} as in_list, 2 -${-1} as three, ${new Date('2026-01-02T03:04:05.678Z')}::timestamptz = '2026-01-02 03:04:05.678+00' as same_time,
      (select count(*) from public.organizations where slug = ${"x' or '1'='1"})::int as hostile_matches`;
    const [row] = await sql.unsafe(statement.text);
    expect(row).toEqual({ same_id: true, in_list: true, three: 3, same_time: true, hostile_matches: 0 });
  });
});

describe("the caller's settings statement", () => {
  it('sets the role and the claims exactly as given, for this transaction only', async () => {
    const claims = { sub: '00000000-0000-4000-8000-000000000001', role: 'authenticated', email: "o'neil\\@example.test", aal: 'aal1' };
    const seen = await sql.begin(async (tx) => {
      await tx.unsafe(callerSettingsStatement({ role: 'authenticated', claims }));
      const [row] = await tx.unsafe(`select current_user as role, current_setting('request.jwt.claims') as claims,
        current_setting('request.jwt.claim.sub') as sub, auth.uid()::text as uid`);
      return row;
    });
    expect(seen.role).toBe('authenticated');
    expect(JSON.parse(seen.claims)).toEqual(claims);
    expect(seen.sub).toBe(claims.sub);
    expect(seen.uid).toBe(claims.sub);
    const [after] = await sql.unsafe(`select current_user as role, current_setting('request.jwt.claims', true) as claims`);
    expect(after.role).toBe('postgres');
    expect(after.claims ?? '').toBe('');
  });
});
