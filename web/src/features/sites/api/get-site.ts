import type { Site } from '@schemas/sites';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '../../../lib/api';
import { siteKeys } from './get-sites';

/** `GET /orgs/{org}/sites/{id}`. */
export function getSite(orgId: string, siteId: string): Promise<Site> {
  return callApi<Site>(apiPath('orgs', orgId, 'sites', siteId));
}

export function siteQueryOptions(orgId: string, siteId: string) {
  return queryOptions({ queryKey: siteKeys.detail(orgId, siteId), queryFn: () => getSite(orgId, siteId) });
}

export function useSite(orgId: string, siteId: string) {
  return useQuery(siteQueryOptions(orgId, siteId));
}
