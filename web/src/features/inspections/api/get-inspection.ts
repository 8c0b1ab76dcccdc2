import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { Answer, Inspection, InspectionDetail } from '../types';
import { mergeAnswers } from '../utils/answer-values';
import { inspectionKeys } from './get-inspections';

/** `GET /orgs/{org}/inspections/{id}`: the inspection with its pinned template, answers and photos. */
export function getInspection(orgId: string, inspectionId: string): Promise<InspectionDetail> {
  return callApi<InspectionDetail>(apiPath('orgs', orgId, 'inspections', inspectionId));
}

export function inspectionQueryOptions(orgId: string, inspectionId: string) {
  return queryOptions({ queryKey: inspectionKeys.detail(orgId, inspectionId), queryFn: () => getInspection(orgId, inspectionId) });
}

export function useInspection(orgId: string, inspectionId: string) {
  return useQuery(inspectionQueryOptions(orgId, inspectionId));
}

/** After a transition: the row is the inspection now (answers and photos unchanged); lists may filter it differently. */
export function storeSavedInspection(queryClient: QueryClient, orgId: string, inspection: Inspection) {
  queryClient.setQueryData(inspectionQueryOptions(orgId, inspection.id).queryKey, (detail) =>
    detail ? { ...detail, ...inspection, template: detail.template, answers: detail.answers, attachments: detail.attachments } : detail,
  );
  return queryClient.invalidateQueries({ queryKey: inspectionKeys.lists(orgId) });
}

/** Saved answer rows (and the inspection's new score, when the save returned it) into the cached inspection. */
export function storeAnswers(queryClient: QueryClient, orgId: string, inspectionId: string, answers: Answer[], inspection?: Partial<Inspection>) {
  queryClient.setQueryData(inspectionQueryOptions(orgId, inspectionId).queryKey, (detail) =>
    detail ? { ...detail, ...inspection, answers: mergeAnswers(detail.answers, answers) } : detail,
  );
}

/** Reads the inspection again, after a change no event or answer carries whole (a transition, a photo). */
export function refetchInspection(queryClient: QueryClient, orgId: string, inspectionId: string) {
  return queryClient.invalidateQueries({ queryKey: inspectionQueryOptions(orgId, inspectionId).queryKey });
}
