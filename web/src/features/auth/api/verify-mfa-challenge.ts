import { AuthError } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

/** Steps the session up to aal2 with a code from the user's verified authenticator. */
export async function verifyMfaChallenge(code: string) {
  const supabase = await getSupabase();
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  const factor = factors.totp[0];
  if (!factor) throw new AuthError('No verified authenticator', 404, 'mfa_factor_not_found');
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (error) throw error;
}

export function useVerifyMfaChallenge() {
  return useMutation({ mutationFn: verifyMfaChallenge });
}
