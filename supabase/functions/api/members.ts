// Members: `GET /orgs/{org}/members`, `GET·PATCH·DELETE /orgs/{org}/members/{user_id}`, `PUT
// /orgs/{org}/members/{user_id}/access` (the sites a member sees: docs/site-groups.md). Owners
// manage everyone, admins everyone but owners; anyone may leave. SQL keeps the last owner.
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema, pageQuerySchema, type Role } from '../_shared/schemas/common.ts';
import { type Member, memberSchema, memberUpdateSchema } from '../_shared/schemas/members.ts';
import { memberAccessSchema } from '../_shared/schemas/site-groups.ts';
import { iso, MEMBER_MANAGERS, requireRole, requireUser } from './access.ts';
import { orgParams } from './orgs.ts';

interface MemberRow {
  user_id: string;
  display_name: string;
  email: string | null;
  role: Role;
  joined_at: Date;
  org_wide: boolean;
  site_group_ids: string[];
}

const memberParams = z.strictObject({ org: idSchema, user_id: idSchema });

function memberOf(row: MemberRow): Member {
  return {
    user_id: row.user_id,
    display_name: row.display_name,
    email: row.email,
    role: row.role,
    joined_at: iso(row.joined_at),
    org_wide: row.org_wide,
    site_group_ids: row.site_group_ids,
  };
}

/** Members with the name and address their profile shows, and the groups they are limited to. */
const selectMembers = (tx: Tx) => tx`
  select m.user_id, p.display_name, p.email, m.role, m.created_at as joined_at, not m.site_access_limited as org_wide,
         array(select g.site_group_id from public.membership_site_groups g
               where g.org_id = m.org_id and g.user_id = m.user_id order by g.site_group_id) as site_group_ids
  from public.memberships m
  join public.profiles p on p.user_id = m.user_id
`;

async function readMember(tx: Tx, orgId: string, userId: string): Promise<MemberRow> {
  const [row] = await tx<MemberRow[]>`${selectMembers(tx)} where m.org_id = ${orgId} and m.user_id = ${userId}`;
  if (!row) throw ApiError.notFound('member');
  return row;
}

/** Admins may not touch owners or make anyone an owner (docs/product.md §6). */
function checkOwnerRule(callerRole: Role, targetRole: Role, newRole?: Role) {
  if (callerRole !== 'owner' && (targetRole === 'owner' || newRole === 'owner')) {
    throw ApiError.forbidden('Only owners can change or remove owners.');
  }
}

export const listMembers = route({
  method: 'GET',
  response: { list: memberSchema },
  path: '/orgs/:org/members',
  params: orgParams,
  query: pageQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['string', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await tx<MemberRow[]>`
        ${selectMembers(tx)}
        where m.org_id = ${params.org}
          and ${after ? tx`(p.display_name, m.user_id) > (${after[0] as string}, ${after[1] as string}::uuid)` : tx`true`}
        order by p.display_name, m.user_id
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, memberOf, (row) => [row.display_name, row.user_id]);
  },
});

export const updateMember = route({
  method: 'PATCH',
  response: memberSchema,
  path: '/orgs/:org/members/:user_id',
  usersOnly: true,
  params: memberParams,
  body: memberUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      const callerRole = await requireRole(tx, params.org, MEMBER_MANAGERS);
      const target = await readMember(tx, params.org, params.user_id);
      checkOwnerRule(callerRole, target.role, body.role);
      const updated = await tx`
        update public.memberships set role = ${body.role} where org_id = ${params.org} and user_id = ${params.user_id} returning 1
      `;
      if (updated.length === 0) throw ApiError.forbidden();
      // Read again: becoming an owner or admin ends a limit to groups (a trigger).
      return memberOf(await readMember(tx, params.org, params.user_id));
    });
  },
});

export const getMember = route({
  method: 'GET',
  response: memberSchema,
  path: '/orgs/:org/members/:user_id',
  params: memberParams,
  handler: async ({ params, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org);
      return memberOf(await readMember(tx, params.org, params.user_id));
    });
  },
});

export const setMemberAccess = route({
  method: 'PUT',
  response: memberSchema,
  path: '/orgs/:org/members/:user_id/access',
  usersOnly: true,
  summary: 'Limit a member to some site groups (and their subgroups), or with an empty list let them see every site (owners and admins)',
  params: memberParams,
  body: memberAccessSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      const callerRole = await requireRole(tx, params.org, MEMBER_MANAGERS);
      const target = await readMember(tx, params.org, params.user_id);
      checkOwnerRule(callerRole, target.role);
      // The database refuses owner and admin targets ("Owners and admins always see every site.")
      // and groups of another organization with field errors on site_group_ids.
      await tx`select private.set_member_site_access(${params.org}, ${params.user_id}, ${body.site_group_ids}::uuid[])`;
      return memberOf(await readMember(tx, params.org, params.user_id));
    });
  },
});

export const removeMember = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/members/:user_id',
  usersOnly: true,
  params: memberParams,
  handler: async ({ principal, params, db }) => {
    const user = requireUser(principal);
    await db(async (tx) => {
      const leaving = params.user_id === user.userId;
      const callerRole = await requireRole(tx, params.org, leaving ? undefined : MEMBER_MANAGERS);
      const target = await readMember(tx, params.org, params.user_id);
      if (!leaving) checkOwnerRule(callerRole, target.role);
      const removed = await tx`
        delete from public.memberships where org_id = ${params.org} and user_id = ${params.user_id} returning 1
      `;
      if (removed.length === 0) throw ApiError.forbidden();
    });
    return undefined;
  },
});
