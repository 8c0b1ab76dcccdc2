import type { Page } from '@schemas/common';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection, InspectionStatus } from '../types';

export interface InspectionFilters {
  /** Title or site name contains this; empty: all. */
  q: string;
  /** One status, or a comma list of them (`submitted,approved`, as an analytics figure counts); empty: every status. */
  status: InspectionStatus | string;
  siteId: string;
  /** A site group and the groups under it; '' for every site. */
  groupId?: string;
  assigneeId: string;
  overdue: boolean;
  /** A schedule's occurrences as compliance counts them: `schedule_id`, `missed`, `outcome`, `due_from`, `due_to` (set from the URL only). */
  occurrences?: Record<string, string>;
  /** What an analytics figure counts (docs/analytics.md, "Screens"): `template_id`, `submitted_day_from|to`, `due_day_from|to`, `failed_item` (set from the URL only). */
  analytics?: Record<string, string>;
}

export const inspectionKeys = {
  all: (orgId: string) => ['inspections', orgId] as const,
  lists: (orgId: string) => ['inspections', orgId, 'list'] as const,
  list: (orgId: string, filters: InspectionFilters) => ['inspections', orgId, 'list', filters] as const,
  detail: (orgId: string, inspectionId: string) => ['inspections', orgId, 'detail', inspectionId] as const,
  attachmentUrl: (orgId: string, attachmentId: string) => ['inspections', orgId, 'attachment-url', attachmentId] as const,
};

/** The filters as the list and the CSV exports take them (`?q=&status=&site_id=&site_group_id=&assignee_id=&overdue=`, and the occurrences'). */
export function inspectionFilterQuery(filters: InspectionFilters) {
  return {
    q: filters.q.trim(),
    status: filters.status,
    site_id: filters.siteId,
    site_group_id: filters.groupId,
    assignee_id: filters.assigneeId,
    overdue: filters.overdue ? 'true' : undefined,
    ...filters.occurrences,
    ...filters.analytics,
  };
}

/** `GET /orgs/{org}/inspections`: one page, newest first. */
export function getInspections(orgId: string, filters: InspectionFilters, cursor: string | undefined): Promise<Page<Inspection>> {
  return callApi<Page<Inspection>>(apiPath('orgs', orgId, 'inspections'), { query: { ...inspectionFilterQuery(filters), cursor } });
}

export function inspectionsQueryOptions(orgId: string, filters: InspectionFilters) {
  return infiniteQueryOptions({
    queryKey: inspectionKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getInspections(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useInspections(orgId: string, filters: InspectionFilters) {
  // New filters keep the old rows on screen until the new ones arrive, so the list doesn't flash.
  return useInfiniteQuery({ ...inspectionsQueryOptions(orgId, filters), placeholderData: keepPreviousData });
}
