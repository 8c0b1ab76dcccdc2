import type { Organization } from '@schemas/organizations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { organizationKeys } from './get-organizations';

/** `GET /orgs/{org}`: one organization with the caller's role in it. */
export function getOrganization(orgId: string): Promise<Organization> {
  return callApi<Organization>(apiPath('orgs', orgId));
}

export function organizationQueryOptions(orgId: string) {
  return queryOptions({ queryKey: organizationKeys.detail(orgId), queryFn: () => getOrganization(orgId) });
}

export function useOrganization(orgId: string) {
  return useQuery(organizationQueryOptions(orgId));
}
