// The caller's own profile (`GET·PATCH /me`). Shared by the api function and the web client
// (`@schemas/profile`), so both validate with the same rules; the database repeats them as a
// check constraint on public.profiles.
import { z } from 'zod';
import { CONTROL_CHARACTERS, roleResponseSchema } from './common.ts';

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

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const membershipSchema = z.object({
  org_id: z.string(),
  org_slug: z.string(),
  org_name: z.string(),
  role: roleResponseSchema,
  org_wide: z.boolean().describe('The caller sees every site of the organization; false: only those of `site_group_ids` and their subgroups (docs/site-groups.md).'),
  site_group_ids: z.array(z.string()).describe('The groups the caller is limited to; empty when org-wide.'),
}).meta({ id: 'Membership', description: 'An organization the caller belongs to, with their role in it and the sites they see.' });

export const meSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  display_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  memberships: z.array(membershipSchema),
}).meta({ id: 'Me', description: 'Response of `GET /me` and `PATCH /me`. Timestamps are ISO 8601 strings.' });

export type Membership = z.output<typeof membershipSchema>;
export type Me = z.output<typeof meSchema>;
