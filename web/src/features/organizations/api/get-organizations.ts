import type { Page } from '@schemas/common';
import type { Organization } from '@schemas/organizations';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api';

export const organizationKeys = {
  all: () => ['organizations'] as const,
  list: () => ['organizations', 'list'] as const,
  detail: (orgId: string) => ['organizations', 'detail', orgId] as const,
};

/** `GET /orgs`: one page of the caller's organizations, by name. */
export function getOrganizations(cursor: string | undefined): Promise<Page<Organization>> {
  return callApi<Page<Organization>>('orgs', { query: { cursor } });
}

export function organizationsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ pageParam }) => getOrganizations(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useOrganizations() {
  return useInfiniteQuery(organizationsQueryOptions());
}
