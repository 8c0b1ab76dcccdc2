import type { Action, ActionCreate } from '@schemas/actions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { actionKeys } from './get-actions';

/** `POST /orgs/{org}/actions`: opens an action by hand (a retried click is answered from the first). */
export function createAction({ orgId, body, idempotencyKey }: { orgId: string; body: ActionCreate; idempotencyKey: string }): Promise<Action> {
  return callApi<Action>(apiPath('orgs', orgId, 'actions'), { method: 'POST', body: { ...body }, idempotencyKey });
}

export function useCreateAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { orgId: string; body: ActionCreate; idempotencyKey?: string }) =>
      createAction({ ...input, idempotencyKey: input.idempotencyKey ?? newIdempotencyKey() }),
    onSuccess: (_action, { orgId }) => queryClient.invalidateQueries({ queryKey: actionKeys.lists(orgId) }),
  });
}
