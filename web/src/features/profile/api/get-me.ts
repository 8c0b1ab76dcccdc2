import type { Me } from '@schemas/profile';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api';

/** `GET /me`: the caller's profile and memberships. */
export function getMe(): Promise<Me> {
  return callApi<Me>('me');
}

export function meQueryOptions() {
  return queryOptions({ queryKey: ['me'] as const, queryFn: getMe });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
