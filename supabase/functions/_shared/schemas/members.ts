// Members (`/orgs/{org}/members`) and invitations (`/orgs/{org}/invitations`,
// `/invitations/accept`). Members join only by accepting an invitation sent to their email.
import { z } from 'zod';
import { emailSchema, roleResponseSchema, roleSchema } from './common.ts';

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

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const memberSchema = z.object({
  user_id: z.string(),
  display_name: z.string(),
  email: z.string().nullable(),
  role: roleResponseSchema,
  joined_at: z.string(),
  org_wide: z.boolean().describe('Sees every site of the organization (owners and admins always do); false: only the sites of `site_group_ids` and their subgroups (docs/site-groups.md).'),
  site_group_ids: z.array(z.string()).describe('The groups a limited member is limited to; empty for an org-wide one.'),
}).meta({ id: 'Member' });

export const invitationStatusSchema = z.enum(['pending', 'accepted', 'revoked', 'expired']).meta({ id: 'InvitationStatus' });

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleResponseSchema,
  status: invitationStatusSchema,
  expires_at: z.string(),
  invited_by: z.string().nullable(),
  created_at: z.string(),
  accepted_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
}).meta({ id: 'Invitation' });

export const invitationPreviewSchema = z.object({
  org_name: z.string(),
  role: roleResponseSchema,
  email: z.string(),
  invited_by_name: z.string().nullable(),
  expires_at: z.string(),
  status: invitationStatusSchema,
}).meta({ id: 'InvitationPreview', description: 'What the accept page shows before the invitee accepts (`POST /invitations/preview`).' });

export const acceptedInvitationSchema = z.object({
  org_id: z.string(),
  org_slug: z.string(),
  org_name: z.string(),
  role: roleResponseSchema,
}).meta({ id: 'AcceptedInvitation', description: 'Response of `POST /invitations/accept`.' });

export type Member = z.output<typeof memberSchema>;
export type InvitationStatus = z.output<typeof invitationStatusSchema>;
export type Invitation = z.output<typeof invitationSchema>;
export type InvitationPreview = z.output<typeof invitationPreviewSchema>;
export type AcceptedInvitation = z.output<typeof acceptedInvitationSchema>;
