// Sites: `GET·POST /orgs/{org}/sites`, `GET·PATCH·DELETE /orgs/{org}/sites/{id}`, `POST
// /orgs/{org}/sites/move` (several into a group at once). Every member reads the sites they can
// see (all, or their groups'); owners, admins and managers change them (a limited manager only in
// their groups: docs/site-groups.md). DELETE archives, so inspection history keeps its site;
// PATCH `archived: false` brings a site back.
import { z } from 'zod';
import { containsPattern, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import { type Site, siteCreateSchema, siteListQuerySchema, siteSchema, siteUpdateSchema } from '../_shared/schemas/sites.ts';
import { type SitesMoved, sitesMovedSchema, sitesMoveSchema } from '../_shared/schemas/site-groups.ts';
import { iso, requireRole, roleAllowed, roleStatement, SITE_MANAGERS } from './access.ts';
import { orgParams } from './orgs.ts';
import { groupToFill, inSiteGroup, readScope, refuseTopLevel, unknownGroup, withGroupErrors } from './site-groups.ts';

/** A sites row as postgres.js returns it: the API's Site with timestamps still as dates. */
type SiteRow = Omit<Site, 'archived_at' | 'created_at' | 'updated_at'> & {
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** near= only: the KNN order key (chord length on the unit sphere), kept in the cursor. */
  chord?: number | null;
};

const siteParams = z.strictObject({ org: idSchema, id: idSchema });

const SITE_COLUMNS = ['name', 'address', 'latitude', 'longitude', 'geofence_m', 'timezone', 'external_ref', 'group_id'] as const;

function siteOf(row: SiteRow): Site {
  const site: Site = {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    geofence_m: row.geofence_m,
    timezone: row.timezone,
    external_ref: row.external_ref,
    group_id: row.group_id,
    archived_at: iso(row.archived_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
  if (row.distance_m !== undefined) site.distance_m = row.distance_m === null ? null : Math.round(row.distance_m);
  return site;
}

async function readSite(tx: Tx, orgId: string, id: string): Promise<SiteRow> {
  const [row] = await tx<SiteRow[]>`select * from public.sites where org_id = ${orgId} and id = ${id}`;
  if (!row) throw ApiError.notFound('site');
  return row;
}

/**
 * A site may go in `groupId` (null: in no group) when the caller sees all of that group; a caller
 * limited to groups keeps every site in one of theirs, so cannot leave a site outside them.
 */
async function checkSiteGroup(tx: Tx, orgId: string, groupId: string | null): Promise<void> {
  if (groupId === null) refuseTopLevel(await readScope(tx, orgId), 'Put the site in one of your groups: you only see the sites in them.');
  else await groupToFill(tx, orgId, groupId, 'group_id');
}

/** The given fields only: a column left out keeps its value (or the database default). */
function columnsOf(body: Partial<Record<(typeof SITE_COLUMNS)[number], unknown>>) {
  return Object.fromEntries(SITE_COLUMNS.filter((c) => body[c] !== undefined).map((c) => [c, body[c]]));
}

export const listSites = route({
  method: 'GET',
  response: { list: siteSchema },
  path: '/orgs/:org/sites',
  params: orgParams,
  query: siteListQuerySchema,
  handler: async ({ params, query, read }) => {
    const near = query.near;
    const after = decodeCursor(query.cursor, near ? ['number|null', 'uuid'] : ['string', 'uuid']);
    const archived = query.archived === 'all'
      ? inline`true`
      : query.archived === 'true'
      ? inline`s.archived_at is not null`
      : inline`s.archived_at is null`;
    // The same expression as sites_search_idx, so the trigram index serves it.
    const search = query.q
      ? inline`(s.name || ' ' || coalesce(s.address, '') || ' ' || coalesce(s.external_ref, '')) ilike ${containsPattern(query.q)}`
      : inline`true`;
    const inGroup = inSiteGroup(inline`s.id`, params.org, query.site_group_id);
    // A group's own sites (the web's tree draws its subgroups apart), or those in no group.
    const ownGroup = query.group_id === undefined
      ? inline`true`
      : query.group_id === 'none'
      ? inline`s.group_id is null`
      : inline`s.group_id = ${query.group_id}::uuid`;
    let page: InlineSql;
    if (!near) {
      // Under RLS `ilike` cannot use the trigram index (it is not leakproof), so a search first
      // asks private.site_search_page for the page's ids as the index would find them (members
      // only); the rows are then read here under RLS with every filter again. Within a group the
      // page would come back short (the function knows no groups), so there the group's own
      // sites (found by their group_id index) are searched as they are.
      const searchPage = query.q && !query.site_group_id && !query.group_id
        ? inline`and s.id = any(array(select private.site_search_page(
            ${params.org}::uuid, ${containsPattern(query.q)}, ${query.archived ?? 'false'},
            ${after ? (after[0] as string) : null}::text, ${after ? (after[1] as string) : null}::uuid, ${query.limit + 1}::int)))`
        : inline``;
      page = inline`
        select s.* from public.sites s
        where s.org_id = ${params.org} and ${archived} and ${search} and ${inGroup} and ${ownGroup} ${searchPage}
          and ${after ? inline`(s.name, s.id) > (${after[0] as string}, ${after[1] as string}::uuid)` : inline`true`}
        order by s.name, s.id
        limit ${query.limit + 1}
      `;
    } else {
      // Nearest first, by the KNN order of sites_position_idx: `<->` between points on the unit
      // sphere (chord length) orders as the great-circle distance does. Sites without a position
      // come last, by id. The cursor holds the chord length; distance_m is the haversine in metres.
      const here = inline`private.site_point(${near.latitude}::float8, ${near.longitude}::float8)`;
      const chord = inline`(private.site_point(s.latitude, s.longitude) operator(extensions.<->) ${here})`;
      const afterClause = !after
        ? inline`true`
        : after[0] === null
        ? inline`s.latitude is null and s.id > ${after[1] as string}::uuid`
        : inline`(${chord} > ${after[0] as number}::float8 or (${chord} = ${after[0] as number}::float8 and s.id > ${
          after[1] as string
        }::uuid) or s.latitude is null)`;
      page = inline`
        select s.*,
               private.distance_m(${near.latitude}::float8, ${near.longitude}::float8, s.latitude, s.longitude) as distance_m,
               ${chord} as chord
        from public.sites s
        where s.org_id = ${params.org} and ${archived} and ${search} and ${inGroup} and ${ownGroup} and ${afterClause}
        order by ${chord}, s.id
        limit ${query.limit + 1}
      `;
    }
    // The membership check and the page in one round trip (issue 15): RLS shows a non-member no
    // rows, and the check's 404 wins when it fails.
    const [role, found] = await read([roleStatement(params.org), page]);
    roleAllowed(role);
    const rows = found as SiteRow[];
    return pageOf(rows, query.limit, siteOf, (row) => (near ? [row.chord ?? null, row.id] : [row.name, row.id]));
  },
});

export const createSite = route({
  method: 'POST',
  response: siteSchema,
  path: '/orgs/:org/sites',
  params: orgParams,
  body: siteCreateSchema,
  status: 201,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      await checkSiteGroup(tx, params.org, body.group_id ?? null);
      const [row] = await withGroupErrors(
        () => tx<SiteRow[]>`insert into public.sites ${tx({ org_id: params.org, ...columnsOf(body) })} returning *`,
        unknownGroup('group_id'),
      );
      return siteOf(row);
    });
  },
});

