import type { SitesMoved } from '@schemas/site-groups';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { afterGroupsChanged } from './save-site-group';

/** The most sites one request moves: the api's SITES_MOVED_AT_ONCE (@schemas/site-groups, a zod module this page need not load). */
export const SITES_PER_MOVE = 500;

export interface MoveSitesInput {
  orgId: string;
  /** The group they go to; null: out of every group. */
  groupId: string | null;
  siteIds: string[];
  idempotencyKey: string;
}

/** `POST /orgs/{org}/sites/move` `{site_ids, group_id}`: several sites into a group, or out of theirs (null), all or none. */
export function moveSites({ orgId, groupId, siteIds, idempotencyKey }: MoveSitesInput): Promise<SitesMoved> {
  return callApi<SitesMoved>(apiPath('orgs', orgId, 'sites', 'move'), { method: 'POST', body: { site_ids: siteIds, group_id: groupId }, idempotencyKey });
}

export function useMoveSites() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveSites, onSuccess: (_answer, { orgId }) => afterGroupsChanged(queryClient, orgId) });
}
