// Statements sent without bind parameters.
//
// postgres.js (3.4.9) sends a statement that has parameters in two round trips when prepared
// statements are off, as they must be behind a transaction-mode pooler (db.ts): Parse + Describe
// first, then Bind + Execute once the server has said the parameters' types, because it picks
// each parameter's encoding from them. A statement without parameters goes in one round trip
// (the simple query protocol), several can go in one message, and the next one queued on the
// connection is sent right behind it. The per-request statements (the caller's settings, the
// rate limit) and the hot routes' statements (db.ts, runAsCaller) are therefore written with
// their values as literals, by `inline` below, which escapes as libpq's PQescapeLiteral does.
// Other route queries keep postgres.js's bind parameters.

/**
 * `text` as a Postgres string literal: single quotes doubled, and when it holds a backslash the
 * `E'…'` form with backslashes doubled, so the literal means the same text whatever
 * standard_conforming_strings is. UTF-8 never has a quote or backslash byte inside a multi-byte
 * character, so any Unicode text is safe. NUL cannot be in Postgres text at all and is refused.
 */
export function literal(text: string): string {
  if (text.includes('\0')) throw new Error('A Postgres literal cannot contain NUL');
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A finite number as a literal; anything else is a programming error, not input. */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
  return String(value);
}

/**
 * The statement that makes a transaction act as a caller (db.ts, sessionOf): `set local role`
 * plus the same `request.jwt.claim(s)` settings PostgREST makes, all transaction-local so nothing
 * leaks to the next request that gets this pooled connection. In one round trip, and the
 * request's first statement follows it on the same flight.
 */
export function callerSettingsStatement(session: { role: string; claims: Record<string, unknown> }): string {
  const { role, claims } = session;
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  // set_config('role', …, true) is `set local role …`.
  const user = inline`set_config('request.jwt.claim.sub', ${sub}, true), set_config('request.jwt.claim.role', ${role}, true)`;
  return inline`select set_config('role', ${role}, true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true), ${user}`.text;
}

/** SQL text whose values were written in as literals by `inline`; nest it in another `inline`. */
export class InlineSql {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** What `inline` writes in: scalars as literals, a list as `(a, b)`, and inline fragments as they are. */
export type InlineValue = string | number | boolean | null | Date | InlineSql | readonly (string | number)[];

function render(value: InlineValue): string {
  if (value instanceof InlineSql) return value.text;
  if (value === null) return 'null';
  if (typeof value === 'string') return literal(value);
  // In parentheses when negative, so that `a -${-1}` cannot become the comment `a --1`.
  if (typeof value === 'number') return value < 0 ? `(${numberLiteral(value)})` : numberLiteral(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return literal(value.toISOString());
  if (Array.isArray(value)) {
    if (value.length === 0) throw new Error('An empty list cannot be inlined');
    return `(${value.map((item) => render(item)).join(', ')})`;
  }
  throw new Error(`Cannot inline a ${typeof value}`);
}

/**
 * A statement (or a fragment of one) with its values written in as literals: the text comes
 * from the template, every interpolated value through `literal`, so a value can never become
 * SQL. Like a bind parameter, a string literal takes its type from where it stands
 * (`id = ${id}` compares as uuid). For statements sent in one round trip (db.ts, runAsCaller).
 */
export function inline(strings: TemplateStringsArray, ...values: InlineValue[]): InlineSql {
  let text = strings[0];
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1];
  });
  return new InlineSql(text);
}
