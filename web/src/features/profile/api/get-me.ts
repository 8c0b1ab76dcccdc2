import type { Me } from '@schemas/profile';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { toApiError } from '../../../lib/errors';
import { supabase } from '../../../lib/supabase';

/** `GET /me`: the caller's profile and memberships. */
export async function getMe(): Promise<Me> {
  const { data, error } = await supabase.functions.invoke<Me>('api/me', { method: 'GET' });
  if (error) throw await toApiError(error);
  if (!data) throw await toApiError(null);
  return data;
}

export function meQueryOptions() {
  return queryOptions({ queryKey: ['me'] as const, queryFn: getMe });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
