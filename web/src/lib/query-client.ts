import { MutationCache, onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './errors';
import { isMfaRequired, notifyMfaRequired } from './mfa-required';

/** How long the device keeps a user's data for offline use (lib/query-persistence.ts). */
export const KEPT_ON_DEVICE_MS = 7 * 24 * 60 * 60 * 1000;

// Client errors (4xx) won't change on retry; only transient failures are retried.
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status !== null && error.status < 500) return false;
  return failureCount < 2;
}

export const queryClient = new QueryClient({
  // Writes in an organization that requires MFA need aal2: any refused write sends the user to step up.
  mutationCache: new MutationCache({
    onError: (error) => {
      if (isMfaRequired(error)) notifyMfaRequired();
    },
  }),
  defaultOptions: {
    // Kept in memory as long as the device keeps them (lib/query-persistence.ts): a restored or
    // prefetched inspection nobody has looked at yet this visit must not be dropped after the
    // default five minutes, and with it from the device's copy.
    queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: true, gcTime: KEPT_ON_DEVICE_MS },
    mutations: { retry: false },
  },
});

// TanStack Query assumes it starts online and learns only from later online/offline events; a page
// loaded with no network (from the service worker) would try, fail and show an error over the
// copy kept on the device. Tell it the truth from the start: queries wait for the network instead.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
