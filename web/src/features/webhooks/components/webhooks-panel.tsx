import { WEBHOOK_ENDPOINT_LIMIT, WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '@schemas/webhooks';
import { useState } from 'react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { FormAlert } from '../../../components/ui/form-alert';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { QueryError } from '../../../components/ui/query-error';
import { SecretShownOnce } from '../../../components/ui/secret-shown-once';
import { TextField } from '../../../components/ui/text-field';
import { describeErrorSentence } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency-key';
import { useValidatedSubmit } from '../../../lib/use-validated-submit';
import { useDeliveries, useRedeliver } from '../api/deliveries';
import {
  useCreateWebhook, useDeleteWebhook, useRotateWebhookSecret, useSendTestWebhook, useUpdateWebhook, useWebhooks,
} from '../api/endpoints';

const urlFormSchema = z.object({
  url: z.string().trim().regex(/^https?:\/\/\S+$/i, { error: 'Enter a full http or https URL, e.g. https://example.com/webhooks.' }),
});

// The events people choose from, grouped as they think of them; webhook.test is for "Send test event".
const EVENT_GROUPS: { title: string; types: WebhookEventType[] }[] = [
  { title: 'Inspections', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('inspection.')) },
  { title: 'Actions', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('action.')) },
  { title: 'Sites', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('site.')) },
  { title: 'Templates', types: WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('template.')) },
];

