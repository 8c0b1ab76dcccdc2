// Site groups: `GET·POST /orgs/{org}/site-groups`, `PATCH·DELETE /orgs/{org}/site-groups/{id}`
// (docs/site-groups.md). Every member reads the groups they can see; owners, admins and managers
// manage them, a manager limited to some groups only inside those. RLS decides what the caller
// sees and may change; the checks here only choose the answer (404, 403 or a field error) and
// word it, before the database would refuse the same with a less helpful error.
import { z } from 'zod';
import type { Principal } from '../_shared/auth.ts';
import type { Tx } from '../_shared/db.ts';
import type { FieldError } from '../_shared/schemas/errors.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import {
  SITE_GROUP_MAX_DEPTH,
  type SiteGroup,
  siteGroupCreateSchema,
  siteGroupSchema,
  siteGroupUpdateSchema,
} from '../_shared/schemas/site-groups.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { groupSubtree } from './site-group-subtree.ts';
import { iso, requireRole, roleAllowed, roleStatement, SITE_MANAGERS } from './access.ts';
import { orgParams } from './orgs.ts';

const siteGroupParams = z.strictObject({ org: idSchema, id: idSchema });
const noQuery = z.strictObject({});

// --- The subtree filter the lists, the dashboard and compliance share -------------------------

/**
 * `?site_group_id=` as a condition on a site id column (`i.site_id`, `s.id`): the site is in the
 * group or one of its subgroups. Without a group, `true`. An unknown group, or one the caller
 * cannot see, selects nothing, as an unknown `site_id` does.
 */
export function inSiteGroup(siteIdColumn: InlineSql, orgId: string, groupId: string | undefined): InlineSql {
  if (!groupId) return inline`true`;
  return inline`${siteIdColumn} in (
    select fs.id from public.sites fs where fs.org_id = ${orgId} and fs.group_id in (${groupSubtree(groupId)})
  )`;
}

/**
 * A caller limited to site groups who sees at most this many sites reads the inspections list site
 * by site (api/inspections.ts; docs/site-groups.md, "Hot paths"): about 15 µs a seen site whatever
 * the organization's size, where walking the organization's inspections newest first (by
 * private.inspections_by_site_group, for a limited caller) reads past every inspection the caller
 * does not see.
 */
export const SITE_BY_SITE_UP_TO = 1_000;

/**
 * The sites a limited caller sees in `orgId` (none for an org-wide one). `= any(array(…))`, not
 * `in (select …)`: the planner then looks the groups' sites up in the sites' group index rather
 * than guessing a thousand groups and scanning every site.
 */
export function seenSitesSql(orgId: string): InlineSql {
  return inline`
    select x.id from public.sites x where x.org_id = ${orgId} and x.group_id = any (array(select private.limited_site_group_ids()))
  `;
}

/** Whether the caller sees every site of `orgId`: a condition without columns, decided once a statement. */
export function orgWideSql(orgId: string): InlineSql {
  return inline`(select ${orgId}::uuid in (select private.org_ids_with_every_site()))`;
}

/**
 * Whether a limited caller should read the list site by site: limited in `orgId` and seeing at most
 * SITE_BY_SITE_UP_TO sites (counted no further, by the sites' group index).
 */
export function bySiteSql(orgId: string): InlineSql {
  return inline`(not ${orgWideSql(orgId)} and (select count(*) from (${seenSitesSql(orgId)} limit ${SITE_BY_SITE_UP_TO + 1}) c) <= ${SITE_BY_SITE_UP_TO})`;
}

/** How a caller reads an organization's lists and counts, as last found out (rememberedReadPlan). */
export interface ReadPlan {
  orgWide: boolean;
  bySite: boolean;
}

/** One row, `org_wide` and `by_site`: what rememberReadPlan keeps. */
export function readPlanStatement(orgId: string): InlineSql {
  return inline`select ${orgWideSql(orgId)} as org_wide, ${bySiteSql(orgId)} as by_site`;
}

