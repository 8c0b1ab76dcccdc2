import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { memberKeys } from './get-members';

export interface RemoveMemberInput {
  orgId: string;
  userId: string;
}

/** `DELETE /orgs/{org}/members/{user_id}`: removes a member, or the caller leaves. */
export function removeMember({ orgId, userId }: RemoveMemberInput): Promise<void> {
  return callApi<void>(apiPath('orgs', orgId, 'members', userId), { method: 'DELETE' });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSettled: (_result, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: memberKeys.all(orgId) }),
  });
}