/** Owners and admins: endpoints that receive signed events, each with its delivery log. */
export function WebhooksPanel({ orgId }: { orgId: string }) {
  const endpoints = useWebhooks(orgId);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  if (endpoints.isPending) return <p className="muted">Loading webhooks…</p>;
  if (endpoints.isError) return <QueryError error={endpoints.error} onRetry={() => endpoints.refetch()} />;
  const rows = endpoints.data.data;
  return (
    <div className="stack">
      <p>
        Fieldcheck sends each change you choose (an inspection submitted, an action verified, …) to your URL as a signed POST
        (<a href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer">Standard Webhooks</a>). A receiver that fails
        is tried again for about three days.
      </p>
      {secret ? (
        <NewSigningSecret shown={secret} onDone={() => setSecret(null)} />
      ) : rows.length >= WEBHOOK_ENDPOINT_LIMIT ? (
        <p className="muted">This organization has {WEBHOOK_ENDPOINT_LIMIT} endpoints, the most it can have. Remove one to add another.</p>
      ) : (
        <EndpointForm
          orgId={orgId}
          onCreated={(created) =>
            setSecret({
              made: `The endpoint ${created.url} was added.`,
              lost: `The endpoint ${created.url} was added, but its signing secret was lost on the way. Replace its secret below to get a new one.`,
              value: created.secret,
            })}
        />
      )}
      {rows.length === 0 ? (
        <p className="muted">No endpoints yet.</p>
      ) : (
        <ul className="card-list" aria-label="Webhook endpoints">
          {rows.map((endpoint) => (
            <EndpointItem
              key={endpoint.id}
              orgId={orgId}
              endpoint={endpoint}
              onSecret={(value) =>
                setSecret({
                  made: `The secret of ${endpoint.url} was replaced.`,
                  lost: `The secret of ${endpoint.url} was replaced, but the new one was lost on the way. Replace it again to get one.`,
                  value,
                })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

interface ShownSecret {
  /** What was done, said before the secret. */
  made: string;
  /** What was done, said when the answer came without its secret. */
  lost: string;
  /** Null in a retried request's answer: the secret is in the first answer only. */
  value: string | null;
}

/** A new signing secret, once; or, where a retried request's answer has none, what to do instead. */
function NewSigningSecret({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  if (shown.value === null) {
    return (
      <div className="stack" role="status">
        <FormAlert message={shown.lost} />
        <div>
          <Button type="button" variant="secondary" onClick={onDone}>OK</Button>
        </div>
      </div>
    );
  }
  return <SecretShownOnce made={shown.made} label="Signing secret" secretName="signing secret" secret={shown.value} onDone={onDone} />;
}

/** Every event unless the person chooses some: the list of 19 shows only when asked for. */
function EventChoice({ selected, onChange }: { selected: Set<WebhookEventType>; onChange: (next: Set<WebhookEventType>) => void }) {
  const [choosing, setChoosing] = useState(selected.size > 0);
  const toggle = (type: WebhookEventType) => {
    const next = new Set(selected);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    onChange(next);
  };
  return (
    <fieldset className="field event-choice">
      <legend>Events</legend>
      <label className="checkbox-row">
        <input type="radio" name="event-scope" checked={!choosing} onChange={() => { setChoosing(false); onChange(new Set()); }} />
        Every event
      </label>
      <label className="checkbox-row">
        <input type="radio" name="event-scope" checked={choosing} onChange={() => setChoosing(true)} />
        Only the events I choose
      </label>
      {choosing
        ? EVENT_GROUPS.map((group) => (
          <div key={group.title} className="event-group">
            <span className="event-group-title">{group.title}</span>
            {group.types.map((type) => (
              <label key={type} className="checkbox-row">
                <input type="checkbox" checked={selected.has(type)} onChange={() => toggle(type)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
        ))
        : null}
    </fieldset>
  );
}

interface EndpointFormProps {
  orgId: string;
  /** Editing this endpoint; none: adding one. */
  endpoint?: WebhookEndpoint;
  onCreated?: (created: { url: string; secret: string | null }) => void;
  onDone?: () => void;
}

function EndpointForm({ orgId, endpoint, onCreated, onDone }: EndpointFormProps) {
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

function EndpointItem({ orgId, endpoint, onSecret }: { orgId: string; endpoint: WebhookEndpoint; onSecret: (secret: string | null) => void }) {
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useSendTestWebhook();
  const report = { onError: (cause: unknown) => setError(describeErrorSentence(cause)) };
  const act = (message?: string) => {
    setError(undefined);
    setNotice(message);
  };

  if (editing) {
    return (
      <li className="card-list-item webhook-endpoint">
        <EndpointForm orgId={orgId} endpoint={endpoint} onDone={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="card-list-item webhook-endpoint">
      <div className="stack">
        <div>
          <span className="card-list-title webhook-url">{endpoint.url}</span>
          <div className="muted">
            {endpoint.enabled ? 'On' : 'Off'} · {endpoint.event_types.length === 0 ? 'every event' : endpoint.event_types.join(', ')}
          </div>
        </div>
        <FormAlert message={error} />
        <FormAlert tone="success" message={notice} />
        <div className="button-row">
          <Button
            type="button"
            variant="secondary"
            pending={test.isPending}
            onClick={() => {
              act();
              test.mutate({ orgId, id: endpoint.id }, {
                ...report,
                onSuccess: () => {
                  setNotice('A test event is on its way. It shows in the delivery log.');
                  setShowLog(true);
                },
              });
            }}
          >
            Send test event
          </Button>
          <Button type="button" variant="secondary" onClick={() => setShowLog((shown) => !shown)} aria-expanded={showLog}>
            {showLog ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button type="button" variant="secondary" onClick={() => setEditing(true)}>Edit</Button>
          <Button
            type="button"
            variant="secondary"
            pending={update.isPending}
            onClick={() => {
              act();
              update.mutate({ orgId, id: endpoint.id, body: { enabled: !endpoint.enabled } }, {
                ...report,
                onSuccess: (saved) => setNotice(saved.enabled ? 'Switched on: new events are sent.' : 'Switched off: no new events are sent.'),
              });
            }}
          >
            {endpoint.enabled ? 'Switch off' : 'Switch on'}
          </Button>
          <ConfirmButton
            label={`Replace the secret of ${endpoint.url}`}
            question="Replace the signing secret? Deliveries are signed with the new one at once, so update your receiver."
            confirmText="Yes, replace"
            variant="secondary"
            pending={rotate.isPending}
            onConfirm={() => {
              act();
              rotate.mutate({ orgId, id: endpoint.id }, { ...report, onSuccess: (rotated) => onSecret(rotated.secret) });
            }}
          >
            Replace secret
          </ConfirmButton>
          <ConfirmButton
            label={`Remove ${endpoint.url}`}
            question={`Remove ${endpoint.url} and its delivery log?`}
            confirmText="Yes, remove"
            pending={remove.isPending}
            onConfirm={() => {
              act();
              remove.mutate({ orgId, id: endpoint.id }, report);
            }}
          >
            Remove
          </ConfirmButton>
        </div>
        {showLog ? <DeliveryLog orgId={orgId} endpointId={endpoint.id} /> : null}
      </div>
    </li>
  );
}

const STATUS_WORDS = { pending: 'Waiting', succeeded: 'Delivered', dead: 'Gave up' } as const;

function DeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const deliveries = useDeliveries(orgId, endpointId);
  const redeliver = useRedeliver();
  const [error, setError] = useState<string | undefined>();
  if (deliveries.isPending) return <p className="muted">Loading deliveries…</p>;
  if (deliveries.isError) return <QueryError error={deliveries.error} onRetry={() => deliveries.refetch()} />;
  const rows = deliveries.data.pages.flatMap((page) => page.data);
  return (
    <div className="stack">
      <FormAlert message={error} />
      {rows.length === 0 ? (
        <p className="muted">Nothing sent yet. Send a test event to try the endpoint.</p>
      ) : (
        <ul className="delivery-log" aria-label="Deliveries">
          {rows.map((delivery) => (
            <li key={delivery.id} className="delivery">
              <div>
                <code>{delivery.event_type}</code> · <strong>{STATUS_WORDS[delivery.status]}</strong> ·{' '}
                {delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}
                {delivery.last_status_code !== null ? ` · answered ${delivery.last_status_code}` : ''}
              </div>
              <div className="muted">
                {formatDateTime(delivery.created_at)}
                {delivery.next_attempt_at && delivery.attempts > 0 ? ` · next try ${formatDateTime(delivery.next_attempt_at)}` : ''}
              </div>
              {delivery.last_error ? <div className="muted">{delivery.last_error}</div> : null}
              {delivery.last_response ? <pre className="delivery-response">{delivery.last_response}</pre> : null}
              {delivery.status !== 'pending' ? (
                <Button
                  type="button"
                  variant="link"
                  pending={redeliver.isPending && redeliver.variables.deliveryId === delivery.id}
                  onClick={() => {
                    setError(undefined);
                    redeliver.mutate({ orgId, endpointId, deliveryId: delivery.id }, { onError: (cause) => setError(describeErrorSentence(cause)) });
                  }}
                >
                  Redeliver
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        <Button type="button" variant="link" onClick={() => void deliveries.refetch()}>Refresh</Button>
      </div>
      <LoadMoreButton query={deliveries} />
    </div>
  );
}