/**
 * How each caller read an organization's lists and counts last, for a minute, so that an org-wide
 * caller reads them as before issue 27, with nothing added, and only other callers pay for the
 * statements that decide their plan in SQL. Only the plan depends on it, never what is seen (RLS
 * decides that either way, and the limited plans check again in SQL), so an entry gone stale —
 * access changed within the minute — costs at most speed. Bounded like the verified-token cache
 * (auth.ts): the oldest entry goes first.
 */
const readPlans = new Map<string, ReadPlan & { until: number }>();
const READ_PLAN_MEMORY_MS = 60_000;
const READ_PLAN_MEMORY_ENTRIES = 10_000;

const readPlanKey = (principal: Principal, orgId: string) => `${principal.kind === 'user' ? principal.userId : principal.keyId}:${orgId}`;

/** The caller's remembered read plan in `orgId`, or undefined (then add readPlanStatement to the read). */
export function rememberedReadPlan(principal: Principal, orgId: string): ReadPlan | undefined {
  const known = readPlans.get(readPlanKey(principal, orgId));
  return known && known.until > Date.now() ? known : undefined;
}

/** Keeps what readPlanStatement answered, once the caller is known to be a member. */
export function rememberReadPlan(principal: Principal, orgId: string, rows: readonly { org_wide: boolean; by_site: boolean }[]): void {
  const [row] = rows;
  if (!row) return;
  const key = readPlanKey(principal, orgId);
  readPlans.delete(key);
  if (readPlans.size >= READ_PLAN_MEMORY_ENTRIES) readPlans.delete(readPlans.keys().next().value!);
  readPlans.set(key, { orgWide: row.org_wide === true, bySite: row.by_site === true, until: Date.now() + READ_PLAN_MEMORY_MS });
}

/**
 * The rows of `table` (inspections or actions) at the sites the caller sees, as a FROM item for
 * counts over an organization (the dashboard). For a caller not known to be org-wide: only its
 * seen sites' rows, found by the table's site index, when it is limited — counting over the whole
 * organization makes RLS check every row's site one by one (a region's figure 820 ms against 245
 * ms: docs/site-groups.md, "Hot paths") — and the whole table when it is not; which branch runs is
 * decided in the statement, once. For a caller known to be org-wide, the table itself: the union
 * costs an org-wide count about 1.4×.
 */
export function rowsAtSeenSites(table: 'inspections' | 'actions', orgId: string, plan: ReadPlan | undefined): InlineSql {
  const rows = table === 'inspections' ? inline`public.inspections` : inline`public.actions`;
  if (plan?.orgWide) return rows;
  // Only the columns counts read: a union's unused columns are not pruned, and every row would
  // carry its JSON otherwise.
  const columns = table === 'inspections'
    ? inline`t.id, t.org_id, t.site_id, t.template_id, t.status, t.due_at, t.assignee_id, t.schedule_id, t.first_submitted_at, t.hidden_item_keys`
    : inline`t.id, t.org_id, t.site_id, t.status, t.due_at, t.assignee_id`;
  return inline`(
    select ${columns} from ${rows} t where ${orgWideSql(orgId)}
    union all
    select ${columns} from ${rows} t where t.site_id in (${seenSitesSql(orgId)}) and not ${orgWideSql(orgId)}
  )`;
}

// --- Who sees what -----------------------------------------------------------------------------

/**
 * Whether the caller sees every site of an organization (org-wide), or only those of the groups
 * they (a member or a key) are limited to and their subgroups. Read as the caller.
 */
export interface Scope {
  orgWide: boolean;
}

export async function readScope(tx: Tx, orgId: string): Promise<Scope> {
  const [row] = await tx.unsafe<{ org_wide: boolean }[]>(inline`select ${orgWideSql(orgId)} as org_wide`.text);
  return { orgWide: row.org_wide };
}

/**
 * Whether the caller sees all of group `g` (every site in it and below): org-wide, or `g` is one
 * of their groups or below one (the rule's own helpers, docs/site-groups.md). A group they see
 * otherwise is an ancestor of theirs, listed so that the tree can be drawn.
 */
const FULL_ACCESS = inline`(
  g.org_id in (select private.org_ids_with_every_site()) or g.id in (select private.limited_site_group_ids())
)`;

// --- Reading groups ----------------------------------------------------------------------------

