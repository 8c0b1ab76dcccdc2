import type { SiteRanking } from '@schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { analyticsKeys } from './analytics-keys';

/** `GET /orgs/{org}/analytics/sites`: sites ranked by score and on-time rate, with the change from the range before. */
export function getSiteRanking(orgId: string, query: Record<string, string>): Promise<SiteRanking> {
  return callApi<SiteRanking>(apiPath('orgs', orgId, 'analytics', 'sites'), { query });
}

export function siteRankingQueryOptions(orgId: string, query: Record<string, string>) {
  return queryOptions({ queryKey: analyticsKeys.measure(orgId, 'sites', query), queryFn: () => getSiteRanking(orgId, query) });
}

export function useSiteRanking(orgId: string, query: Record<string, string>) {
  // New filters keep the old figures on screen until the new ones arrive, so the charts don't flash.
  return useQuery({ ...siteRankingQueryOptions(orgId, query), placeholderData: keepPreviousData });
}
