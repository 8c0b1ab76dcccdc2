import type { Site, SiteUpdate } from '@schemas/sites';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedSite } from './get-site';

export interface UpdateSiteInput {
  orgId: string;
  siteId: string;
  body: SiteUpdate;
}

/** `PATCH /orgs/{org}/sites/{id}`: changed fields, or `archived: false` to bring a site back. */
export function updateSite({ orgId, siteId, body }: UpdateSiteInput): Promise<Site> {
  return callApi<Site>(apiPath('orgs', orgId, 'sites', siteId), { method: 'PATCH', body });
}

export function useUpdateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSite,
    onSuccess: (site, { orgId }) => storeSavedSite(queryClient, orgId, site),
  });
}
