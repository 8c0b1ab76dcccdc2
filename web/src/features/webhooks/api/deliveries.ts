// An endpoint's delivery log and "redeliver".
import type { Page } from '@schemas/common';
import type { WebhookDelivery } from '@schemas/webhooks';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { webhookKeys } from './endpoints';

export function deliveriesQueryOptions(orgId: string, endpointId: string) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(orgId, endpointId),
    queryFn: ({ pageParam }) =>
      callApi<Page<WebhookDelivery>>(apiPath('orgs', orgId, 'webhooks', endpointId, 'deliveries'), { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    // While a delivery waits for its first try (the worker wakes every few seconds), look again soon.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((d) => d.status === 'pending' && d.attempts === 0)) ? 2000 : false,
  });
}

export function useDeliveries(orgId: string, endpointId: string) {
  return useInfiniteQuery(deliveriesQueryOptions(orgId, endpointId));
}

export function useRedeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orgId, deliveryId }: { orgId: string; endpointId: string; deliveryId: string }) =>
      callApi<WebhookDelivery>(apiPath('orgs', orgId, 'deliveries', deliveryId, 'redeliver'), { method: 'POST' }),
    onSettled: (_result, _error, { orgId, endpointId }) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(orgId, endpointId) }),
  });
}
