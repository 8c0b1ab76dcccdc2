import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

/** Sets a new password for the signed-in user (USER_UPDATED follows). */
export async function changePassword(password: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
