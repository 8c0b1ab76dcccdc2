import { useMutation } from '@tanstack/react-query';
import { noteSignOutRequested } from '@/lib/auth';
import { getSupabase } from '@/lib/supabase';

export type SignOutScope = 'local' | 'global';

/** `local` ends this device's session; `global` revokes every session of the user. */
export async function signOut(scope: SignOutScope) {
  const supabase = await getSupabase();
  noteSignOutRequested();
  const { error } = await supabase.auth.signOut({ scope });
  if (error) throw error;
}

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
