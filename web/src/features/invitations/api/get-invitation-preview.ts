import type { InvitationPreview } from '@schemas/members';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api';
import { invitationKeys } from './get-invitations';

/**
 * `POST /invitations/preview`: what the link invites to. A read, so it goes without an
 * Idempotency-Key: a stored answer would hide a later accept or revoke.
 */
export function getInvitationPreview(token: string): Promise<InvitationPreview> {
  return callApi<InvitationPreview>('invitations/preview', { method: 'POST', body: { token } });
}

export function invitationPreviewQueryOptions(token: string) {
  return queryOptions({ queryKey: invitationKeys.preview(token), queryFn: () => getInvitationPreview(token) });
}

export function useInvitationPreview(token: string) {
  return useQuery(invitationPreviewQueryOptions(token));
}
