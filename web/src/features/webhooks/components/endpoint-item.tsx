import type { WebhookEndpoint } from '@schemas/webhooks';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { useDeleteWebhook, useRotateWebhookSecret, useSendTestWebhook, useUpdateWebhook } from '../api/endpoints';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';

/** One endpoint: where it points and what it gets, its buttons, and its delivery log when opened. */
export function EndpointItem({ orgId, endpoint, onSecret }: { orgId: string; endpoint: WebhookEndpoint; onSecret: (secret: string | null) => void }) {
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
