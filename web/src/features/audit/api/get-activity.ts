import type { AuditEntry } from '@schemas/audit';
import type { Page } from '@schemas/common';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export const activityKeys = {
  all: (orgId: string) => ['activity', orgId] as const,
  latest: (orgId: string, limit: number) => ['activity', orgId, 'latest', limit] as const,
};

/** `GET /orgs/{org}/activity`: the latest steps of the work, newest first. */
export function getActivity(orgId: string, limit: number): Promise<Page<AuditEntry>> {
  return callApi<Page<AuditEntry>>(apiPath('orgs', orgId, 'activity'), { query: { limit } });
}

export function activityQueryOptions(orgId: string, limit: number) {
  return queryOptions({ queryKey: activityKeys.latest(orgId, limit), queryFn: () => getActivity(orgId, limit) });
}

export function useActivity(orgId: string, limit = 15) {
  return useQuery(activityQueryOptions(orgId, limit));
}
