import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

export interface SignInInput {
  email: string;
  password: string;
}

/** Email + password sign-in; the SIGNED_IN event then moves the app on. */
export async function signIn({ email, password }: SignInInput) {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data;
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
