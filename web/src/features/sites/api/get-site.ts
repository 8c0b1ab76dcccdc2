import type { Site } from '@schemas/sites';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
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

/** After a create, update or archive: the answer is the site now, and the lists may order or filter it differently. */
export function storeSavedSite(queryClient: QueryClient, orgId: string, site: Site) {
  queryClient.setQueryData(siteQueryOptions(orgId, site.id).queryKey, site);
  return queryClient.invalidateQueries({ queryKey: siteKeys.lists(orgId) });
}
