import { apiPath, callApi } from '@/lib/api';
import type { AnswerInput, SavedAnswers } from '../types';

/**
 * `PUT …/{id}/answers`: all or nothing; an item someone else saved since `base_version` is
 * refused with stale_version and its current row. Called by the autosave, not a mutation hook:
 * the run page keeps its own per-item state.
 */
export function saveAnswers(orgId: string, inspectionId: string, answers: AnswerInput[]): Promise<SavedAnswers> {
  return callApi<SavedAnswers>(apiPath('orgs', orgId, 'inspections', inspectionId, 'answers'), {
    method: 'PUT',
    body: { answers },
  });
}
