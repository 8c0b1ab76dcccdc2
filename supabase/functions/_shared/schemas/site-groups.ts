// Site groups (`/orgs/{org}/site-groups`, docs/site-groups.md): a tree of up to three levels
// (region → area → …) that sites sit in, and the access of members and API keys limited to some
// of its groups. The database repeats every rule (names, depth, cycles, the 1,000 per organization).
import { z } from 'zod';
import { idSchema, nameSchema } from './common.ts';

/** docs/product.md §9: three levels deep. */
export const SITE_GROUP_MAX_DEPTH = 3;
/** At most this many groups in one organization (limit_exceeded beyond). */
export const SITE_GROUPS_PER_ORGANIZATION = 1_000;
/** `POST /orgs/{org}/sites/move`: at most this many sites in one request. */
export const SITES_MOVED_AT_ONCE = 500;

/** A group's parent: another group of the organization, or null for a top-level group. */
const parentIdSchema = idSchema.nullable();

export const siteGroupCreateSchema = z.strictObject({
  name: nameSchema('a group name'),
  parent_id: parentIdSchema.optional(),
});

export const siteGroupUpdateSchema = z
  .strictObject({ name: nameSchema('a group name').optional(), parent_id: parentIdSchema.optional() })
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

/** A site's group in a body: a group's id, or null for no group. */
export const groupIdSchema = idSchema.nullable();

/** Ids of groups, each once: a member's or a key's access (empty: every site). */
export const siteGroupIdsSchema = z
  .array(idSchema, { error: 'List the groups by id.' })
  .max(SITE_GROUPS_PER_ORGANIZATION, { error: `List at most ${SITE_GROUPS_PER_ORGANIZATION.toLocaleString('en')} groups.` })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'List each group once.' });

/** `POST /orgs/{org}/sites/move`: puts every listed site in one group (or in none). */
export const sitesMoveSchema = z.strictObject({
  site_ids: z
    .array(idSchema, { error: 'List the sites by id.' })
    .min(1, { error: 'Choose at least one site.' })
    .max(SITES_MOVED_AT_ONCE, { error: `Move at most ${SITES_MOVED_AT_ONCE} sites at a time.` })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'List each site once.' }),
  group_id: groupIdSchema,
});

/** `PUT /orgs/{org}/members/{user_id}/access`: the groups a member is limited to; empty = every site. */
export const memberAccessSchema = z.strictObject({ site_group_ids: siteGroupIdsSchema });

/** `?site_group_id=`: a list, the dashboard or compliance narrowed to a group and its subgroups. */
export const siteGroupFilterSchema = idSchema.optional();

export type SiteGroupCreate = z.infer<typeof siteGroupCreateSchema>;
export type SiteGroupUpdate = z.infer<typeof siteGroupUpdateSchema>;
export type SitesMove = z.infer<typeof sitesMoveSchema>;
export type MemberAccess = z.infer<typeof memberAccessSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const siteGroupAccessSchema = z.enum(['full', 'ancestor']).meta({
  id: 'SiteGroupAccess',
  description:
    '`full`: the caller sees every site in the group and its subgroups. `ancestor`: the group is listed only because one of the caller\'s groups is inside it (so the tree can be drawn); its own sites are not the caller\'s.',
});

export const siteGroupSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable().describe('The group this one is in; null at the top level.'),
  depth: z.number().describe('1 at the top level, at most 3. Kept by the database.'),
  site_count: z.number().describe('Active sites directly in this group (not in its subgroups) that the caller sees.'),
  archived_site_count: z.number().describe('Archived sites directly in this group that the caller sees: they too keep it from being deleted.'),
  child_count: z.number().describe('Groups directly inside this one that the caller sees.'),
  access: siteGroupAccessSchema,
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'SiteGroup' });

export const sitesMovedSchema = z.object({
  group_id: z.string().nullable().describe('The group the sites are now in; null: in no group.'),
  site_ids: z.array(z.string()),
}).meta({ id: 'SitesMoved', description: 'Response of `POST /orgs/{org}/sites/move`: the sites now in the group.' });

export type SiteGroupAccess = z.output<typeof siteGroupAccessSchema>;
export type SiteGroup = z.output<typeof siteGroupSchema>;
export type SitesMoved = z.output<typeof sitesMovedSchema>;
