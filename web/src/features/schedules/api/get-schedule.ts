import type { ScheduleDetail } from '@schemas/schedules';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { scheduleKeys } from './get-schedules';

/** `GET /orgs/{org}/schedules/{id}`: with its sites (deleted ones too). */
export function getSchedule(orgId: string, scheduleId: string): Promise<ScheduleDetail> {
  return callApi<ScheduleDetail>(apiPath('orgs', orgId, 'schedules', scheduleId));
}

export function scheduleQueryOptions(orgId: string, scheduleId: string) {
  return queryOptions({ queryKey: scheduleKeys.detail(orgId, scheduleId), queryFn: () => getSchedule(orgId, scheduleId) });
}

export function useSchedule(orgId: string, scheduleId: string) {
  return useQuery(scheduleQueryOptions(orgId, scheduleId));
}

/**
 * After a change: the answer is the schedule now; everything else about schedules (lists, its
 * occurrences, compliance) is read again, and so are the inspections its occurrences are.
 */
export function storeSavedSchedule(queryClient: QueryClient, orgId: string, schedule: ScheduleDetail | null, scheduleId: string) {
  if (schedule) queryClient.setQueryData(scheduleQueryOptions(orgId, scheduleId).queryKey, schedule);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: scheduleKeys.all(orgId) }),
    // Inspections and dashboard keys (features/inspections, features/dashboard), written out: features do not import each other.
    queryClient.invalidateQueries({ queryKey: ['inspections', orgId, 'list'] }),
    queryClient.invalidateQueries({ queryKey: ['dashboard', orgId] }),
  ]);
}
