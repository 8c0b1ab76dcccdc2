// Building blocks shared by the resource schemas: ids, names, roles, list paging. Imported by the
// api function (Deno) and the web client (Vite, `@schemas/common`), so both validate alike.
import { z } from 'zod';
import { ROLES } from './roles.ts';

export const NAME_MAX_LENGTH = 120;

/** A UUID in a path or body; anything else is a validation error, not a database error. */
export const idSchema = z.uuid({ error: 'Use a valid id.' });

// Control characters have no place in a name, and Postgres cannot store NUL in text at all.
// deno-lint-ignore no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// Free text keeps tabs and line breaks (a multi-line address) but no other control character.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const TEXT_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Names of things are 1–120 characters after trimming (docs/product.md §5). */
export function nameSchema(what = 'a name') {
  return z
    .string({ error: `Enter ${what}.` })
    .trim()
    .min(1, { error: `Enter ${what}.` })
    .max(NAME_MAX_LENGTH, { error: `Use at most ${NAME_MAX_LENGTH} characters.` })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'Remove the control characters.' });
}

/** Optional free text: trimmed, empty means "none" (null). */
export function optionalTextSchema(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: `Use at most ${max} characters.` })
    .refine((value) => !TEXT_CONTROL_CHARACTERS.test(value), { error: 'Remove the control characters.' })
    .transform((value) => (value === '' ? null : value))
    .nullable();
}

/** Emails are RFC-valid and stored lowercase (docs/product.md §5). */
export const emailSchema = z
  .string({ error: 'Enter an email address.' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'Use at most 254 characters.' })
  .pipe(z.email({ error: 'Enter a valid email address.' }));

export { can, ROLES, type Role } from './roles.ts';
export const roleSchema = z.enum(ROLES, { error: 'Choose a role.' });
/** A role in an answer: openapi.json's `Role`. */
export const roleResponseSchema = roleSchema.meta({ id: 'Role' });

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

/** `?limit=&cursor=` of every list (docs/product.md §7). The cursor is opaque to clients. */
export const pageQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: `Use a whole number from 1 to ${LIST_MAX_LIMIT}.` })
    .int({ error: `Use a whole number from 1 to ${LIST_MAX_LIMIT}.` })
    .min(1, { error: `Use a whole number from 1 to ${LIST_MAX_LIMIT}.` })
    .max(LIST_MAX_LIMIT, { error: `Use a whole number from 1 to ${LIST_MAX_LIMIT}.` })
    .default(LIST_DEFAULT_LIMIT),
  cursor: z.string().min(1).max(1024).optional(),
});

/** `?q=`: a case-insensitive substring search of a list (its SQL side is `containsPattern`). */
export const searchQuerySchema = z
  .string()
  .trim()
  .max(200, { error: 'Use at most 200 characters.' })
  .refine((value) => !value.includes('\u0000'), { error: 'Remove the control characters.' })
  .optional();

/** Every list response: a page of rows and the cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** The `Idempotency-Key` header (docs/product.md §9): up to 255 characters. */
export const idempotencyKeySchema = z
  .string()
  .min(1, { error: 'Idempotency-Key must not be empty.' })
  .max(255, { error: 'Idempotency-Key is limited to 255 characters.' })
  .regex(/^[\x21-\x7e]+$/, { error: 'Idempotency-Key must be printable ASCII without spaces.' });
