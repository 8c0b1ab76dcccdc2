import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

/** Mails a recovery link that lands on /reset-password with a recovery session. */
export async function requestPasswordReset(email: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}/reset-password`,
  });
  if (error) throw error;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
