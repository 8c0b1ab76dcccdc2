import type { Template } from '@schemas/templates';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { templateKeys } from './get-templates';

/** `GET /orgs/{org}/templates/{id}`: the template with its working draft. */
export function getTemplate(orgId: string, templateId: string): Promise<Template> {
  return callApi<Template>(apiPath('orgs', orgId, 'templates', templateId));
}

export function templateQueryOptions(orgId: string, templateId: string) {
  return queryOptions({ queryKey: templateKeys.detail(orgId, templateId), queryFn: () => getTemplate(orgId, templateId) });
}

export function useTemplate(orgId: string, templateId: string) {
  return useQuery(templateQueryOptions(orgId, templateId));
}

/** After a create, save, publish or archive: the answer is the template now, and the lists may show it differently. */
export function storeSavedTemplate(queryClient: QueryClient, orgId: string, template: Template) {
  queryClient.setQueryData(templateQueryOptions(orgId, template.id).queryKey, template);
  return queryClient.invalidateQueries({ queryKey: templateKeys.lists(orgId) });
}
