import { useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { DueField } from '@/components/ui/due-field';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateInspection } from '../api/create-inspection';
import type { Inspection, InspectionCreate } from '../types';
import type { Choice } from './inspection-list';
import { SiteSearchSelect, type SiteSearch } from './site-search-select';

const scheduleFormSchema = z.object({
  site_id: z.string().min(1, { error: 'Choose a site.' }),
  template_id: z.string().min(1, { error: 'Choose a published template.' }),
  assignee_id: z.string().transform((value) => (value === '' ? null : value)),
  due_at: z
    .string()
    // The instant DueField worked out from the time typed on the site's clock.
    .refine((value) => value === '' || !Number.isNaN(new Date(value).getTime()), { error: 'Enter a date and time.' })
    .transform((value) => (value === '' ? null : new Date(value).toISOString())),
  title: z
    .string()
    .trim()
    .max(120, { error: 'Use at most 120 characters.' })
    .transform((value) => (value === '' ? undefined : value)),
});

interface ScheduleInspectionFormProps {
  orgId: string;
  sites: SiteSearch;
  /** Published templates only: an inspection pins the latest published version. */
  templates: Choice[];
  /** Members who may fill in inspections. */
  assignees: Choice[];
  onScheduled: (inspection: Inspection) => void;
}

export function ScheduleInspectionForm({ orgId, sites, templates, assignees, onScheduled }: ScheduleInspectionFormProps) {
  const createInspection = useCreateInspection();
  const idempotency = useIdempotencyKey();
  // The due time is typed on the chosen site's clock.
  const [siteId, setSiteId] = useState('');
  const { failure, handleSubmit } = useValidatedSubmit(scheduleFormSchema, (body: InspectionCreate, { fail }) =>
    createInspection.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (inspection) => {
          idempotency.reset();
          onScheduled(inspection);
        },
        onError: fail,
      },
    ),
  );

  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-label="Schedule an inspection">
      <FormAlert message={failure?.message} />
      <SiteSearchSelect
        search={sites}
        noneLabel={sites.choices.length === 0 ? (sites.query.trim() === '' ? 'No active sites' : 'No sites match') : 'Choose a site'}
        defaultValue=""
        onChange={(event) => setSiteId(event.target.value)}
        error={failure?.fieldErrors.site_id}
      />
      <SelectField
        label="Template"
        name="template_id"
        options={[{ value: '', label: templates.length === 0 ? 'No published templates' : 'Choose a template' }, ...templates]}
        defaultValue=""
        hint="Only published templates; the inspection uses the latest published version."
        error={failure?.fieldErrors.template_id}
      />
      <SelectField
        label="Assignee"
        name="assignee_id"
        options={[{ value: '', label: 'Unassigned (any inspector)' }, ...assignees]}
        defaultValue=""
        error={failure?.fieldErrors.assignee_id}
      />
      <DueField
        timeZone={sites.timeZoneOf(siteId) ?? null}
        error={failure?.fieldErrors.due_at}
        pastMeaning="the inspection will be overdue as soon as it is scheduled"
      />
      <TextField
        label="Title"
        name="title"
        maxLength={120}
        hint="Optional: by default the template's name and the site's."
        error={failure?.fieldErrors.title}
      />
      <div>
        <Button type="submit" pending={createInspection.isPending}>
          Schedule inspection
        </Button>
      </div>
    </form>
  );
}
