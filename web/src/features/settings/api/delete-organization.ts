import { useMutation } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

/** `DELETE /orgs/{org}`: owners only; everything in the organization goes with it. */
export function deleteOrganization(orgId: string): Promise<void> {
  return callApi<void>(apiPath('orgs', orgId), { method: 'DELETE' });
}

// What was cached about the organization is dropped by the page, which knows every feature's keys.
export function useDeleteOrganization() {
  return useMutation({ mutationFn: deleteOrganization });
}
