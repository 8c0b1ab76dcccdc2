import { useMutation } from '@tanstack/react-query';
import { noteSignOutRequested } from '@/lib/auth';
import { getSupabase } from '@/lib/supabase';

/** Ends this device's session only (e.g. to sign in with another account from the MFA screen). */
export async function signOutHere() {
  const supabase = await getSupabase();
  noteSignOutRequested();
  const { error } = await supabase.auth.signOut({ scope: 'local' });
  if (error) throw error;
}

export function useSignOutHere() {
  return useMutation({ mutationFn: signOutHere });
}
