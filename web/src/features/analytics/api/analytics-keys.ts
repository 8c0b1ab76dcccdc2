import type { AnalyticsMeasure } from '@schemas/analytics';

/** Every measure's query key starts with the organization's, so one invalidation refreshes the page. */
export const analyticsKeys = {
  all: (orgId: string) => ['analytics', orgId] as const,
  measure: (orgId: string, measure: AnalyticsMeasure, query: Record<string, string>) => ['analytics', orgId, measure, query] as const,
};
