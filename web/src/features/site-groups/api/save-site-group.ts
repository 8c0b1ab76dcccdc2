import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { SiteGroup } from '../types';
import { siteGroupKeys } from './get-site-groups';

/**
 * What a change of groups makes stale: the groups, and the sites (their group, the lists filtered
 * by group: the sites feature's `siteKeys.all`, written out so that the features stay apart).
 */
export function afterGroupsChanged(queryClient: QueryClient, orgId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: siteGroupKeys.all(orgId) }),
    queryClient.invalidateQueries({ queryKey: ['sites', orgId] }),
  ]);
}

export interface CreateSiteGroupInput {
  orgId: string;
  body: { name: string; parent_id: string | null };
  idempotencyKey: string;
}

/** `POST /orgs/{org}/site-groups`. */
export function createSiteGroup({ orgId, body, idempotencyKey }: CreateSiteGroupInput): Promise<SiteGroup> {
  return callApi<SiteGroup>(apiPath('orgs', orgId, 'site-groups'), { method: 'POST', body, idempotencyKey });
}

export function useCreateSiteGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSiteGroup, onSuccess: (_group, { orgId }) => afterGroupsChanged(queryClient, orgId) });
}

export interface UpdateSiteGroupInput {
  orgId: string;
  groupId: string;
  /** A new name, a new parent (null: the top level), or both. */
  body: { name?: string; parent_id?: string | null };
}

/** `PATCH /orgs/{org}/site-groups/{id}`: rename or move. */
export function updateSiteGroup({ orgId, groupId, body }: UpdateSiteGroupInput): Promise<SiteGroup> {
  return callApi<SiteGroup>(apiPath('orgs', orgId, 'site-groups', groupId), { method: 'PATCH', body });
}

export function useUpdateSiteGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateSiteGroup, onSuccess: (_group, { orgId }) => afterGroupsChanged(queryClient, orgId) });
}

/** `DELETE /orgs/{org}/site-groups/{id}`: refused while sites or subgroups are in it. */
export function deleteSiteGroup({ orgId, groupId }: { orgId: string; groupId: string }): Promise<void> {
  return callApi<void>(apiPath('orgs', orgId, 'site-groups', groupId), { method: 'DELETE' });
}

export function useDeleteSiteGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteSiteGroup, onSuccess: (_nothing, { orgId }) => afterGroupsChanged(queryClient, orgId) });
}
