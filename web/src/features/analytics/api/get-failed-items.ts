import type { FailedItems } from '@schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { analyticsKeys } from './analytics-keys';

/** `GET /orgs/{org}/analytics/failed-items`: the most failed items, per template or per site (`group_by`). */
export function getFailedItems(orgId: string, query: Record<string, string>): Promise<FailedItems> {
  return callApi<FailedItems>(apiPath('orgs', orgId, 'analytics', 'failed-items'), { query });
}

export function failedItemsQueryOptions(orgId: string, query: Record<string, string>) {
  return queryOptions({ queryKey: analyticsKeys.measure(orgId, 'failed-items', query), queryFn: () => getFailedItems(orgId, query) });
}

export function useFailedItems(orgId: string, query: Record<string, string>) {
  // New filters keep the old figures on screen until the new ones arrive, so the charts don't flash.
  return useQuery({ ...failedItemsQueryOptions(orgId, query), placeholderData: keepPreviousData });
}
