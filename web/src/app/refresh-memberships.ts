import type { QueryClient } from '@tanstack/react-query';
import { organizationKeys } from '../features/organizations/api/get-organizations';
import { meQueryOptions } from '../features/profile/api/get-me';

/**
 * Re-reads GET /me and waits for it: after joining, creating, leaving or renaming an organization,
 * the /o/:org pages resolve their slug from these memberships.
 */
export function refreshMemberships(queryClient: QueryClient) {
  return queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 });
}

/** After an organization was renamed, deleted or lost: the organization list and the memberships are read again. */
export function refreshOrganizations(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: organizationKeys.list() });
  void refreshMemberships(queryClient).catch(() => undefined);
}
