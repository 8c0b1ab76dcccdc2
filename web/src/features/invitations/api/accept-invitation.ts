import type { AcceptedInvitation } from '@schemas/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api';
import { invitationKeys } from './get-invitations';

export interface AcceptInvitationInput {
  token: string;
  idempotencyKey: string;
}

/** `POST /invitations/accept`: the signed-in user joins the organization (again: same answer). */
export function acceptInvitation({ token, idempotencyKey }: AcceptInvitationInput): Promise<AcceptedInvitation> {
  return callApi<AcceptedInvitation>('invitations/accept', { method: 'POST', body: { token }, idempotencyKey });
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSettled: (_accepted, _error, { token }) => queryClient.invalidateQueries({ queryKey: invitationKeys.preview(token) }),
  });
}
