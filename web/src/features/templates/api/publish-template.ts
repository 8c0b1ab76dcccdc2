import type { Template } from '@schemas/templates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { storeSavedTemplate } from './get-template';

export interface PublishTemplateInput {
  orgId: string;
  templateId: string;
}

/** `POST …/templates/{id}/publish`: the saved draft becomes version n+1 (no new version when nothing changed). */
export function publishTemplate({ orgId, templateId }: PublishTemplateInput): Promise<Template> {
  return callApi<Template>(apiPath('orgs', orgId, 'templates', templateId, 'publish'), { method: 'POST' });
}

export function usePublishTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishTemplate,
    onSuccess: (template, { orgId }) => storeSavedTemplate(queryClient, orgId, template),
  });
}
