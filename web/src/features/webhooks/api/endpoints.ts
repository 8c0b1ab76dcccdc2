// Webhook endpoints (`/orgs/{org}/webhooks`): list, add, change, remove, rotate the secret, test.
import type { Page } from '@schemas/common';
import type { WebhookCreate, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookUpdate } from '@schemas/webhooks';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export const webhookKeys = {
  all: (orgId: string) => ['webhooks', orgId] as const,
  endpoints: (orgId: string) => ['webhooks', orgId, 'endpoints'] as const,
  deliveries: (orgId: string, endpointId: string) => ['webhooks', orgId, 'deliveries', endpointId] as const,
};

const endpointsPath = (orgId: string, ...rest: string[]) => apiPath('orgs', orgId, 'webhooks', ...rest);

export function webhooksQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: webhookKeys.endpoints(orgId),
    queryFn: () => callApi<Page<WebhookEndpoint>>(endpointsPath(orgId)),
  });
}

export function useWebhooks(orgId: string) {
  return useQuery(webhooksQueryOptions(orgId));
}

/** Every change to an endpoint refreshes the endpoints and their logs. */
function useWebhookMutation<Input extends { orgId: string }, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: (_result, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: webhookKeys.all(orgId) }),
  });
}

export const useCreateWebhook = () =>
  useWebhookMutation(({ orgId, body, idempotencyKey }: { orgId: string; body: WebhookCreate; idempotencyKey: string }) =>
    callApi<WebhookEndpointWithSecret>(endpointsPath(orgId), { method: 'POST', body, idempotencyKey }));

export const useUpdateWebhook = () =>
  useWebhookMutation(({ orgId, id, body }: { orgId: string; id: string; body: WebhookUpdate }) =>
    callApi<WebhookEndpoint>(endpointsPath(orgId, id), { method: 'PATCH', body }));

export const useDeleteWebhook = () =>
  useWebhookMutation(({ orgId, id }: { orgId: string; id: string }) => callApi<void>(endpointsPath(orgId, id), { method: 'DELETE' }));

export const useRotateWebhookSecret = () =>
  useWebhookMutation(({ orgId, id }: { orgId: string; id: string }) =>
    callApi<WebhookEndpointWithSecret>(endpointsPath(orgId, id, 'rotate-secret'), { method: 'POST' }));

export const useSendTestWebhook = () =>
  useWebhookMutation(({ orgId, id }: { orgId: string; id: string }) => callApi<WebhookDelivery>(endpointsPath(orgId, id, 'test'), { method: 'POST' }));
