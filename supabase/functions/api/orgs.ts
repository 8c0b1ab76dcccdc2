// Organizations: `GET·POST /orgs`, `GET·PATCH·DELETE /orgs/{org}`. Creating one makes the
// caller its owner (a trigger in SQL); settings belong to owners and admins, deletion to owners.
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema, pageQuerySchema, type Role } from '../_shared/schemas/common.ts';
import {
  type Organization,
  organizationCreateSchema,
  organizationSchema,
  organizationUpdateSchema,
  slugFromName,
} from '../_shared/schemas/organizations.ts';
import { iso, requireRole } from './access.ts';
import { z } from 'zod';

interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  require_mfa: boolean;
  default_geofence_m: number;
  created_at: Date;
  updated_at: Date;
  role: Role;
}

export const orgParams = z.strictObject({ org: idSchema });

function organizationOf(row: OrganizationRow): Organization {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    require_mfa: row.require_mfa,
    default_geofence_m: row.default_geofence_m,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    role: row.role,
  };
}

/**
 * The caller's organizations (RLS shows only those), each with the caller's role in it: a
 * member's, or for an API key the key's role in its one organization.
 */
const selectOrganizations = (tx: Tx) => tx`
  select o.id, o.slug, o.name, o.require_mfa, o.default_geofence_m, o.created_at, o.updated_at,
         private.current_org_role(o.id) as role
  from public.organizations o
`;

async function readOrganization(tx: Tx, orgId: string): Promise<Organization> {
  const [row] = await tx<OrganizationRow[]>`${selectOrganizations(tx)} where o.id = ${orgId}`;
  if (!row) throw ApiError.notFound('organization');
  return organizationOf(row);
}

export const listOrganizations = route({
  method: 'GET',
  response: { list: organizationSchema },
  path: '/orgs',
  usersOnly: true,
  query: pageQuerySchema,
  handler: async ({ query, db }) => {
    const after = decodeCursor(query.cursor, ['string', 'uuid']);
    const rows = await db((tx) =>
      tx<OrganizationRow[]>`
        ${selectOrganizations(tx)}
        where ${after ? tx`(o.name, o.id) > (${after[0] as string}, ${after[1] as string}::uuid)` : tx`true`}
        order by o.name, o.id
        limit ${query.limit + 1}
      `
    );
    return pageOf(rows, query.limit, organizationOf, (row) => [row.name, row.id]);
  },
});

export const createOrganization = route({
  method: 'POST',
  response: organizationSchema,
  path: '/orgs',
  usersOnly: true,
  body: organizationCreateSchema,
  status: 201,
  handler: async ({ body, db }) => {
    const id = crypto.randomUUID();
    return await db(async (tx) => {
      const insert = (sql: Tx, slug: string) =>
        sql`
          insert into public.organizations (id, slug, name, require_mfa, default_geofence_m)
          values (${id}, ${slug}, ${body.name}, ${body.require_mfa ?? false}, ${body.default_geofence_m ?? 200})
        `;
      if (body.slug !== undefined) {
        await insert(tx, body.slug);
      } else {
        // A suggested slug that is taken gets a short random suffix instead of an error.
        const base = slugFromName(body.name);
        for (let attempt = 0; ; attempt++) {
          const slug = attempt === 0 ? base : `${base.slice(0, 33).replace(/-+$/, '')}-${randomSuffix()}`;
          try {
            await tx.savepoint((sp) => insert(sp, slug));
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '23505' || attempt >= 5) throw error;
          }
        }
      }
      return await readOrganization(tx, id);
    });
  },
});

/** Six random lowercase letters and digits. */
function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36)).join('');
}

export const getOrganization = route({
  method: 'GET',
  response: organizationSchema,
  path: '/orgs/:org',
  params: orgParams,
  handler: async ({ params, db }) => {
    return await db((tx) => readOrganization(tx, params.org));
  },
});

export const updateOrganization = route({
  method: 'PATCH',
  response: organizationSchema,
  path: '/orgs/:org',
  usersOnly: true,
  params: orgParams,
  body: organizationUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, ['owner', 'admin']);
      const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      await tx`update public.organizations set ${tx(changes)} where id = ${params.org}`;
      return await readOrganization(tx, params.org);
    });
  },
});

export const deleteOrganization = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org',
  usersOnly: true,
  params: orgParams,
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      await requireRole(tx, params.org, ['owner']);
      await tx`delete from public.organizations where id = ${params.org}`;
    });
    return undefined;
  },
});
