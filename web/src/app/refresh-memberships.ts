import type { QueryClient } from '@tanstack/react-query';
import { meQueryOptions } from '../features/profile/api/get-me';

/**
 * Re-reads GET /me and waits for it: after joining, creating, leaving or renaming an organization,
 * the /o/:org pages resolve their slug from these memberships.
 */
export function refreshMemberships(queryClient: QueryClient) {
  return queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 });
}
