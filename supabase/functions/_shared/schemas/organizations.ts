// Organizations (`/orgs`, `/orgs/{org}`): create, read, rename and settings. The database repeats
// every rule as a constraint on public.organizations.
import { z } from 'zod';
import { nameSchema, roleResponseSchema } from './common.ts';

export const SLUG_PATTERN = /^[a-z0-9](-?[a-z0-9]){2,39}$/;
export const GEOFENCE_MIN_M = 10;
export const GEOFENCE_MAX_M = 5000;
export const DEFAULT_GEOFENCE_M = 200;

export const slugSchema = z
  .string({ error: 'Enter a short name for links.' })
  .trim()
  .regex(SLUG_PATTERN, {
    error: 'Use 3–40 lowercase letters and digits, with single hyphens between them.',
  });

export const geofenceSchema = z
  .number({ error: `Enter a distance from ${GEOFENCE_MIN_M} to ${GEOFENCE_MAX_M} metres.` })
  .int({ error: 'Use whole metres.' })
  .min(GEOFENCE_MIN_M, { error: `Use at least ${GEOFENCE_MIN_M} metres.` })
  .max(GEOFENCE_MAX_M, { error: `Use at most ${GEOFENCE_MAX_M} metres.` });

export const organizationCreateSchema = z.strictObject({
  name: nameSchema('a name for the organization'),
  /** Derived from the name when left out. */
  slug: slugSchema.optional(),
  require_mfa: z.boolean().optional(),
  default_geofence_m: geofenceSchema.optional(),
});

export const organizationUpdateSchema = z
  .strictObject({
    name: nameSchema('a name for the organization'),
    slug: slugSchema,
    require_mfa: z.boolean(),
    default_geofence_m: geofenceSchema,
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const organizationSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  require_mfa: z.boolean(),
  default_geofence_m: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  role: roleResponseSchema,
}).meta({ id: 'Organization', description: "An organization as its members see it, with the caller's own role in it." });

export type Organization = z.output<typeof organizationSchema>;

/** "Acme Foods, Ltd." → "acme-foods-ltd": a slug suggestion from a name. */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `${base || 'org'}-team`.replace(/^-/, '');
}
