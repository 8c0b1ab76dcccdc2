import type { Site, SiteCreate } from '@schemas/sites';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedSite } from './get-site';

export interface CreateSiteInput {
  orgId: string;
  body: SiteCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/sites`. */
export function createSite({ orgId, body, idempotencyKey }: CreateSiteInput): Promise<Site> {
  return callApi<Site>(apiPath('orgs', orgId, 'sites'), { method: 'POST', body, idempotencyKey });
}

export function useCreateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSite,
    onSuccess: (site, { orgId }) => storeSavedSite(queryClient, orgId, site),
  });
}
