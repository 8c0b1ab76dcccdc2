import type { ScheduleDetail } from '@schemas/schedules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedSchedule } from './get-schedule';

export type ScheduleMove = 'pause' | 'resume' | 'delete';

export interface ScheduleMoveInput {
  orgId: string;
  scheduleId: string;
  move: ScheduleMove;
}

/** `POST …/schedules/{id}/pause`, `…/resume`, `DELETE …/schedules/{id}` (204: null). Each is fine done twice. */
export function moveSchedule({ orgId, scheduleId, move }: ScheduleMoveInput): Promise<ScheduleDetail | null> {
  if (move === 'delete') return callApi<undefined>(apiPath('orgs', orgId, 'schedules', scheduleId), { method: 'DELETE' }).then(() => null);
  return callApi<ScheduleDetail>(apiPath('orgs', orgId, 'schedules', scheduleId, move), { method: 'POST' });
}

export function useMoveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveSchedule,
    onSuccess: (schedule, { orgId, scheduleId }) => storeSavedSchedule(queryClient, orgId, schedule, scheduleId),
  });
}
