import type { ActionDetail } from '@schemas/actions';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { actionKeys } from './get-actions';

/** `GET /orgs/{org}/actions/{id}`: the action with its history, photos and the moves the caller may make. */
export function getAction(orgId: string, actionId: string): Promise<ActionDetail> {
  return callApi<ActionDetail>(apiPath('orgs', orgId, 'actions', actionId));
}

export function actionQueryOptions(orgId: string, actionId: string) {
  return queryOptions({ queryKey: actionKeys.detail(orgId, actionId), queryFn: () => getAction(orgId, actionId) });
}

export function useAction(orgId: string, actionId: string) {
  return useQuery(actionQueryOptions(orgId, actionId));
}

/** After a change: the action is read again (its history and moves changed too), and the lists. */
export function refreshAction(queryClient: QueryClient, orgId: string, actionId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: actionQueryOptions(orgId, actionId).queryKey }),
    queryClient.invalidateQueries({ queryKey: actionKeys.lists(orgId) }),
  ]);
}