interface SiteGroupRow {
  id: string;
  org_id: string;
  name: string;
  parent_id: string | null;
  depth: number;
  site_count: number;
  archived_site_count: number;
  child_count: number;
  created_at: Date;
  updated_at: Date;
  /** Whether the caller sees all of it (FULL_ACCESS). */
  full: boolean;
}

/** A group as one read answers it. */
export type GroupRead = SiteGroupRow;

/**
 * The organization's groups the caller sees (all of them, or `id` alone) with their direct counts
 * of what the caller sees: two grouped counts joined in, not a count per group, so the whole tree
 * of 1,000 groups over 100,000 sites is one pass over the sites (docs/site-groups.md, "The API").
 */
function selectGroups(orgId: string, id?: string): InlineSql {
  const [ownSites, ownChildren, itself] = id
    ? [inline`and s.group_id = ${id}::uuid`, inline`and c.parent_id = ${id}::uuid`, inline`and g.id = ${id}::uuid`]
    : [inline``, inline``, inline``];
  return inline`
    select g.id, g.org_id, g.name, g.parent_id, g.depth, g.created_at, g.updated_at,
           coalesce(n.active, 0)::int as site_count, coalesce(n.archived, 0)::int as archived_site_count,
           coalesce(c.children, 0)::int as child_count,
           ${FULL_ACCESS} as full
    from public.site_groups g
    left join (
      select s.group_id, count(*) filter (where s.archived_at is null) as active, count(*) filter (where s.archived_at is not null) as archived
      from public.sites s where s.org_id = ${orgId} and s.group_id is not null ${ownSites}
      group by s.group_id
    ) n on n.group_id = g.id
    left join (
      select c.parent_id, count(*) as children
      from public.site_groups c where c.org_id = ${orgId} and c.parent_id is not null ${ownChildren}
      group by c.parent_id
    ) c on c.parent_id = g.id
    where g.org_id = ${orgId} ${itself}
  `;
}

function siteGroupOf(row: SiteGroupRow): SiteGroup {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    parent_id: row.parent_id,
    depth: row.depth,
    site_count: row.site_count,
    archived_site_count: row.archived_site_count,
    child_count: row.child_count,
    access: row.full ? 'full' : 'ancestor',
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** One group as the caller sees it, or null when they cannot see it (or it is not the organization's). */
export async function findGroup(tx: Tx, orgId: string, id: string): Promise<GroupRead | null> {
  const [row] = await tx.unsafe<SiteGroupRow[]>(selectGroups(orgId, id).text);
  return row ?? null;
}

async function readGroup(tx: Tx, orgId: string, id: string): Promise<GroupRead> {
  const group = await findGroup(tx, orgId, id);
  if (!group) throw ApiError.notFound('site group');
  return group;
}

/**
 * A group named in a body (a parent, a site's group), which must be one the caller may put things
 * in: unknown to the caller → a field error (as for another organization's group), seen only as an
 * ancestor of theirs → 403.
 */
export async function groupToFill(tx: Tx, orgId: string, id: string, field: string): Promise<GroupRead> {
  const group = await findGroup(tx, orgId, id);
  if (!group) throw ApiError.validation([unknownGroup(field)]);
  if (!group.full) throw ApiError.forbidden('You can only use the groups you have access to.');
  return group;
}

/** A limited caller never puts anything at the top level (outside every group). */
export function refuseTopLevel(scope: Scope, detail: string): void {
  if (!scope.orgWide) throw ApiError.forbidden(detail);
}

// --- The database's refusals, worded ---------------------------------------------------------

const DEPTH_MESSAGE = 'Groups can be at most three levels deep.';
const CYCLE_MESSAGE = 'A group cannot be moved inside itself or one of its subgroups.';
const NOT_EMPTY_MESSAGE = "Move this group's sites and subgroups out before deleting it.";

/** What postgres.js puts on a server error; only the fields read here. */
interface PgError {
  name?: string;
  code?: string;
  constraint_name?: string;
  table_name?: string;
}

/**
 * Runs `fn` and words the refusals the database makes of group writes that the checks before it
 * did not foresee (two requests at once): a sibling with the name, a move that would nest too deep
 * or in itself, and a foreign key (`onForeignKey`: a group deleted while still holding sites or
 * subgroups, or a group gone before a site was put in it). Anything else goes on to the general
 * mapping (errors.ts).
 */
export async function withGroupErrors<T>(fn: () => Promise<T>, onForeignKey: FieldError): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const pg = error as PgError;
    if (pg?.name !== 'PostgresError') throw error;
    const constraint = pg.constraint_name ?? '';
    const aboutGroups = pg.table_name === 'site_groups' || constraint.startsWith('site_groups_');
    if (pg.code === '23505' && aboutGroups) throw ApiError.duplicate('site group', 'name');
    if (pg.code === '23514' && aboutGroups && !constraint.includes('name')) {
      // private.refuse_site_group_parent names the depth check for too deep, parent_id's for a cycle.
      throw ApiError.validation([{ field: 'parent_id', message: constraint.includes('depth') ? DEPTH_MESSAGE : CYCLE_MESSAGE }]);
    }
    if (pg.code === '23503' && constraint.includes('group')) throw ApiError.validation([onForeignKey]);
    throw error;
  }
}

