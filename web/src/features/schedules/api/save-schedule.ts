import type { ScheduleCreate, ScheduleDetail, ScheduleUpdate } from '@schemas/schedules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedSchedule } from './get-schedule';

export interface CreateScheduleInput {
  orgId: string;
  body: ScheduleCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/schedules`: its occurrences of the next 14 days are made in the same request. */
export function createSchedule({ orgId, body, idempotencyKey }: CreateScheduleInput): Promise<ScheduleDetail> {
  return callApi<ScheduleDetail>(apiPath('orgs', orgId, 'schedules'), { method: 'POST', body, idempotencyKey });
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSchedule,
    onSuccess: (schedule, { orgId }) => storeSavedSchedule(queryClient, orgId, schedule, schedule.id),
  });
}

export interface UpdateScheduleInput {
  orgId: string;
  scheduleId: string;
  /** Only what changed: an unchanged field is not sent, so it changes no occurrence. */
  body: ScheduleUpdate;
}

/** `PATCH /orgs/{org}/schedules/{id}`: the future occurrences follow. */
export function updateSchedule({ orgId, scheduleId, body }: UpdateScheduleInput): Promise<ScheduleDetail> {
  return callApi<ScheduleDetail>(apiPath('orgs', orgId, 'schedules', scheduleId), { method: 'PATCH', body });
}

export function useUpdateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSchedule,
    onSuccess: (schedule, { orgId }) => storeSavedSchedule(queryClient, orgId, schedule, schedule.id),
  });
}
