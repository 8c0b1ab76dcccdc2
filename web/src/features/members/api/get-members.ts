import type { Page } from '@schemas/common';
import type { Member } from '@schemas/members';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export const memberKeys = {
  all: (orgId: string) => ['members', orgId] as const,
  list: (orgId: string) => ['members', orgId, 'list'] as const,
};

/** `GET /orgs/{org}/members`: one page of members, by display name. */
export function getMembers(orgId: string, cursor: string | undefined): Promise<Page<Member>> {
  return callApi<Page<Member>>(apiPath('orgs', orgId, 'members'), { query: { cursor } });
}

export function membersQueryOptions(orgId: string) {
  return infiniteQueryOptions({
    queryKey: memberKeys.list(orgId),
    queryFn: ({ pageParam }) => getMembers(orgId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useMembers(orgId: string) {
  return useInfiniteQuery(membersQueryOptions(orgId));
}
