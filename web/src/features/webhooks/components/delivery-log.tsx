import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { QueryError } from '@/components/ui/query-error';
import { describeErrorSentence } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useDeliveries, useRedeliver } from '../api/deliveries';

const STATUS_WORDS = { pending: 'Waiting', succeeded: 'Delivered', dead: 'Gave up' } as const;

/** An endpoint's deliveries, newest first, each with its last answer and, once settled, Redeliver. */
export function DeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
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
