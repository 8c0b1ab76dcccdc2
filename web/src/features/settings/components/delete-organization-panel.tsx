import type { Organization } from '@schemas/organizations';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useDeleteOrganization } from '../api/delete-organization';

interface DeleteOrganizationPanelProps {
  organization: Organization;
  onDeleted: () => void;
}

/** Deleting takes two steps and the organization's name typed out, as it can't be undone. */
export function DeleteOrganizationPanel({ organization, onDeleted }: DeleteOrganizationPanelProps) {
  const deleteOrganization = useDeleteOrganization();
  const [confirming, setConfirming] = useState(false);
  const schema = useMemo(
    () =>
      z.object({
        confirmation: z
          .string()
          .trim()
          .refine((value) => value === organization.name.trim(), { error: `Type ${organization.name} exactly to confirm.` }),
      }),
    [organization.name],
  );
  const { failure, handleSubmit } = useValidatedSubmit(schema, (_data, { fail }) =>
    deleteOrganization.mutate(organization.id, { onSuccess: onDeleted, onError: fail }),
  );

  if (!confirming) {
    return (
      <div className="stack">
        <p>Deleting removes the organization with its members, invitations and sites for everyone. This can't be undone.</p>
        <div>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete organization
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={handleSubmit} noValidate>
      <FormAlert message={failure?.message} />
      <TextField
        label={`Type ${organization.name} to confirm`}
        name="confirmation"
        autoComplete="off"
        required
        autoFocus
        error={failure?.fieldErrors.confirmation}
      />
      <div className="button-row">
        <Button type="submit" variant="danger" pending={deleteOrganization.isPending}>
          Delete organization permanently
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(false)} disabled={deleteOrganization.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
