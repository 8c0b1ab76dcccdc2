import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getAssuranceLevel, needsMfaChallenge } from '../features/auth/api/get-assurance-level';
import { subscribeMfaRequired } from '../lib/mfa-required';
import type { RedirectState } from './return-path';

export interface AccountRouteState extends RedirectState {
  /** Arrived here because an organization wants two-factor authentication and none is set up. */
  mfaRequired?: boolean;
}

/**
 * A write refused with `mfa_required` sends the user to step up and back: to /mfa when they have an
 * authenticator, else to /account to set one up (the challenge page has nothing to ask for then).
 */
export function useMfaRequiredRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const locationRef = useRef(location);

  useEffect(() => {
    locationRef.current = location;
  }, [location]);

  useEffect(
    () =>
      subscribeMfaRequired(() => {
        void getAssuranceLevel()
          .then((level) => {
            const from = locationRef.current;
            if (needsMfaChallenge(level)) navigate('/mfa', { state: { from } satisfies RedirectState });
            else if (level.currentLevel !== 'aal2') navigate('/account', { state: { from, mfaRequired: true } satisfies AccountRouteState });
          })
          .catch(() => undefined);
      }),
    [navigate],
  );
}
