import type { AuthenticatorAssuranceLevels } from '@supabase/supabase-js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { sessionFingerprint, useAuth } from '../../../lib/auth';
import { supabase } from '../../../lib/supabase';

export interface AssuranceLevel {
  currentLevel: AuthenticatorAssuranceLevels | null;
  nextLevel: AuthenticatorAssuranceLevels | null;
}

/** Reads aal from the stored session (no request): aal1 → aal2 means a TOTP challenge is due. */
export async function getAssuranceLevel(): Promise<AssuranceLevel> {
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) throw error;
  return { currentLevel: data.currentLevel, nextLevel: data.nextLevel };
}

export const authQueryKeys = {
  all: () => ['auth'] as const,
  assuranceLevels: () => ['auth', 'assurance-level'] as const,
  // Keyed by the session's token so a new token (sign-in, MFA verify, refresh) never shows a stale level.
  assuranceLevel: (fingerprint: string) => ['auth', 'assurance-level', fingerprint] as const,
};

export function assuranceLevelQueryOptions(fingerprint: string) {
  return queryOptions({
    queryKey: authQueryKeys.assuranceLevel(fingerprint),
    queryFn: getAssuranceLevel,
    staleTime: Infinity,
    // Read from the stored session, not the network: it must answer offline too.
    networkMode: 'always',
  });
}

/** The assurance level of the current session; idle while signed out. */
export function useAssuranceLevel() {
  const { session } = useAuth();
  return useQuery({
    ...assuranceLevelQueryOptions(sessionFingerprint(session)),
    enabled: session !== null,
    // A new token (refresh, MFA verify) keeps the last answer on screen while the new one is read,
    // so guarded pages are not unmounted and their forms keep their state.
    placeholderData: keepPreviousData,
  });
}

/** True when the user has a verified authenticator but this session has not used it yet. */
export function needsMfaChallenge(level: AssuranceLevel | undefined): boolean {
  return level?.currentLevel === 'aal1' && level.nextLevel === 'aal2';
}
