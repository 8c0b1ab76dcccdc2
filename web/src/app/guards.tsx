import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingScreen } from '../components/ui/loading-screen';
import { needsMfaChallenge, useAssuranceLevel } from '../features/auth/api/get-assurance-level';
import { useAuth } from '../lib/auth';
import { returnPath, withNext, type RedirectState } from './return-path';

/** Signed-in screens: signed-out visitors sign in first; aal1 sessions with an authenticator pass /mfa. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { ready, session } = useAuth();
  const location = useLocation();
  const level = useAssuranceLevel();
  if (!ready) return <LoadingScreen />;
  if (!session) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={withNext('/sign-in', next)} replace state={{ from: location } satisfies RedirectState} />;
  }
  if (level.isPending) return <LoadingScreen />;
  if (needsMfaChallenge(level.data)) return <Navigate to="/mfa" replace state={{ from: location } satisfies RedirectState} />;
  return children;
}

/** Sign-in and sign-up: a visitor who has a session goes back where they came from. */
export function RequireSignedOut({ children }: { children: ReactNode }) {
  const { ready, session } = useAuth();
  const location = useLocation();
  if (!ready) return <LoadingScreen />;
  if (session) return <Navigate to={returnPath(location)} replace />;
  return children;
}

/** The MFA challenge: only for an aal1 session of a user who has a verified authenticator. */
export function RequireMfaChallenge({ children }: { children: ReactNode }) {
  const { ready, session } = useAuth();
  const location = useLocation();
  const level = useAssuranceLevel();
  if (!ready) return <LoadingScreen />;
  if (!session) return <Navigate to="/sign-in" replace />;
  if (level.isPending) return <LoadingScreen />;
  if (!needsMfaChallenge(level.data)) return <Navigate to={returnPath(location)} replace />;
  return children;
}
