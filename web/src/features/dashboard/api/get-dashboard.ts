import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@schemas/dashboard';
import { apiPath, callApi } from '@/lib/api';

export const dashboardKeys = {
  all: (orgId: string) => ['dashboard', orgId] as const,
};

/** `GET /orgs/{org}/dashboard`: counts for the organization's home page, of one site group (and its subgroups) when `groupId` is given. */
export function getDashboard(orgId: string, groupId: string): Promise<Dashboard> {
  return callApi<Dashboard>(apiPath('orgs', orgId, 'dashboard'), { query: { site_group_id: groupId } });
}

export function dashboardQueryOptions(orgId: string, groupId = '') {
  return queryOptions({ queryKey: [...dashboardKeys.all(orgId), groupId] as const, queryFn: () => getDashboard(orgId, groupId) });
}

export function useDashboard(orgId: string, groupId = '') {
  // Another group keeps the counts on screen until its own arrive, so the tiles don't flash.
  return useQuery({ ...dashboardQueryOptions(orgId, groupId), placeholderData: keepPreviousData });
}
