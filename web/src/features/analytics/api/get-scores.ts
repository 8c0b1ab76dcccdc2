import type { Scores } from '@schemas/analytics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { analyticsKeys } from './analytics-keys';

/** `GET /orgs/{org}/analytics/scores`: the average score and how many inspections, per period. */
export function getScores(orgId: string, query: Record<string, string>): Promise<Scores> {
  return callApi<Scores>(apiPath('orgs', orgId, 'analytics', 'scores'), { query });
}

export function scoresQueryOptions(orgId: string, query: Record<string, string>) {
  return queryOptions({ queryKey: analyticsKeys.measure(orgId, 'scores', query), queryFn: () => getScores(orgId, query) });
}

export function useScores(orgId: string, query: Record<string, string>) {
  // New filters keep the old figures on screen until the new ones arrive, so the charts don't flash.
  return useQuery({ ...scoresQueryOptions(orgId, query), placeholderData: keepPreviousData });
}
