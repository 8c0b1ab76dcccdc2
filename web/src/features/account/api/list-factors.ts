import type { Factor } from '@supabase/supabase-js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

/** Every authenticator of the user, verified or not (`GET /auth/v1/user`). */
export async function listFactors(): Promise<Factor[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.all;
}

export function factorsQueryOptions() {
  return queryOptions({ queryKey: ['account', 'factors'] as const, queryFn: listFactors });
}

export function useFactors() {
  return useQuery(factorsQueryOptions());
}