/** The field error of a group that is not (or no longer) there to be used. */
export const unknownGroup = (field: string): FieldError => ({ field, message: 'Choose a group of this organization.' });

// --- Routes ------------------------------------------------------------------------------------

export const listSiteGroups = route({
  method: 'GET',
  response: { list: siteGroupSchema },
  path: '/orgs/:org/site-groups',
  summary: 'Every group the caller can see, parents before children: the whole tree in one answer (at most 1,000 groups)',
  params: orgParams,
  query: noQuery,
  handler: async ({ params, read }) => {
    // The membership check and the tree in one round trip.
    const [role, rows] = await read([
      roleStatement(params.org),
      inline`${selectGroups(params.org)} order by g.depth, g.name, g.id`,
    ]);
    roleAllowed(role);
    const data = (rows as SiteGroupRow[]).map(siteGroupOf);
    // The tree is answered whole (docs/site-groups.md): a tree is not drawn from a page of it.
    return { data, next_cursor: null };
  },
});

export const createSiteGroup = route({
  method: 'POST',
  response: siteGroupSchema,
  path: '/orgs/:org/site-groups',
  params: orgParams,
  body: siteGroupCreateSchema,
  status: 201,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      const scope = await readScope(tx, params.org);
      const parentId = body.parent_id ?? null;
      if (parentId === null) {
        refuseTopLevel(scope, 'Only members who see every site can add top-level groups.');
      } else {
        const parent = await groupToFill(tx, params.org, parentId, 'parent_id');
        if (parent.depth >= SITE_GROUP_MAX_DEPTH) throw ApiError.validation([{ field: 'parent_id', message: DEPTH_MESSAGE }]);
      }
      await refuseSiblingName(tx, params.org, parentId, body.name, null);
      const [created] = await withGroupErrors(() =>
        tx<{ id: string }[]>`
          insert into public.site_groups (org_id, parent_id, name) values (${params.org}, ${parentId}, ${body.name}) returning id
        `, unknownGroup('parent_id'));
      return siteGroupOf(await readGroup(tx, params.org, created.id));
    });
  },
});

/** Siblings may not share a name (nor may two top-level groups): 409 before the unique index says so. */
async function refuseSiblingName(tx: Tx, orgId: string, parentId: string | null, name: string, except: string | null) {
  const [clash] = await tx`
    select 1 from public.site_groups
    where org_id = ${orgId} and parent_id is not distinct from ${parentId}::uuid and name = ${name}
      and id is distinct from ${except}::uuid
  `;
  if (clash) throw ApiError.duplicate('site group', 'name');
}

/**
 * How many levels a group's subtree spans, itself included (1 for a group without subgroups), so a
 * move can tell whether its lowest group would end up deeper than three.
 */
async function subtreeHeight(tx: Tx, orgId: string, group: GroupRead): Promise<number> {
  const [row] = await tx.unsafe<{ deepest: number }[]>(inline`
    select coalesce(max(g.depth), 0)::int as deepest from public.site_groups g where g.org_id = ${orgId} and g.id in (${groupSubtree(group.id)})
  `.text);
  return Math.max(row.deepest, group.depth) - group.depth + 1;
}

