import { siteCreateSchema, siteUpdateSchema, type Site, type SiteCreate, type SiteUpdate } from '@schemas/sites';
import { LocateFixed } from 'lucide-react';
import { useRef } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { numberField } from '@/lib/form-values';
import { useCreateSite } from '../api/create-site';
import { useUpdateSite } from '../api/update-site';
import { useCurrentPosition } from '../hooks/use-current-position';
import { browserTimeZone, timeZoneNames } from '../utils/site-format';

type FormInput = Record<string, string | undefined>;

/** The form's text as the API's body; `clearedPosition` is what an empty coordinate (and no group) means. */
function siteBody(values: FormInput, clearedPosition: null | undefined) {
  return {
    // Only a form with the group field sends one ('' there: no group).
    ...(values.group_id === undefined ? {} : { group_id: values.group_id === '' ? clearedPosition : values.group_id }),
    name: values.name,
    address: values.address ?? '',
    latitude: numberField(values.latitude, clearedPosition),
    longitude: numberField(values.longitude, clearedPosition),
    geofence_m: numberField(values.geofence_m),
    timezone: values.timezone,
    external_ref: values.external_ref ?? '',
  };
}

// A new site leaves out an empty position; an edited one clears it with null.
const createFormSchema = z.preprocess((input) => siteBody(input as FormInput, undefined), siteCreateSchema);
const updateFormSchema = z.preprocess((input) => siteBody(input as FormInput, null), siteUpdateSchema);

interface SiteFormProps {
  orgId: string;
  /** The site being edited; absent for a new one. */
  site?: Site;
  /** The organization's default, proposed for a new site. */
  defaultGeofenceM: number;
  onSaved?: (site: Site) => void;
  /** The site groups it may go in (the page brings them); none: the form has no group field. */
  groups?: SiteFormGroups;
}

export interface SiteFormGroups {
  /** Each group named by its path ("North › Harbour"). */
  choices: Array<{ value: string; label: string }>;
  /** Whether "No group" is offered (a manager limited to groups must keep the site in one of theirs). */
  allowNone: boolean;
}

export function SiteForm({ orgId, site, defaultGeofenceM, onSaved, groups }: SiteFormProps) {
  const createSite = useCreateSite();
  const updateSite = useUpdateSite();
  const idempotency = useIdempotencyKey();
  const position = useCurrentPosition();
  const latitudeRef = useRef<HTMLInputElement>(null);
  const longitudeRef = useRef<HTMLInputElement>(null);

  const timezone = site?.timezone ?? browserTimeZone();
  const zones = timeZoneNames();
  const timezoneOptions = (zones.includes(timezone) ? zones : [timezone, ...zones]).map((zone) => ({ value: zone, label: zone }));

  const create = useValidatedSubmit(createFormSchema, (body: SiteCreate, { fail }) =>
    createSite.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (created) => {
          idempotency.reset();
          onSaved?.(created);
        },
        onError: fail,
      },
    ),
  );
  const update = useValidatedSubmit(updateFormSchema, (body: SiteUpdate, { fail }) => {
    if (!site) return;
    updateSite.mutate({ orgId, siteId: site.id, body }, { onSuccess: onSaved, onError: fail });
  });
  const { failure, handleSubmit } = site ? update : create;
  const pending = createSite.isPending || updateSite.isPending;

  function fillPosition() {
    position.locate(({ latitude, longitude }) => {
      if (latitudeRef.current) latitudeRef.current.value = latitude.toFixed(6);
      if (longitudeRef.current) longitudeRef.current.value = longitude.toFixed(6);
    });
  }

  return (
    <form
      className="form"
      onSubmit={(event) => {
        // A new attempt hides the last "saved" message.
        updateSite.reset();
        handleSubmit(event);
      }}
      // An edit after saving: "saved" is no longer true of what the form shows.
      onInput={() => {
        if (updateSite.isSuccess) updateSite.reset();
      }}
      noValidate
    >
      <FormAlert message={failure?.message} />
      {updateSite.isSuccess ? <FormAlert tone="success" message="Your changes have been saved." /> : null}
      <TextField label="Name" name="name" required maxLength={120} defaultValue={site?.name ?? ''} error={failure?.fieldErrors.name} />
      <TextField
        label="Address"
        name="address"
        autoComplete="street-address"
        maxLength={500}
        defaultValue={site?.address ?? ''}
        error={failure?.fieldErrors.address}
      />
      <fieldset className="fieldset">
        <legend>Position</legend>
        <p className="field-hint">Decimal degrees, e.g. 51.5072 and -0.1276. Leave both empty if the site has no fixed position.</p>
        <div className="form-row">
          <TextField
            ref={latitudeRef}
            label="Latitude"
            name="latitude"
            inputMode="decimal"
            defaultValue={site?.latitude ?? ''}
            error={failure?.fieldErrors.latitude}
          />
          <TextField
            ref={longitudeRef}
            label="Longitude"
            name="longitude"
            inputMode="decimal"
            defaultValue={site?.longitude ?? ''}
            error={failure?.fieldErrors.longitude}
          />
        </div>
        {position.supported ? (
          <div>
            <Button variant="secondary" pending={position.locating} onClick={fillPosition}>
              <LocateFixed aria-hidden="true" size={18} />
              Use my current location
            </Button>
          </div>
        ) : null}
        <FormAlert message={position.error} />
      </fieldset>
      <TextField
        label="Geofence (metres)"
        name="geofence_m"
        type="number"
        inputMode="numeric"
        min={10}
        max={5000}
        step={1}
        defaultValue={site?.geofence_m ?? defaultGeofenceM}
        hint="How far from the site an inspection may be started, from 10 to 5000 metres."
        error={failure?.fieldErrors.geofence_m}
      />
      <SelectField
        label="Time zone"
        name="timezone"
        options={timezoneOptions}
        defaultValue={timezone}
        error={failure?.fieldErrors.timezone}
      />
      {groups ? (
        <SelectField
          label="Group"
          name="group_id"
          options={[...(groups.allowNone ? [{ value: '', label: 'No group' }] : []), ...groups.choices]}
          defaultValue={site?.group_id ?? (groups.allowNone ? '' : groups.choices[0]?.value)}
          hint="People limited to a group see only its sites."
          error={failure?.fieldErrors.group_id}
        />
      ) : null}
      <TextField
        label="External reference"
        name="external_ref"
        maxLength={255}
        defaultValue={site?.external_ref ?? ''}
        hint="Optional: this site's id in another system."
        error={failure?.fieldErrors.external_ref}
      />
      <div>
        <Button type="submit" pending={pending}>
          {site ? 'Save changes' : 'Add site'}
        </Button>
      </div>
    </form>
  );
}
