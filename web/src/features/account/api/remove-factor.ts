import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { factorsQueryOptions } from './list-factors';

/** Removes an authenticator; a verified one needs an aal2 session. */
export async function removeFactor(factorId: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw error;
}

export function useRemoveFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFactor,
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey }),
  });
}
