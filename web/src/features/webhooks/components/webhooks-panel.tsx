import { WEBHOOK_ENDPOINT_LIMIT } from '@schemas/webhooks';
import { useState } from 'react';
import { QueryError } from '@/components/ui/query-error';
import { useWebhooks } from '../api/endpoints';
import { EndpointForm } from './endpoint-form';
import { EndpointItem } from './endpoint-item';
import { NewSigningSecret, type ShownSecret } from './new-signing-secret';

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
