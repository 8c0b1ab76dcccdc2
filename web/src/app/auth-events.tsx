import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { authQueryKeys } from '../features/auth/api/get-assurance-level';
import { factorsQueryOptions } from '../features/account/api/list-factors';
import { meQueryOptions } from '../features/profile/api/get-me';
import { subscribeAuthEvents } from '../lib/auth';

// Screens a signed-out visitor may stay on when a SIGNED_OUT event arrives.
const publicPaths = new Set(['/sign-in', '/sign-up', '/forgot-password', '/reset-password']);

function isPublicPath(pathname: string): boolean {
  // An invitation page signed out shows how to sign in with the invited address.
  return publicPaths.has(pathname) || pathname.startsWith('/invitations/');
}

/** Keeps cached data and the current screen in step with supabase-js's auth events. */
export function useAuthEvents() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    return subscribeAuthEvents((event) => {
      switch (event) {
        case 'SIGNED_IN':
          // A new user (or the same one back): everything about "me" may differ.
          void queryClient.invalidateQueries({ queryKey: authQueryKeys.all() });
          void queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey });
          void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
          break;
        case 'TOKEN_REFRESHED':
          // Same user, new token: only what is read from the token can have changed.
          void queryClient.invalidateQueries({ queryKey: authQueryKeys.assuranceLevels() });
          break;
        case 'USER_UPDATED':
          void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
          void queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey });
          break;
        case 'MFA_CHALLENGE_VERIFIED':
          // aal2 now: the level, the factor list (a new factor became verified) and aal-gated data.
          void queryClient.invalidateQueries({ queryKey: authQueryKeys.assuranceLevels() });
          void queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey });
          void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
          break;
        case 'PASSWORD_RECOVERY':
          navigate('/reset-password', { replace: true });
          break;
        case 'SIGNED_OUT':
          // Nothing of the previous user may survive in memory.
          queryClient.clear();
          if (!isPublicPath(window.location.pathname)) navigate('/sign-in', { replace: true });
          break;
        default:
          break;
      }
    });
  }, [queryClient, navigate]);
}
