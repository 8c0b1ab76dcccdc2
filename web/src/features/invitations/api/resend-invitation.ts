import type { Invitation } from '@schemas/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { invitationKeys } from './get-invitations';

export interface ResendInvitationInput {
  orgId: string;
  invitationId: string;
  /** One per click: a retried request then mails once. */
  idempotencyKey: string;
}

/** `POST /orgs/{org}/invitations/{id}/resend`: a new link, mailed; the old one stops working. */
export function resendInvitation({ orgId, invitationId, idempotencyKey }: ResendInvitationInput): Promise<Invitation> {
  return callApi<Invitation>(apiPath('orgs', orgId, 'invitations', invitationId, 'resend'), { method: 'POST', idempotencyKey });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSettled: (_result, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: invitationKeys.all(orgId) }),
  });
}
