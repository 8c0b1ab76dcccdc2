import { organizationUpdateSchema, type Organization } from '@schemas/organizations';
import { useMemo } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { checkboxField, numberField } from '@/lib/form-values';
import { useUpdateOrganization } from '../api/update-organization';

interface OrganizationSettingsFormProps {
  organization: Organization;
  onSaved: (organization: Organization) => void;
}

export function OrganizationSettingsForm({ organization, onSaved }: OrganizationSettingsFormProps) {
  const updateOrganization = useUpdateOrganization();

  // Only changed fields are sent: turning two-factor authentication on needs aal2, leaving it on doesn't.
  const schema = useMemo(
    () =>
      z.preprocess((input) => {
        const values = input as Record<string, string | undefined>;
        const changes: Record<string, unknown> = {};
        const name = values.name ?? '';
        if (name.trim() !== organization.name) changes.name = name;
        const geofence = numberField(values.default_geofence_m);
        // An emptied field is sent as text, so the schema asks for a distance.
        if (geofence !== organization.default_geofence_m) changes.default_geofence_m = geofence ?? '';
        const requireMfa = checkboxField(values.require_mfa);
        if (requireMfa !== organization.require_mfa) changes.require_mfa = requireMfa;
        return changes;
      }, organizationUpdateSchema),
    [organization],
  );

  const { failure, handleSubmit } = useValidatedSubmit(schema, (body, { fail }) =>
    updateOrganization.mutate({ orgId: organization.id, body }, { onSuccess: onSaved, onError: fail }),
  );

  return (
    <form
      className="form"
      onSubmit={(event) => {
        // A new attempt hides the last "saved" message.
        updateOrganization.reset();
        handleSubmit(event);
      }}
      // An edit after saving: "saved" is no longer true of what the form shows.
      onInput={() => {
        if (updateOrganization.isSuccess) updateOrganization.reset();
      }}
      noValidate
    >
      <FormAlert message={failure?.message} />
      {updateOrganization.isSuccess ? <FormAlert tone="success" message="The settings have been saved." /> : null}
      <TextField
        label="Organization name"
        name="name"
        required
        maxLength={120}
        defaultValue={organization.name}
        error={failure?.fieldErrors.name}
      />
      <TextField
        label="Default geofence (metres)"
        name="default_geofence_m"
        type="number"
        inputMode="numeric"
        min={10}
        max={5000}
        step={1}
        required
        defaultValue={organization.default_geofence_m}
        hint="Proposed for new sites: how far from a site an inspection may be started, from 10 to 5000 metres."
        error={failure?.fieldErrors.default_geofence_m}
      />
      <CheckboxField
        label="Require two-factor authentication"
        name="require_mfa"
        defaultChecked={organization.require_mfa}
        hint="Members must confirm with an authenticator app before they change anything here. Turning this on needs your own authenticator code."
        error={failure?.fieldErrors.require_mfa}
      />
      <div>
        <Button type="submit" pending={updateOrganization.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
