import type { Organization, OrganizationCreate } from '@schemas/organizations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api';
import { organizationQueryOptions } from './get-organization';
import { organizationKeys } from './get-organizations';

export interface CreateOrganizationInput {
  body: OrganizationCreate;
  idempotencyKey: string;
}

/** `POST /orgs`: the caller becomes its owner. */
export function createOrganization({ body, idempotencyKey }: CreateOrganizationInput): Promise<Organization> {
  return callApi<Organization>('orgs', { method: 'POST', body, idempotencyKey });
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationQueryOptions(organization.id).queryKey, organization);
      return queryClient.invalidateQueries({ queryKey: organizationKeys.list() });
    },
  });
}
