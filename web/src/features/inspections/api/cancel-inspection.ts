import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection } from '../types';
import { storeSavedInspection } from './get-inspection';
import type { InspectionActionInput } from './submit-inspection';

/** `POST …/{id}/cancel`: managers, while scheduled or in progress. */
export function cancelInspection({ orgId, inspectionId }: InspectionActionInput): Promise<Inspection> {
  return callApi<Inspection>(apiPath('orgs', orgId, 'inspections', inspectionId, 'cancel'), { method: 'POST' });
}

export function useCancelInspection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelInspection,
    onSuccess: (inspection, { orgId }) => storeSavedInspection(queryClient, orgId, inspection),
  });
}
