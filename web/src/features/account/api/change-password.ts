import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

/** Sets a new password for the signed-in user (USER_UPDATED follows). */
export async function changePassword(password: string) {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
