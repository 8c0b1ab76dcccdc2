// Ids as the api takes them, without zod: the web checks an id in a URL before asking for it.

// The UUIDs `idSchema` (common.ts, zod's z.uuid()) accepts: RFC 9562 versions 1–8 with the RFC
// variant, and the nil and max UUIDs. tests/functions keeps the two in step.
const ID_PATTERN = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

/** Whether `value` is an id the api could know (else a page says "not found" without asking). */
export function isId(value: string | undefined): boolean {
  return value !== undefined && ID_PATTERN.test(value);
}
