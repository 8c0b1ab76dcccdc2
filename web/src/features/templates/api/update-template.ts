import type { Template, TemplateUpdate } from '@schemas/templates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedTemplate } from './get-template';

export interface UpdateTemplateInput {
  orgId: string;
  templateId: string;
  body: TemplateUpdate;
}

/** `PATCH /orgs/{org}/templates/{id}`: saves the draft; `base_revision` refuses to overwrite someone else's save. */
export function updateTemplate({ orgId, templateId, body }: UpdateTemplateInput): Promise<Template> {
  return callApi<Template>(apiPath('orgs', orgId, 'templates', templateId), { method: 'PATCH', body });
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTemplate,
    onSuccess: (template, { orgId }) => storeSavedTemplate(queryClient, orgId, template),
  });
}
