// `GET /me` and `PATCH /me`: the caller's own profile and the organizations they belong to. Both
// run as the caller, so the policies decide; a missing profile (RLS hid it or it does not exist)
// is a 404. `GET·PATCH /me/notifications`: which reminder emails the caller gets
// (docs/schedules.md, "Reminders"), their own row of public.notification_preferences.
import type { UserPrincipal } from '../_shared/auth.ts';
import type { Rows, Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { type Me, type Membership, meSchema, profileUpdateSchema } from '../_shared/schemas/profile.ts';
import {
  type NotificationPreferences,
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
} from '../_shared/schemas/notifications.ts';
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
      select o.id as org_id, o.slug as org_slug, o.name as org_name, m.role, not m.site_access_limited as org_wide,
             array(select g.site_group_id from public.membership_site_groups g
                   where g.org_id = m.org_id and g.user_id = m.user_id order by g.site_group_id) as site_group_ids
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

/** The caller's switches: their row, or every kind on when they have none yet (the columns' defaults). */
function preferencesStatement(user: UserPrincipal): InlineSql {
  return inline`
    select coalesce(p.occurrence_opened, true) as occurrence_opened, coalesce(p.occurrence_due_soon, true) as occurrence_due_soon,
           coalesce(p.occurrence_missed, true) as occurrence_missed, coalesce(p.missed_digest, true) as missed_digest
    from (select 1) one
    left join public.notification_preferences p on p.user_id = ${user.userId}
  `;
}

export const getNotificationPreferences = route({
  method: 'GET',
  response: notificationPreferencesSchema,
  path: '/me/notifications',
  usersOnly: true,
  summary: 'Which reminder emails the caller gets: each kind on or off (all on until changed)',
  handler: async ({ principal, read }) => {
    const user = requireUser(principal);
    const [[row]] = await read([preferencesStatement(user)]);
    return row as NotificationPreferences;
  },
});

export const patchNotificationPreferences = route({
  method: 'PATCH',
  response: notificationPreferencesSchema,
  path: '/me/notifications',
  usersOnly: true,
  summary: 'Turn kinds of reminder email on or off for the caller; the kinds not sent stay as they were',
  body: notificationPreferencesUpdateSchema,
  handler: async ({ principal, body, db }) => {
    const user = requireUser(principal);
    return await db(async (tx) => {
      // The first change writes the row (the kinds not sent take their default, on); later ones
      // change only the kinds sent. RLS holds it to the caller's own row.
      const [row] = await tx<NotificationPreferences[]>`
        insert into public.notification_preferences ${tx({ user_id: user.userId, ...body })}
        on conflict (user_id) do update set ${tx(body)}
        returning occurrence_opened, occurrence_due_soon, occurrence_missed, missed_digest
      `;
      return row;
    });
  },
});
