import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection, InspectionCreate } from '../types';
import { inspectionKeys } from './get-inspections';

export interface CreateInspectionInput {
  orgId: string;
  body: InspectionCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/inspections`: pinned to the template's latest published version. */
export function createInspection({ orgId, body, idempotencyKey }: CreateInspectionInput): Promise<Inspection> {
  return callApi<Inspection>(apiPath('orgs', orgId, 'inspections'), { method: 'POST', body: { ...body }, idempotencyKey });
}

export function useCreateInspection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInspection,
    onSuccess: (_inspection, { orgId }) => queryClient.invalidateQueries({ queryKey: inspectionKeys.lists(orgId) }),
  });
}
