import type { Role } from '@schemas/common';
import type { Member } from '@schemas/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { memberKeys } from './get-members';

export interface UpdateMemberRoleInput {
  orgId: string;
  userId: string;
  role: Role;
}

/** `PATCH /orgs/{org}/members/{user_id}` with a new role. */
export function updateMemberRole({ orgId, userId, role }: UpdateMemberRoleInput): Promise<Member> {
  return callApi<Member>(apiPath('orgs', orgId, 'members', userId), { method: 'PATCH', body: { role } });
}

export function useUpdateMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMemberRole,
    onSettled: (_member, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: memberKeys.all(orgId) }),
  });
}
