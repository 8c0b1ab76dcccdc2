import { Suspense, useEffect, useRef } from 'react';
import { LoadingScreen } from '../components/ui/loading-screen';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAuthEvents } from './auth-events';
import { useMfaRequiredRedirect } from './mfa-required-redirect';

/** Every route renders inside this: auth events wiring, MFA step-up, and focus moved to the new page's heading. */
export function RootLayout() {
  useAuthEvents();
  useMfaRequiredRedirect();
  const location = useLocation();
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // Screen readers announce the new page when focus lands on its heading.
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [location.pathname]);

  return (
    <>
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
