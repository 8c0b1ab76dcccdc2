import type { Organization, OrganizationUpdate } from '@schemas/organizations';
import { useMutation } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export interface UpdateOrganizationInput {
  orgId: string;
  body: OrganizationUpdate;
}

/** `PATCH /orgs/{org}`: name, default geofence, two-factor requirement. */
export function updateOrganization({ orgId, body }: UpdateOrganizationInput): Promise<Organization> {
  return callApi<Organization>(apiPath('orgs', orgId), { method: 'PATCH', body });
}

// The organization's queries belong to the organizations feature: the page refreshes them on success.
export function useUpdateOrganization() {
  return useMutation({ mutationFn: updateOrganization });
}
