import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { apiKeyKeys } from './get-api-keys';

export interface RevokeApiKeyInput {
  orgId: string;
  keyId: string;
}

/** `DELETE /orgs/{org}/api-keys/{id}`: the key stops working at once and stays listed as revoked. */
export function revokeApiKey({ orgId, keyId }: RevokeApiKeyInput): Promise<void> {
  return callApi<void>(apiPath('orgs', orgId, 'api-keys', keyId), { method: 'DELETE' });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: (_result, _error, { orgId }) => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}
