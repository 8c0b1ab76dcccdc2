import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { afterGroupsChanged } from './save-site-group';

/** The most sites one request moves (the api's limit). */
export const SITES_PER_MOVE = 500;

export interface MoveSitesInput {
  orgId: string;
  /** The group they go to; null: out of every group. */
  groupId: string | null;
  siteIds: string[];
  idempotencyKey: string;
}

/**
 * `POST /orgs/{org}/site-groups/{id}/sites` `{site_ids}` (or `POST /orgs/{org}/sites/ungroup`):
 * several sites into a group, or out of theirs, in one transaction.
 */
export function moveSites({ orgId, groupId, siteIds, idempotencyKey }: MoveSitesInput): Promise<unknown> {
  const path = groupId === null ? apiPath('orgs', orgId, 'sites', 'ungroup') : apiPath('orgs', orgId, 'site-groups', groupId, 'sites');
  return callApi<unknown>(path, { method: 'POST', body: { site_ids: siteIds }, idempotencyKey });
}

export function useMoveSites() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveSites, onSuccess: (_answer, { orgId }) => afterGroupsChanged(queryClient, orgId) });
}
