import type { WebhookEndpoint, WebhookEventType } from '@schemas/webhooks';
import { useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useValidatedSubmit } from '@/lib/use-validated-submit';
import { useCreateWebhook, useUpdateWebhook } from '../api/endpoints';
import { EventChoice } from './event-choice';

const urlFormSchema = z.object({
  url: z.string().trim().regex(/^https?:\/\/\S+$/i, { error: 'Enter a full http or https URL, e.g. https://example.com/webhooks.' }),
});

interface EndpointFormProps {
  orgId: string;
  /** Editing this endpoint; none: adding one. */
  endpoint?: WebhookEndpoint;
  onCreated?: (created: { url: string; secret: string | null }) => void;
  onDone?: () => void;
}

/** Adds an endpoint (its secret then shows once) or edits one. */
export function EndpointForm({ orgId, endpoint, onCreated, onDone }: EndpointFormProps) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const idempotency = useIdempotencyKey();
  const [events, setEvents] = useState<Set<WebhookEventType>>(new Set(endpoint?.event_types ?? []));
  const { failure, handleSubmit } = useValidatedSubmit(urlFormSchema, ({ url }, { form, fail }) => {
    const body = { url, event_types: [...events] };
    if (endpoint) {
      update.mutate({ orgId, id: endpoint.id, body }, { onSuccess: () => onDone?.(), onError: fail });
      return;
    }
    create.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (created) => {
          idempotency.reset();
          form.reset();
          setEvents(new Set());
          onCreated?.(created);
        },
        onError: fail,
      },
    );
  });
  return (
    <form className="form" onSubmit={handleSubmit} noValidate aria-label={endpoint ? `Edit ${endpoint.url}` : 'Add a webhook endpoint'}>
      <FormAlert message={failure?.message} />
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        required
        placeholder="https://example.com/webhooks/fieldcheck"
        defaultValue={endpoint?.url}
        error={failure?.fieldErrors.url}
      />
      <EventChoice selected={events} onChange={setEvents} />
      {failure?.fieldErrors.event_types ? <p className="field-error">{failure.fieldErrors.event_types}</p> : null}
      <div className="button-row">
        <Button type="submit" pending={create.isPending || update.isPending}>
          {endpoint ? 'Save endpoint' : 'Add endpoint'}
        </Button>
        {endpoint ? <Button type="button" variant="secondary" onClick={onDone}>Cancel</Button> : null}
      </div>
    </form>
  );
}
