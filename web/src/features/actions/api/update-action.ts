import type { Action, ActionUpdate } from '@schemas/actions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { refreshAction } from './get-action';

/** `PATCH /orgs/{org}/actions/{id}`: a manager edits or reassigns. */
export function updateAction({ orgId, actionId, body }: { orgId: string; actionId: string; body: ActionUpdate }): Promise<Action> {
  return callApi<Action>(apiPath('orgs', orgId, 'actions', actionId), { method: 'PATCH', body: { ...body } });
}

export function useUpdateAction() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateAction, onSuccess: (_action, { orgId, actionId }) => refreshAction(queryClient, orgId, actionId) });
}
