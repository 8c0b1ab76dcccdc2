// `GET /me` and `PATCH /me`: the caller's own profile and the organizations they belong to. Both
// run as the caller, so the policies decide; a missing profile (RLS hid it or it does not exist)
// is a 404.
import type { UserPrincipal } from '../_shared/auth.ts';
import type { Rows, Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { type Me, type Membership, meSchema, profileUpdateSchema } from '../_shared/schemas/profile.ts';
import { iso, requireUser } from './access.ts';

interface ProfileRow {
  user_id: string;
  display_name: string;
  created_at: Date;
  updated_at: Date;
}

/** The caller's profile and memberships: two statements, read together (`read`, or in a transaction). */
function meStatements(user: UserPrincipal): InlineSql[] {
  return [
    inline`select user_id, display_name, created_at, updated_at from public.profiles where user_id = ${user.userId}`,
    inline`
      select o.id as org_id, o.slug as org_slug, o.name as org_name, m.role
      from public.memberships m
      join public.organizations o on o.id = m.org_id
      where m.user_id = ${user.userId}
      order by o.name, o.id
    `,
  ];
}

function meOf(user: UserPrincipal, [[row], memberships]: Rows[]): Me {
  if (!row) throw ApiError.notFound('profile');
  const profile = row as ProfileRow;
  return {
    user_id: profile.user_id,
    email: typeof user.claims.email === 'string' && user.claims.email !== '' ? user.claims.email : null,
    display_name: profile.display_name,
    created_at: iso(profile.created_at),
    updated_at: iso(profile.updated_at),
    memberships: memberships.map((m) => ({ ...m }) as Membership),
  };
}

async function readMe(tx: Tx, user: UserPrincipal): Promise<Me> {
  const rows: Rows[] = [];
  for (const statement of meStatements(user)) rows.push(await tx.unsafe<Rows>(statement.text));
  return meOf(user, rows);
}

export const getMe = route({
  method: 'GET',
  response: meSchema,
  path: '/me',
  usersOnly: true,
  handler: async ({ principal, read }) => {
    const user = requireUser(principal);
    // One round trip (issue 15): every screen of the web app starts with it.
    return meOf(user, await read(meStatements(user)));
  },
});

export const patchMe = route({
  method: 'PATCH',
  response: meSchema,
  path: '/me',
  usersOnly: true,
  body: profileUpdateSchema,
  handler: async ({ principal, body, db }) => {
    const user = requireUser(principal);
    return await db(async (tx) => {
      const updated = await tx`
        update public.profiles set display_name = ${body.display_name} where user_id = ${user.userId} returning 1
      `;
      if (updated.length === 0) throw ApiError.notFound('profile');
      return await readMe(tx, user);
    });
  },
});
