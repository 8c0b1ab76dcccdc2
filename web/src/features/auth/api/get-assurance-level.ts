import type { AuthenticatorAssuranceLevels } from '@supabase/supabase-js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { currentSession, sessionFingerprint, useAuth } from '@/lib/auth';

export interface AssuranceLevel {
  currentLevel: AuthenticatorAssuranceLevels | null;
  nextLevel: AuthenticatorAssuranceLevels | null;
}

/**
 * Reads aal from the current session (no request): aal1 → aal2 means a TOTP challenge is due. The
 * rule of supabase-js's `mfa.getAuthenticatorAssuranceLevel()` without a token argument (the
 * token's `aal` claim; aal2 next once the user has a verified factor), read here so that guarded
 * screens don't wait for supabase-js to load (lib/supabase.ts).
 */
export async function getAssuranceLevel(): Promise<AssuranceLevel> {
  const session = currentSession();
  if (!session) return { currentLevel: null, nextLevel: null };
  const currentLevel = (tokenClaims(session.access_token).aal as AuthenticatorAssuranceLevels | undefined) ?? null;
  const verified = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return { currentLevel, nextLevel: verified ? 'aal2' : currentLevel };
}

/** The claims of a JWT (its payload, base64url JSON); its signature is the server's to check. */
function tokenClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
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
