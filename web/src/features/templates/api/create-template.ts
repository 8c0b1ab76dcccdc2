import type { Template, TemplateCreate } from '@schemas/templates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedTemplate } from './get-template';

export interface CreateTemplateInput {
  orgId: string;
  body: TemplateCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/templates`: a new draft. */
export function createTemplate({ orgId, body, idempotencyKey }: CreateTemplateInput): Promise<Template> {
  return callApi<Template>(apiPath('orgs', orgId, 'templates'), { method: 'POST', body, idempotencyKey });
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: (template, { orgId }) => storeSavedTemplate(queryClient, orgId, template),
  });
}
