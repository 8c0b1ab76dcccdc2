import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection } from '../types';
import { storeSavedInspection } from './get-inspection';

export interface ReviewInspectionInput {
  orgId: string;
  inspectionId: string;
  decision: 'approve' | 'request_changes';
  note: string | null;
}

/** `POST …/{id}/review`: a manager approves a submitted inspection or sends it back with a note. */
export function reviewInspection({ orgId, inspectionId, decision, note }: ReviewInspectionInput): Promise<Inspection> {
  return callApi<Inspection>(apiPath('orgs', orgId, 'inspections', inspectionId, 'review'), {
    method: 'POST',
    body: note ? { decision, note } : { decision },
  });
}

export function useReviewInspection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewInspection,
    onSuccess: (inspection, { orgId }) => storeSavedInspection(queryClient, orgId, inspection),
  });
}
