// Statements sent without bind parameters, for the few that run on every request.
//
// postgres.js (3.4.9) sends a statement that has parameters in two round trips when prepared
// statements are off, as they must be behind a transaction-mode pooler (db.ts): Parse + Describe
// first, then Bind + Execute once the server has said the parameters' types, because it picks
// each parameter's encoding from them. A statement without parameters goes in one round trip
// (the simple query protocol), and the next one queued on the connection is sent right behind
// it. The per-request statements (the caller's settings, the rate limit) are therefore written
// with their values as literals, made by `literal` below, which escapes as libpq's
// PQescapeLiteral does. Route queries keep their bind parameters.

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
