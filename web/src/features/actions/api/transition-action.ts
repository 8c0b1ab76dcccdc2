import type { Action, ActionStatus } from '@schemas/actions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { refreshAction } from './get-action';

export interface TransitionInput {
  orgId: string;
  actionId: string;
  to: ActionStatus;
  note: string | null;
}

/** `POST …/{id}/transition`: one move of the action; the database decides whether it is allowed. */
export function transitionAction({ orgId, actionId, to, note }: TransitionInput): Promise<Action> {
  return callApi<Action>(apiPath('orgs', orgId, 'actions', actionId, 'transition'), { method: 'POST', body: note ? { to, note } : { to } });
}

export function useTransitionAction() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: transitionAction, onSettled: (_action, _error, { orgId, actionId }) => refreshAction(queryClient, orgId, actionId) });
}
