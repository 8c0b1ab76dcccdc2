// `GET /me` and `PATCH /me`: the caller's own profile. Both run as the caller, so the profiles
// policies decide; a missing row (RLS hid it or it does not exist) is a 404.
import type { UserPrincipal } from '../_shared/auth.ts';
import { withCaller, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { type Me, profileUpdateSchema } from '../_shared/schemas/profile.ts';

interface ProfileRow {
  user_id: string;
  display_name: string;
  created_at: Date;
  updated_at: Date;
}

function userOf(principal: { kind: string }): UserPrincipal {
  // A profile belongs to a person; API keys have no "me".
  if (principal.kind !== 'user') throw ApiError.forbidden('Only signed-in users have a profile.');
  return principal as UserPrincipal;
}

function meOf(user: UserPrincipal, row: ProfileRow | undefined): Me {
  if (!row) throw ApiError.notFound('profile');
  return {
    user_id: row.user_id,
    email: typeof user.claims.email === 'string' && user.claims.email !== '' ? user.claims.email : null,
    display_name: row.display_name,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // Organizations arrive in a later issue; the shape is already the final one.
    memberships: [],
  };
}

async function readProfile(tx: Tx, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await tx<ProfileRow[]>`
    select user_id, display_name, created_at, updated_at
    from public.profiles
    where user_id = ${userId}
  `;
  return row;
}

export const getMe = route({
  method: 'GET',
  path: '/me',
  handler: async ({ principal }) => {
    const user = userOf(principal);
    return meOf(user, await withCaller(user, (tx) => readProfile(tx, user.userId)));
  },
});

export const patchMe = route({
  method: 'PATCH',
  path: '/me',
  body: profileUpdateSchema,
  handler: async ({ principal, body }) => {
    const user = userOf(principal);
    const row = await withCaller(user, async (tx) => {
      const [updated] = await tx<ProfileRow[]>`
        update public.profiles
        set display_name = ${body.display_name}
        where user_id = ${user.userId}
        returning user_id, display_name, created_at, updated_at
      `;
      return updated;
    });
    return meOf(user, row);
  },
});
