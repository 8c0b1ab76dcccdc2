import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection } from '../types';
import { storeSavedInspection } from './get-inspection';

export interface InspectionActionInput {
  orgId: string;
  inspectionId: string;
}

/** `POST …/{id}/submit`: refused with required_items_missing (and the keys) while required items are unanswered. */
export function submitInspection({ orgId, inspectionId }: InspectionActionInput): Promise<Inspection> {
  return callApi<Inspection>(apiPath('orgs', orgId, 'inspections', inspectionId, 'submit'), { method: 'POST' });
}

export function useSubmitInspection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitInspection,
    onSuccess: (inspection, { orgId }) => storeSavedInspection(queryClient, orgId, inspection),
  });
}
