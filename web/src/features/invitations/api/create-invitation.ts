import type { Invitation, InvitationCreate } from '@schemas/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { invitationKeys } from './get-invitations';

export interface CreateInvitationInput {
  orgId: string;
  body: InvitationCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/invitations`: mails the address a link to join with `role`. */
export function createInvitation({ orgId, body, idempotencyKey }: CreateInvitationInput): Promise<Invitation> {
  return callApi<Invitation>(apiPath('orgs', orgId, 'invitations'), { method: 'POST', body, idempotencyKey });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: (_invitation, { orgId }) => queryClient.invalidateQueries({ queryKey: invitationKeys.all(orgId) }),
  });
}
