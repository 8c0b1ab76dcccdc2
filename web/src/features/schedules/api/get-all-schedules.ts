import type { Schedule } from '@schemas/schedules';
import { queryOptions } from '@tanstack/react-query';
import { getSchedules, scheduleKeys } from './get-schedules';

/** Every schedule of the organization (at most 1,000: five pages of 200), for the calendar and the dashboard. */
export async function getAllSchedules(orgId: string): Promise<Schedule[]> {
  const all: Schedule[] = [];
  let cursor: string | undefined;
  do {
    const page = await getSchedules(orgId, { q: '', paused: '' }, cursor, 200);
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

export function allSchedulesQueryOptions(orgId: string) {
  return queryOptions({ queryKey: [...scheduleKeys.lists(orgId), 'all'] as const, queryFn: () => getAllSchedules(orgId) });
}
