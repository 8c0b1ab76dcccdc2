import type { ApiKeyCreate, CreatedApiKey } from '@schemas/api-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { apiKeyKeys } from './get-api-keys';

export interface CreateApiKeyInput {
  orgId: string;
  body: ApiKeyCreate;
  idempotencyKey: string;
}

/** `POST /orgs/{org}/api-keys`: the answer holds the secret, this once. */
export function createApiKey({ orgId, body, idempotencyKey }: CreateApiKeyInput): Promise<CreatedApiKey> {
  return callApi<CreatedApiKey>(apiPath('orgs', orgId, 'api-keys'), { method: 'POST', body, idempotencyKey });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: (_key, { orgId }) => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}
