import type { Member } from '@schemas/members';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export interface SetMemberAccessInput {
  orgId: string;
  userId: string;
  /** The groups the member is limited to; empty: every site. */
  siteGroupIds: string[];
}

/** `PUT /orgs/{org}/members/{user_id}/access` (owners and admins; never of an owner or admin). */
export function setMemberAccess({ orgId, userId, siteGroupIds }: SetMemberAccessInput): Promise<Member> {
  return callApi<Member>(apiPath('orgs', orgId, 'members', userId, 'access'), { method: 'PUT', body: { site_group_ids: siteGroupIds } });
}

export function useSetMemberAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMemberAccess,
    // The members list (the members feature's memberKeys.all, written out so that the features stay apart).
    onSettled: (_member, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: ['members', orgId] }),
  });
}
