// Members (`/orgs/{org}/members`) and invitations (`/orgs/{org}/invitations`,
// `/invitations/accept`). Members join only by accepting an invitation sent to their email.
import { z } from 'zod';
import { emailSchema, type Role, roleSchema } from './common.ts';

export const INVITATION_LIFETIME_DAYS = 7;

export const memberUpdateSchema = z.strictObject({ role: roleSchema });

export const invitationCreateSchema = z.strictObject({
  email: emailSchema,
  role: roleSchema,
});

/** Tokens are 43 base64url characters (32 random bytes); the length bounds a probe. */
export const invitationTokenSchema = z.strictObject({
  token: z
    .string({ error: 'This invitation link is not complete.' })
    .regex(/^[A-Za-z0-9_-]{20,128}$/, { error: 'This invitation link is not complete.' }),
});

export type MemberUpdate = z.infer<typeof memberUpdateSchema>;
export type InvitationCreate = z.infer<typeof invitationCreateSchema>;

export interface Member {
  user_id: string;
  display_name: string;
  email: string | null;
  role: Role;
  joined_at: string;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  expires_at: string;
  invited_by: string | null;
  created_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/** What the accept page shows before the invitee accepts (`POST /invitations/preview`). */
export interface InvitationPreview {
  org_name: string;
  role: Role;
  email: string;
  invited_by_name: string | null;
  expires_at: string;
  status: InvitationStatus;
}

/** Response of `POST /invitations/accept`. */
export interface AcceptedInvitation {
  org_id: string;
  org_slug: string;
  org_name: string;
  role: Role;
}
