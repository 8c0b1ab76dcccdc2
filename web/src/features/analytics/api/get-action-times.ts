import type { Actions } from '@schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { analyticsKeys } from './analytics-keys';

/** `GET /orgs/{org}/analytics/actions`: actions opened, resolved, verified and overdue, and the median times, per period and priority. */
export function getActionTimes(orgId: string, query: Record<string, string>): Promise<Actions> {
  return callApi<Actions>(apiPath('orgs', orgId, 'analytics', 'actions'), { query });
}

export function actionTimesQueryOptions(orgId: string, query: Record<string, string>) {
  return queryOptions({ queryKey: analyticsKeys.measure(orgId, 'actions', query), queryFn: () => getActionTimes(orgId, query) });
}

export function useActionTimes(orgId: string, query: Record<string, string>) {
  // New filters keep the old figures on screen until the new ones arrive, so the charts don't flash.
  return useQuery({ ...actionTimesQueryOptions(orgId, query), placeholderData: keepPreviousData });
}
