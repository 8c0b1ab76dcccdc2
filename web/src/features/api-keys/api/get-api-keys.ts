import type { ApiKey } from '@schemas/api-keys';
import type { Page } from '@schemas/common';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export const apiKeyKeys = {
  all: (orgId: string) => ['api-keys', orgId] as const,
};

/** `GET /orgs/{org}/api-keys`: one page, newest first (owners and admins only). */
export function getApiKeys(orgId: string, cursor: string | undefined): Promise<Page<ApiKey>> {
  return callApi<Page<ApiKey>>(apiPath('orgs', orgId, 'api-keys'), { query: { cursor } });
}

export function apiKeysQueryOptions(orgId: string) {
  return infiniteQueryOptions({
    queryKey: apiKeyKeys.all(orgId),
    queryFn: ({ pageParam }) => getApiKeys(orgId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useApiKeys(orgId: string) {
  return useInfiniteQuery(apiKeysQueryOptions(orgId));
}
