import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

export interface SignUpInput {
  email: string;
  password: string;
  /** Path the confirmation mail's link returns to (email confirmations on). */
  redirectPath?: string;
}

/** Creates the account; with email confirmations off (config.toml) it also signs the user in. */
export async function signUp({ email, password, redirectPath = '/' }: SignUpInput) {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${window.location.origin}${redirectPath}` },
  });
  if (error) throw error;
  return data;
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
