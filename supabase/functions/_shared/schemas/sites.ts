// Sites (`/orgs/{org}/sites`): the places an organization inspects. DELETE archives. The database
// repeats every rule as a constraint on public.sites.
import { z } from 'zod';
import { idSchema, nameSchema, optionalTextSchema, pageQuerySchema, searchQuerySchema } from './common.ts';
import { geofenceSchema } from './organizations.ts';
import { groupIdSchema, siteGroupFilterSchema } from './site-groups.ts';

export const ADDRESS_MAX_LENGTH = 500;
export const EXTERNAL_REF_MAX_LENGTH = 255;
export const SITES_PER_ORGANIZATION = 100_000;

export const latitudeSchema = z
  .number({ error: 'Enter a latitude from -90 to 90.' })
  .min(-90, { error: 'Enter a latitude from -90 to 90.' })
  .max(90, { error: 'Enter a latitude from -90 to 90.' });

export const longitudeSchema = z
  .number({ error: 'Enter a longitude from -180 to 180.' })
  .min(-180, { error: 'Enter a longitude from -180 to 180.' })
  .max(180, { error: 'Enter a longitude from -180 to 180.' });

/** IANA zone names as browsers know them (`Intl.supportedValuesOf('timeZone')`), plus UTC. */
export const timezoneSchema = z
  .string({ error: 'Choose a time zone.' })
  .trim()
  .min(1, { error: 'Choose a time zone.' })
  .max(64, { error: 'Choose a time zone.' })
  .refine((name) => name === '' || isTimeZone(name), { error: 'Choose a time zone from the list.' })
  // "europe/london" is stored as "Europe/London", the name browsers and Postgres both know.
  .transform((name) => (name === 'UTC' ? name : new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone));

/** Area/Location names and UTC; POSIX specs like "UTC+5" are not zones (the database agrees). */
const ZONE_NAME = /^(UTC|[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+)$/;

export function isTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const siteFields = {
  name: nameSchema('a site name'),
  address: optionalTextSchema(ADDRESS_MAX_LENGTH).optional(),
  latitude: latitudeSchema.nullable().optional(),
  longitude: longitudeSchema.nullable().optional(),
  geofence_m: geofenceSchema.optional(),
  timezone: timezoneSchema.optional(),
  external_ref: optionalTextSchema(EXTERNAL_REF_MAX_LENGTH).optional(),
  /** The site's group (docs/site-groups.md); null or absent: in no group. */
  group_id: groupIdSchema.optional(),
};

/** Both halves of a position or neither: a map pin needs both. */
function coordinatesTogether(value: { latitude?: number | null; longitude?: number | null }, ctx: z.RefinementCtx) {
  const hasLat = value.latitude !== undefined && value.latitude !== null;
  const hasLng = value.longitude !== undefined && value.longitude !== null;
  if (value.latitude === undefined && value.longitude === undefined) return;
  if (hasLat && !hasLng) ctx.addIssue({ code: 'custom', path: ['longitude'], message: 'Enter the longitude too.' });
  if (hasLng && !hasLat) ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'Enter the latitude too.' });
}

export const siteCreateSchema = z.strictObject(siteFields).superRefine(coordinatesTogether);

export const siteUpdateSchema = z
  .strictObject({ ...siteFields, name: siteFields.name.optional(), archived: z.boolean().optional() })
  .superRefine(coordinatesTogether)
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

/** `near=lat,lng`: order by distance from that point. */
export const nearSchema = z
  .string()
  .transform((value, ctx) => {
    const parts = value.split(',');
    const [lat, lng] = parts.map((part) => Number(part.trim()));
    if (
      parts.length !== 2 || parts.some((p) => p.trim() === '') || !Number.isFinite(lat) || !Number.isFinite(lng) ||
      lat < -90 || lat > 90 || lng < -180 || lng > 180
    ) {
      ctx.addIssue({ code: 'custom', message: 'Use near=latitude,longitude, e.g. near=51.5072,-0.1276.' });
      return z.NEVER;
    }
    return { latitude: lat, longitude: lng };
  });

export const siteListQuerySchema = pageQuerySchema.extend({
  q: searchQuerySchema,
  near: nearSchema.optional(),
  /** false (default): active sites; true: archived ones; all: both. */
  archived: z.enum(['false', 'true', 'all'], { error: 'Use archived=false, true or all.' }).default('false'),
  /** Sites in this group or one of its subgroups. */
  site_group_id: siteGroupFilterSchema,
  /** Sites directly in this group, not in its subgroups; `none`: the sites in no group (the web's tree of groups). */
  group_id: z.union([idSchema, z.literal('none')], { error: 'Use a group id, or none for the sites in no group.' }).optional(),
});

export type SiteCreate = z.infer<typeof siteCreateSchema>;
export type SiteUpdate = z.infer<typeof siteUpdateSchema>;
export type SiteListQuery = z.infer<typeof siteListQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const siteSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  geofence_m: z.number(),
  timezone: z.string(),
  external_ref: z.string().nullable(),
  group_id: z.string().nullable().describe('The group the site is in (docs/site-groups.md); null: in no group.'),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  distance_m: z.number().nullable().optional().describe('Only with `near`: metres from that point (null for sites without a position).'),
}).meta({ id: 'Site' });

export type Site = z.output<typeof siteSchema>;
