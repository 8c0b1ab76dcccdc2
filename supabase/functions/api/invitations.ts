// Invitations: `GET·POST /orgs/{org}/invitations`, `DELETE /orgs/{org}/invitations/{id}` for
// owners and admins; `POST /invitations/preview` and `POST /invitations/accept` for the invitee.
// The token exists only in the mail: the database keeps its SHA-256.
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { escapeHtml, sendMail, siteUrl } from '../_shared/mail.ts';
import { base64UrlEncode } from '../_shared/encoding.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema, pageQuerySchema, type Role } from '../_shared/schemas/common.ts';
import {
  type AcceptedInvitation,
  acceptedInvitationSchema,
  type Invitation,
  INVITATION_LIFETIME_DAYS,
  invitationCreateSchema,
  type InvitationPreview,
  invitationPreviewSchema,
  invitationSchema,
  type InvitationStatus,
  invitationTokenSchema,
} from '../_shared/schemas/members.ts';
import { iso, MEMBER_MANAGERS, requireRole, requireUser } from './access.ts';
import { orgParams } from './orgs.ts';

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  expires_at: Date;
  invited_by: string | null;
  created_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

const ROLE_NAMES: Record<Role, string> = {
  owner: 'an owner',
  admin: 'an admin',
  manager: 'a manager',
  inspector: 'an inspector',
  viewer: 'a viewer',
};

// The state as docs/product.md §4 names it; expired is derived from time.
const selectInvitation = (tx: Tx) => tx`
  select id, email, role, expires_at, invited_by, created_at, accepted_at, revoked_at,
         case when accepted_at is not null then 'accepted'
              when revoked_at is not null then 'revoked'
              when expires_at <= now() then 'expired'
              else 'pending' end as status
  from public.invitations
`;

function invitationOf(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    expires_at: iso(row.expires_at),
    invited_by: row.invited_by,
    created_at: iso(row.created_at),
    accepted_at: iso(row.accepted_at),
    revoked_at: iso(row.revoked_at),
  };
}

async function readInvitation(tx: Tx, orgId: string, id: string): Promise<InvitationRow> {
  const [row] = await tx<InvitationRow[]>`${selectInvitation(tx)} where org_id = ${orgId} and id = ${id}`;
  if (!row) throw ApiError.notFound('invitation');
  return row;
}

/** 32 random bytes, base64url: the secret in the invitation link. */
function newToken(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
}

const listQuery = pageQuerySchema.extend({
  status: z.enum(['pending', 'accepted', 'revoked', 'expired'], { error: 'Use pending, accepted, revoked or expired.' })
    .optional(),
});

