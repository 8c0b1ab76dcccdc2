import type { Page } from '@schemas/common';
import type { Schedule, ScheduleOccurrence } from '@schemas/schedules';
import { useQueries, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '../../../lib/api';
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

export function occurrencesQueryOptions(orgId: string, scheduleId: string, range: OccurrenceRange, maxPages: number) {
  return {
    queryKey: [...scheduleKeys.all(orgId), 'occurrences', scheduleId, range.from, range.to, maxPages] as const,
    queryFn: () => getOccurrences(orgId, scheduleId, range, { maxPages }),
  };
}

export interface OccurrenceOf extends ScheduleOccurrence {
  schedule: Schedule;
}

/**
 * The occurrences of several schedules in one range (the calendar, the dashboard), merged by start:
 * one request per schedule, each up to `maxPages` pages.
 */
export function useOccurrencesOf(orgId: string, schedules: Schedule[], range: OccurrenceRange, maxPages: number) {
  return useQueries({
    queries: schedules.map((schedule) => occurrencesQueryOptions(orgId, schedule.id, range, maxPages)),
    combine: (results) => {
      const rows: OccurrenceOf[] = [];
      results.forEach((result, i) => {
        for (const row of result.data?.rows ?? []) rows.push({ ...row, schedule: schedules[i] });
      });
      rows.sort((a, b) => a.occurrence_at.localeCompare(b.occurrence_at) || a.site_name.localeCompare(b.site_name));
      const failed = results.find((result) => result.isError && !result.data);
      return {
        rows,
        pending: results.some((result) => result.isPending),
        error: failed?.error ?? null,
        more: results.some((result) => result.data?.more),
        refetch: () => Promise.all(results.filter((result) => result.isError).map((result) => result.refetch())),
      };
    },
  });
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

export function useNextOccurrences(orgId: string, scheduleId: string, siteId: string, count: number, enabled = true) {
  return useQuery({
    queryKey: [...scheduleKeys.all(orgId), 'next-occurrences', scheduleId, siteId, count] as const,
    queryFn: () => getNextOccurrences(orgId, scheduleId, siteId, count),
    enabled,
  });
}
