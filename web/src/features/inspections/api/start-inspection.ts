import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Inspection } from '../types';
import { storeSavedInspection } from './get-inspection';

export interface StartLocation {
  latitude: number;
  longitude: number;
  accuracy_m: number;
}

export interface StartInspectionInput {
  orgId: string;
  inspectionId: string;
  /** Null when the browser gave no location: the start is recorded without one. */
  location: StartLocation | null;
}

/** `POST …/{id}/start`: from scheduled, or to continue after changes were requested. */
export function startInspection({ orgId, inspectionId, location }: StartInspectionInput): Promise<Inspection> {
  return callApi<Inspection>(apiPath('orgs', orgId, 'inspections', inspectionId, 'start'), {
    method: 'POST',
    body: location ? { ...location } : { latitude: null, longitude: null, accuracy_m: null },
  });
}

export function useStartInspection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startInspection,
    onSuccess: (inspection, { orgId }) => storeSavedInspection(queryClient, orgId, inspection),
  });
}
