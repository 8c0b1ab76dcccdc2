import type { Page } from '@schemas/common';
import type { Schedule } from '@schemas/schedules';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export interface ScheduleFilters {
  /** Name contains this; empty: all. */
  q: string;
  /** '' for both. */
  paused: '' | 'true' | 'false';
}

/**
 * Everything about schedules is kept under ['schedules', org]: the organization's live updates
 * (app/org-live-updates.ts) refresh it on a schedule's change and on an inspection's (an
 * occurrence's state, compliance and a schedule's next occurrence follow its inspections).
 */
export const scheduleKeys = {
  all: (orgId: string) => ['schedules', orgId] as const,
  lists: (orgId: string) => ['schedules', orgId, 'list'] as const,
  list: (orgId: string, filters: ScheduleFilters) => ['schedules', orgId, 'list', filters] as const,
  detail: (orgId: string, scheduleId: string) => ['schedules', orgId, 'detail', scheduleId] as const,
};

/** `GET /orgs/{org}/schedules`: one page, by name (deleted ones left out). */
export function getSchedules(orgId: string, filters: ScheduleFilters, cursor: string | undefined, limit?: number): Promise<Page<Schedule>> {
  return callApi<Page<Schedule>>(apiPath('orgs', orgId, 'schedules'), { query: { q: filters.q.trim(), paused: filters.paused, cursor, limit } });
}

export function schedulesQueryOptions(orgId: string, filters: ScheduleFilters) {
  return infiniteQueryOptions({
    queryKey: scheduleKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getSchedules(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useSchedules(orgId: string, filters: ScheduleFilters) {
  return useInfiniteQuery({ ...schedulesQueryOptions(orgId, filters), placeholderData: keepPreviousData });
}
