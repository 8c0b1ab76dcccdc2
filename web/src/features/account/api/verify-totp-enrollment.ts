import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { factorsQueryOptions } from './list-factors';

export interface VerifyTotpEnrollmentInput {
  factorId: string;
  code: string;
}

/** Verifies the first code of a new authenticator; the session becomes aal2. */
export async function verifyTotpEnrollment({ factorId, code }: VerifyTotpEnrollmentInput) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}

export function useVerifyTotpEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTotpEnrollment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey }),
  });
}
