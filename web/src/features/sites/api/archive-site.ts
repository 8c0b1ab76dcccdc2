import type { Site } from '@schemas/sites';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedSite } from './get-site';

export interface ArchiveSiteInput {
  orgId: string;
  siteId: string;
}

/** `DELETE /orgs/{org}/sites/{id}` archives: the site leaves the active list but keeps its history. */
export function archiveSite({ orgId, siteId }: ArchiveSiteInput): Promise<Site> {
  return callApi<Site>(apiPath('orgs', orgId, 'sites', siteId), { method: 'DELETE' });
}

export function useArchiveSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveSite,
    onSuccess: (site, { orgId }) => storeSavedSite(queryClient, orgId, site),
  });
}
