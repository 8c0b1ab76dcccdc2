import type { Page } from '@schemas/common';
import type { Schedule, ScheduleOccurrence } from '@schemas/schedules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { scheduleKeys } from './get-schedules';

const DAY = 86_400_000;
const PAGE = 200;
/** The api's OCCURRENCES_MAX_DAYS, written out: @schemas/schedules brings zod, which the dashboard's first load leaves out. */
const OCCURRENCES_MAX_DAYS = 92;

export interface OccurrenceRange {
  /** Included, ISO 8601. */
  from: string;
  /** Excluded; at most 92 days after `from`. */
  to: string;
}

export interface OccurrencePages {
  rows: ScheduleOccurrence[];
  /** The range holds more than were read. */
  more: boolean;
}

/**
 * `GET /orgs/{org}/schedules/{id}/occurrences`: a schedule's occurrences in a range, made or not,
 * with their state and inspection, by start and site; up to `maxPages` pages of `limit`.
 */
export async function getOccurrences(orgId: string, scheduleId: string, range: OccurrenceRange, { siteId, limit = PAGE, maxPages = 1 }: { siteId?: string; limit?: number; maxPages?: number } = {}): Promise<OccurrencePages> {
  const rows: ScheduleOccurrence[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await callApi<Page<ScheduleOccurrence>>(apiPath('orgs', orgId, 'schedules', scheduleId, 'occurrences'), {
      query: { from: range.from, to: range.to, site_id: siteId, limit, cursor },
    });
    rows.push(...page.data);
    cursor = page.next_cursor ?? undefined;
    if (!cursor) return { rows, more: false };
  }
  return { rows, more: true };
}

export interface OccurrenceOf extends ScheduleOccurrence {
  schedule: Schedule;
}

/**
 * The occurrences of several schedules in one range (the calendar, the dashboard), merged by start:
 * one request per schedule, each up to `maxPages` pages; one entry in the cache, read again as one.
 */
export function occurrencesOfQueryOptions(orgId: string, schedules: Schedule[], range: OccurrenceRange, maxPages: number) {
  return queryOptions({
    queryKey: [...scheduleKeys.all(orgId), 'occurrences', schedules.map((schedule) => schedule.id), range.from, range.to, maxPages] as const,
    queryFn: async () => {
      const pages = await Promise.all(schedules.map((schedule) => getOccurrences(orgId, schedule.id, range, { maxPages })));
      const rows: OccurrenceOf[] = pages.flatMap((page, i) => page.rows.map((row) => ({ ...row, schedule: schedules[i] })));
      rows.sort((a, b) => a.occurrence_at.localeCompare(b.occurrence_at) || a.site_name.localeCompare(b.site_name));
      return { rows, more: pages.some((page) => page.more) };
    },
  });
}

export function useOccurrencesOf(orgId: string, schedules: Schedule[], range: OccurrenceRange, maxPages: number) {
  const query = useQuery(occurrencesOfQueryOptions(orgId, schedules, range, maxPages));
  return {
    rows: query.data?.rows ?? [],
    more: query.data?.more ?? false,
    pending: query.isPending,
    error: query.isError ? query.error : null,
    refetch: () => query.refetch(),
  };
}

/**
 * A saved schedule's next `count` occurrences at one site, as the database has them: from now, a
 * range of 92 days at a time, for a year at most.
 */
export async function getNextOccurrences(orgId: string, scheduleId: string, siteId: string, count: number, now = Date.now()): Promise<ScheduleOccurrence[]> {
  const found: ScheduleOccurrence[] = [];
  for (let window = 0; window < 4 && found.length < count; window++) {
    const from = now + window * OCCURRENCES_MAX_DAYS * DAY;
    const range = { from: new Date(from).toISOString(), to: new Date(from + OCCURRENCES_MAX_DAYS * DAY).toISOString() };
    const { rows } = await getOccurrences(orgId, scheduleId, range, { siteId, limit: count - found.length });
    found.push(...rows);
  }
  return found;
}

/** Several sites' next `count` occurrences, one request (or a few) per site. */
export function nextOccurrencesQueryOptions(orgId: string, scheduleId: string, siteIds: string[], count: number) {
  return queryOptions({
    queryKey: [...scheduleKeys.all(orgId), 'next-occurrences', scheduleId, siteIds, count] as const,
    queryFn: () => Promise.all(siteIds.map((siteId) => getNextOccurrences(orgId, scheduleId, siteId, count))),
  });
}