export const getSite = route({
  method: 'GET',
  response: siteSchema,
  path: '/orgs/:org/sites/:id',
  params: siteParams,
  handler: async ({ params, read }) => {
    // One round trip (issue 15): RLS shows a non-member no row, which is the same 404.
    const [[row]] = await read([inline`select * from public.sites where org_id = ${params.org} and id = ${params.id}`]);
    if (!row) throw ApiError.notFound('site');
    return siteOf(row as SiteRow);
  },
});

export const updateSite = route({
  method: 'PATCH',
  response: siteSchema,
  path: '/orgs/:org/sites/:id',
  params: siteParams,
  body: siteUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      const current = await readSite(tx, params.org, params.id);
      const changes: Record<string, unknown> = columnsOf(body);
      if (body.group_id !== undefined && body.group_id !== current.group_id) await checkSiteGroup(tx, params.org, body.group_id);
      // Archiving an archived site keeps the date it was first archived.
      if (body.archived !== undefined && body.archived !== (current.archived_at !== null)) {
        changes.archived_at = body.archived ? new Date() : null;
      }
      if (Object.keys(changes).length === 0) return siteOf(current);
      const [row] = await withGroupErrors(
        () => tx<SiteRow[]>`update public.sites set ${tx(changes)} where org_id = ${params.org} and id = ${params.id} returning *`,
        unknownGroup('group_id'),
      );
      if (!row) throw ApiError.forbidden();
      return siteOf(row);
    });
  },
});

export const archiveSite = route({
  method: 'DELETE',
  response: siteSchema,
  path: '/orgs/:org/sites/:id',
  params: siteParams,
  handler: async ({ params, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      const [row] = await tx<SiteRow[]>`
        update public.sites set archived_at = coalesce(archived_at, now())
        where org_id = ${params.org} and id = ${params.id}
        returning *
      `;
      if (!row) throw ApiError.notFound('site');
      return siteOf(row);
    });
  },
});

export const moveSites = route({
  method: 'POST',
  response: sitesMovedSchema,
  path: '/orgs/:org/sites/move',
  summary: 'Put several sites (up to 500) in one group at once, or in none with group_id null: all of them, or none',
  params: orgParams,
  body: sitesMoveSchema,
  handler: async ({ params, body, db }): Promise<SitesMoved> => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SITE_MANAGERS);
      await checkSiteGroup(tx, params.org, body.group_id);
      // Sites the caller cannot see are as unknown as another organization's (docs/site-groups.md).
      const seen = await tx<{ id: string; group_id: string | null }[]>`
        select id, group_id from public.sites where org_id = ${params.org} and id = any(${body.site_ids}::uuid[])
      `;
      if (seen.length < body.site_ids.length) {
        const found = new Set(seen.map((site) => site.id));
        const unknown = body.site_ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
        throw ApiError.validation(unknown.map((i) => ({ field: `site_ids.${i}`, message: 'Choose sites of this organization.' })));
      }
      // Sites already there are left alone: no change, no audit entry, no event.
      const moving = seen.filter((site) => site.group_id !== body.group_id).map((site) => site.id);
      if (moving.length > 0) {
        const moved = await withGroupErrors(
          () => tx`update public.sites set group_id = ${body.group_id} where org_id = ${params.org} and id = any(${moving}::uuid[]) returning id`,
          unknownGroup('group_id'),
        );
        if (moved.length < moving.length) throw ApiError.forbidden();
      }
      return { group_id: body.group_id, site_ids: body.site_ids };
    });
  },
});
