import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

/** Sets the password of the signed-in (recovery) session's user. */
export async function setNewPassword(password: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useSetNewPassword() {
  return useMutation({ mutationFn: setNewPassword });
}
