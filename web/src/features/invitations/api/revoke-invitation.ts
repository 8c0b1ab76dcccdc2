import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { invitationKeys } from './get-invitations';

export interface RevokeInvitationInput {
  orgId: string;
  invitationId: string;
}

/** `DELETE /orgs/{org}/invitations/{id}`: the link stops working. */
export function revokeInvitation({ orgId, invitationId }: RevokeInvitationInput): Promise<void> {
  return callApi<void>(apiPath('orgs', orgId, 'invitations', invitationId), { method: 'DELETE' });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSettled: (_result, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: invitationKeys.all(orgId) }),
  });
}
