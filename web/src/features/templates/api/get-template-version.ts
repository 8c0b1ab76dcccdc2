import type { TemplateVersion } from '@schemas/templates';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { templateKeys } from './get-templates';

/** `GET /orgs/{org}/templates/{id}/versions/{n}`: a published snapshot, which never changes. */
export function getTemplateVersion(orgId: string, templateId: string, version: number): Promise<TemplateVersion> {
  return callApi<TemplateVersion>(apiPath('orgs', orgId, 'templates', templateId, 'versions', String(version)));
}

export function templateVersionQueryOptions(orgId: string, templateId: string, version: number) {
  return queryOptions({
    queryKey: templateKeys.version(orgId, templateId, version),
    queryFn: () => getTemplateVersion(orgId, templateId, version),
    // Versions are immutable: once read, never stale.
    staleTime: Infinity,
  });
}

export function useTemplateVersion(orgId: string, templateId: string, version: number | null) {
  return useQuery({ ...templateVersionQueryOptions(orgId, templateId, version ?? 0), enabled: version !== null });
}
