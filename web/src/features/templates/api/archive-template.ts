import type { Template } from '@schemas/templates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedTemplate } from './get-template';

export interface ArchiveTemplateInput {
  orgId: string;
  templateId: string;
}

/** `POST …/templates/{id}/archive`: no new inspections from it; its versions and their inspections stay. */
export function archiveTemplate({ orgId, templateId }: ArchiveTemplateInput): Promise<Template> {
  return callApi<Template>(apiPath('orgs', orgId, 'templates', templateId, 'archive'), { method: 'POST' });
}

export function useArchiveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveTemplate,
    onSuccess: (template, { orgId }) => storeSavedTemplate(queryClient, orgId, template),
  });
}