export const listInvitations = route({
  method: 'GET',
  response: { list: invitationSchema },
  path: '/orgs/:org/invitations',
  usersOnly: true,
  params: orgParams,
  query: listQuery,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      // The cursor keeps created_at's microseconds: JavaScript dates stop at milliseconds.
      return await tx<(InvitationRow & { created_at_key: string })[]>`
        select i.*, to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_key
        from (${selectInvitation(tx)} where org_id = ${params.org}) i
        where ${query.status ? tx`i.status = ${query.status}` : tx`true`}
          and ${after ? tx`(i.created_at, i.id) < (${after[0] as string}::text::timestamptz, ${after[1] as string}::uuid)` : tx`true`}
        order by i.created_at desc, i.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, invitationOf, (row) => [row.created_at_key, row.id]);
  },
});

export const createInvitation = route({
  method: 'POST',
  response: invitationSchema,
  path: '/orgs/:org/invitations',
  usersOnly: true,
  params: orgParams,
  body: invitationCreateSchema,
  status: 201,
  handler: async ({ principal, params, body, db }) => {
    const user = requireUser(principal);
    return await db(async (tx) => {
      const callerRole = await requireRole(tx, params.org, MEMBER_MANAGERS);
      if (body.role === 'owner' && callerRole !== 'owner') throw ApiError.forbidden('Only owners can invite owners.');
      return invitationOf(await inviteAndMail(tx, params.org, body.email, body.role, user.userId));
    });
  },
});

/**
 * A new pending invitation with a new link, mailed. Sent before commit: if the mail server
 * refuses, nothing is stored and the caller retries.
 */
async function inviteAndMail(tx: Tx, orgId: string, email: string, role: Role, inviterId: string): Promise<InvitationRow> {
  const token = newToken();
  // Hashed by the same SQL function that accepting uses; a new invitation is pending.
  const [invitation] = await tx<InvitationRow[]>`
    insert into public.invitations (org_id, email, role, token_hash, invited_by)
    values (${orgId}, ${email}, ${role}, private.hash_invitation_token(${token}), ${inviterId})
    returning id, email, role, expires_at, invited_by, created_at, accepted_at, revoked_at, 'pending' as status
  `;
  const [names] = await tx<{ org_name: string; inviter: string }[]>`
    select o.name as org_name, p.display_name as inviter
    from public.organizations o, public.profiles p
    where o.id = ${orgId} and p.user_id = ${inviterId}
  `;
  await sendMail(invitationMail(email, names.org_name, names.inviter, role, `${siteUrl()}/invitations/${token}`));
  return invitation;
}

export const resendInvitation = route({
  method: 'POST',
  response: invitationSchema,
  path: '/orgs/:org/invitations/:id/resend',
  usersOnly: true,
  status: 201,
  summary: 'Send a pending or expired invitation again: a new link, valid for 7 days; the old link stops working',
  params: z.strictObject({ org: idSchema, id: idSchema }),
  handler: async ({ principal, params, db }) => {
    const user = requireUser(principal);
    return await db(async (tx) => {
      const callerRole = await requireRole(tx, params.org, MEMBER_MANAGERS);
      const old = await readInvitation(tx, params.org, params.id);
      if (old.role === 'owner' && callerRole !== 'owner') throw ApiError.forbidden('Only owners can invite owners.');
      if (old.status === 'accepted' || old.status === 'revoked') throw ApiError.invalidTransition(old.status, 'sent again', 'invitation');
      // The old link is retired (revoked) and a new invitation made: one open invitation per address.
      await tx`update public.invitations set revoked_at = now() where org_id = ${params.org} and id = ${params.id} and revoked_at is null`;
      return invitationOf(await inviteAndMail(tx, params.org, old.email, old.role, user.userId));
    });
  },
});

function invitationMail(to: string, orgName: string, inviter: string, role: Role, link: string) {
  const subject = `${inviter} invited you to join ${orgName} on Fieldcheck`;
  const text = [
    `${inviter} invited you to join ${orgName} on Fieldcheck as ${ROLE_NAMES[role]}.`,
    '',
    `Accept the invitation: ${link}`,
    '',
    `The link works for ${INVITATION_LIFETIME_DAYS} days. If you don't know ${inviter}, ignore this email.`,
  ].join('\n');
  const html = `<p>${escapeHtml(inviter)} invited you to join <strong>${escapeHtml(orgName)}</strong> on Fieldcheck as ${
    ROLE_NAMES[role]
  }.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link works for ${INVITATION_LIFETIME_DAYS} days. If you don't know ${
    escapeHtml(inviter)
  }, ignore this email.</p>`;
  return { to, subject, text, html };
}

export const revokeInvitation = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/invitations/:id',
  usersOnly: true,
  params: z.strictObject({ org: idSchema, id: idSchema }),
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      const callerRole = await requireRole(tx, params.org, MEMBER_MANAGERS);
      const invitation = await readInvitation(tx, params.org, params.id);
      if (invitation.role === 'owner' && callerRole !== 'owner') throw ApiError.forbidden('Only owners can revoke owner invitations.');
      await tx`update public.invitations set revoked_at = now() where org_id = ${params.org} and id = ${params.id}`;
    });
    return undefined;
  },
});

export const previewInvitation = route({
  method: 'POST',
  response: invitationPreviewSchema,
  path: '/invitations/preview',
  usersOnly: true,
  body: invitationTokenSchema,
  handler: async ({ body, db }) => {
    const [row] = await db((tx) =>
      tx<(Omit<InvitationPreview, 'expires_at'> & { expires_at: Date })[]>`
        select org_name, role, email, invited_by_name, expires_at, status from private.preview_invitation(${body.token})
      `
    );
    if (!row) throw ApiError.notFound('invitation');
    return { ...row, expires_at: iso(row.expires_at) } satisfies InvitationPreview;
  },
});

export const acceptInvitation = route({
  method: 'POST',
  response: acceptedInvitationSchema,
  path: '/invitations/accept',
  usersOnly: true,
  body: invitationTokenSchema,
  handler: async ({ body, db }) => {
    return await db(async (tx) => {
      const [{ org_id }] = await tx<{ org_id: string }[]>`select private.accept_invitation(${body.token}) as org_id`;
      const [row] = await tx<AcceptedInvitation[]>`
        select o.id as org_id, o.slug as org_slug, o.name as org_name, m.role
        from public.organizations o
        join public.memberships m on m.org_id = o.id and m.user_id = (select auth.uid())
        where o.id = ${org_id}
      `;
      return row;
    });
  },
});
