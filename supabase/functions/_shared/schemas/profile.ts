// The caller's own profile (`GET·PATCH /me`). Shared by the api function and the web client
// (`@schemas/profile`), so both validate with the same rules; the database repeats them as a
// check constraint on public.profiles.
import { z } from 'zod';
import { CONTROL_CHARACTERS, type Role } from './common.ts';

export const DISPLAY_NAME_MAX_LENGTH = 120;

/** Names are 1–120 characters after trimming (docs/product.md §5). */
export const displayNameSchema = z
  .string({ error: 'Enter a display name.' })
  .trim()
  .min(1, { error: 'Enter a display name.' })
  .max(DISPLAY_NAME_MAX_LENGTH, { error: `Use at most ${DISPLAY_NAME_MAX_LENGTH} characters.` })
  .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'Remove the control characters.' });

export const profileUpdateSchema = z.strictObject({
  display_name: displayNameSchema,
});

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** An organization the caller belongs to, with their role in it. */
export interface Membership {
  org_id: string;
  org_slug: string;
  org_name: string;
  role: Role;
}

/** Response of `GET /me` and `PATCH /me`. Timestamps are ISO 8601 strings. */
export interface Me {
  user_id: string;
  email: string | null;
  display_name: string;
  created_at: string;
  updated_at: string;
  memberships: Membership[];
}