/** Whether `candidateId` is `group` itself or a group below it. */
async function isInSubtree(tx: Tx, group: GroupRead, candidateId: string): Promise<boolean> {
  const [row] = await tx.unsafe<{ inside: boolean }[]>(inline`
    select ${candidateId}::uuid in (${groupSubtree(group.id)}) as inside
  `.text);
  return row.inside;
}

/**
 * A limited manager manages groups strictly inside their own: the group's parent must be one they
 * see all of. Their own groups (whose parent is outside their reach, or the top level) are for
 * members who see more.
 */
async function refuseOutsideScope(tx: Tx, scope: Scope, orgId: string, group: GroupRead, verb: string) {
  if (scope.orgWide) return;
  if (!group.full) throw ApiError.forbidden(`You can only ${verb} groups inside your own.`);
  const parent = group.parent_id === null ? null : await findGroup(tx, orgId, group.parent_id);
  if (!parent?.full) throw ApiError.forbidden(`You can only ${verb} groups inside your own.`);
}

export const updateSiteGroup = route({
  method: 'PATCH',
  response: siteGroupSchema,
  path: '/orgs/:org/site-groups/:id',
  summary: 'Rename a group or move it under another (parent_id; null: the top level)',
  params: siteGroupParams,
  body: siteGroupUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      const scope = await readScope(tx, params.org);
      const current = await readGroup(tx, params.org, params.id);
      const moving = body.parent_id !== undefined && body.parent_id !== current.parent_id;
      const renaming = body.name !== undefined && body.name !== current.name;
      await refuseOutsideScope(tx, scope, params.org, current, moving ? 'move' : 'rename');
      // Nothing changes: no write, no audit entry.
      if (!moving && !renaming) return siteGroupOf(current);
      const parentId = moving ? body.parent_id ?? null : current.parent_id;
      if (moving) {
        if (parentId === null) {
          refuseTopLevel(scope, 'Only members who see every site can move groups to the top level.');
        } else {
          const parent = await groupToFill(tx, params.org, parentId, 'parent_id');
          if (await isInSubtree(tx, current, parent.id)) {
            throw ApiError.validation([{ field: 'parent_id', message: CYCLE_MESSAGE }]);
          }
          if (parent.depth + await subtreeHeight(tx, params.org, current) > SITE_GROUP_MAX_DEPTH) {
            throw ApiError.validation([{ field: 'parent_id', message: DEPTH_MESSAGE }]);
          }
        }
      }
      await refuseSiblingName(tx, params.org, parentId, body.name ?? current.name, current.id);
      const changes: Record<string, unknown> = {};
      if (renaming) changes.name = body.name;
      if (moving) changes.parent_id = parentId;
      const [updated] = await withGroupErrors(() =>
        tx`update public.site_groups set ${tx(changes)} where org_id = ${params.org} and id = ${params.id} returning id`, unknownGroup('parent_id'));
      if (!updated) throw ApiError.forbidden();
      return siteGroupOf(await readGroup(tx, params.org, params.id));
    });
  },
});

export const deleteSiteGroup = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/site-groups/:id',
  summary: "Delete an empty group (no sites, archived ones included, and no subgroups); its members' access to it ends",
  params: siteGroupParams,
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      const scope = await readScope(tx, params.org);
      const current = await readGroup(tx, params.org, params.id);
      await refuseOutsideScope(tx, scope, params.org, current, 'delete');
      // The caller sees all of a group they may delete, so these counts are the whole of it.
      if (current.site_count + current.archived_site_count + current.child_count > 0) {
        throw ApiError.validation([{ field: 'id', message: NOT_EMPTY_MESSAGE }]);
      }
      const deleted = await withGroupErrors(() =>
        tx`delete from public.site_groups where org_id = ${params.org} and id = ${params.id} returning id`, { field: 'id', message: NOT_EMPTY_MESSAGE });
      if (deleted.length === 0) throw ApiError.forbidden();
    });
  },
});
