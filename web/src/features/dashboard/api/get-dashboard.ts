import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@schemas/dashboard';
import { apiPath, callApi } from '@/lib/api';

export const dashboardKeys = {
  all: (orgId: string) => ['dashboard', orgId] as const,
};

/** `GET /orgs/{org}/dashboard`: counts for the organization's home page. */
export function getDashboard(orgId: string): Promise<Dashboard> {
  return callApi<Dashboard>(apiPath('orgs', orgId, 'dashboard'));
}

export function dashboardQueryOptions(orgId: string) {
  return queryOptions({ queryKey: dashboardKeys.all(orgId), queryFn: () => getDashboard(orgId) });
}

export function useDashboard(orgId: string) {
  return useQuery(dashboardQueryOptions(orgId));
}
