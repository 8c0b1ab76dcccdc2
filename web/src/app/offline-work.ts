import type { Role } from '@schemas/roles';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { supabaseLoaded } from '../lib/supabase';

// The run page's offline work, done from any screen (issue 23). Both load the run page's own chunk,
// where the outbox and the inspection reads live: kept in one chunk, the run page's first load stays
// within its budget (docs/offline.md, "Weight"), and an inspection fetched ahead opens offline.
const loadRunPage = () => import('./routes/inspection-detail');

/**
 * Sends the signed-in user's waiting changes as soon as they can go, from any screen: at sign-in
 * (after a session expired, they wait on the device), and whenever the session's token is renewed
 * (a backoff from the refused attempts would otherwise hold them for up to a minute). Waits for
 * supabase-js, which is there at once after a sign-in or a renewal, and follows the first screen
 * otherwise.
 */
export function useSendWaitingChanges(userId: string | undefined, accessToken: string | undefined, expired: boolean): void {
  useEffect(() => {
    if (!userId || !accessToken || expired) return;
    let current = true;
    void supabaseLoaded()
      .then(loadRunPage)
      .then((runPage) => {
        if (current) return runPage.sendWaitingChanges(userId);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [userId, accessToken, expired]);
}

/**
 * The user's upcoming work, read into the device's cache in the background: once the first screen
 * is quiet (supabase-js follows it: lib/auth.ts), every ten minutes, and when the network returns.
 */
export function useUpcomingWork(queryClient: QueryClient, me: { user_id: string; memberships: { org_id: string; role: Role }[] } | undefined): void {
  const userId = me?.user_id;
  const orgs = me?.memberships.map((membership) => `${membership.org_id}:${membership.role}`).join(',');
  useEffect(() => {
    if (!me) return;
    let stop: (() => void) | undefined;
    let current = true;
    void supabaseLoaded()
      .then(loadRunPage)
      .then(async ({ keepUpcomingWork }) => {
        if (!current) return;
        const stopKeeping = await keepUpcomingWork(queryClient, me.memberships, me.user_id);
        if (current) stop = stopKeeping;
        else stopKeeping();
      })
      .catch(() => undefined);
    return () => {
      current = false;
      stop?.();
    };
    // By value: a refetched `me` with the same organizations and roles changes nothing.
  }, [queryClient, userId, orgs]);
}
