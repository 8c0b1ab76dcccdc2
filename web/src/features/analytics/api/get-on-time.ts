import type { OnTime } from '@schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { analyticsKeys } from './analytics-keys';

/** `GET /orgs/{org}/analytics/on-time`: schedules' occurrences due, on time, late and missed, per period. */
export function getOnTime(orgId: string, query: Record<string, string>): Promise<OnTime> {
  return callApi<OnTime>(apiPath('orgs', orgId, 'analytics', 'on-time'), { query });
}

export function onTimeQueryOptions(orgId: string, query: Record<string, string>) {
  return queryOptions({ queryKey: analyticsKeys.measure(orgId, 'on-time', query), queryFn: () => getOnTime(orgId, query) });
}

export function useOnTime(orgId: string, query: Record<string, string>) {
  // New filters keep the old figures on screen until the new ones arrive, so the charts don't flash.
  return useQuery({ ...onTimeQueryOptions(orgId, query), placeholderData: keepPreviousData });
}
