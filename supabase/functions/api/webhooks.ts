// Webhooks (docs/webhooks.md): `GET·POST /orgs/{org}/webhooks`, `PATCH·DELETE …/webhooks/{id}`,
// `POST …/webhooks/{id}/rotate-secret`, `POST …/webhooks/{id}/test`, `GET …/webhooks/{id}/deliveries`
// and `POST /orgs/{org}/deliveries/{id}/redeliver`. Owners and admins, signed in; RLS repeats it.
// The worker that sends deliveries is its own function (functions/webhook-deliveries).
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema, pageQuerySchema } from '../_shared/schemas/common.ts';
import {
  webhookCreateSchema,
  type WebhookDelivery,
  webhookDeliverySchema,
  type WebhookEndpoint,
  webhookEndpointSchema,
  type WebhookEndpointWithSecret,
  webhookEndpointWithSecretSchema,
  webhookUpdateSchema,
} from '../_shared/schemas/webhooks.ts';
import { addressPolicyFromEnv, webhookUrlRefusal } from '../_shared/webhook-urls.ts';
import { iso, MEMBER_MANAGERS, requireRole } from './access.ts';
import { orgParams } from './orgs.ts';

const endpointParams = z.strictObject({ org: idSchema, id: idSchema });

type EndpointRow = Omit<WebhookEndpoint, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
const ENDPOINT_COLUMNS = 'id, url, event_types, enabled, created_by, created_at, updated_at';

function endpointOf(row: EndpointRow): WebhookEndpoint {
  return { ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
function newWebhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** What an Idempotency-Key keeps of an answer with a secret: all but the secret (docs/webhooks.md). */
function withoutSecret(answer: WebhookEndpointWithSecret): WebhookEndpointWithSecret {
  return { ...answer, secret: null };
}

/** 422 on `url` when a webhook may not go there (checked again before every delivery). */
async function requireDeliverableUrl(url: string): Promise<void> {
  const refusal = await webhookUrlRefusal(url, addressPolicyFromEnv());
  if (refusal) throw ApiError.validation([{ field: 'url', message: refusal }]);
}

async function readEndpoint(tx: Tx, orgId: string, id: string): Promise<EndpointRow> {
  const [row] = await tx<EndpointRow[]>`
    select ${tx.unsafe(ENDPOINT_COLUMNS)} from public.webhook_endpoints where org_id = ${orgId} and id = ${id}
  `;
  if (!row) throw ApiError.notFound('webhook endpoint');
  return row;
}

export const listWebhooks = route({
  method: 'GET',
  response: { list: webhookEndpointSchema },
  path: '/orgs/:org/webhooks',
  usersOnly: true,
  summary: "List the organization's webhook endpoints (owners and admins)",
  params: orgParams,
  handler: async ({ params, db }) => {
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      return await tx<EndpointRow[]>`
        select ${tx.unsafe(ENDPOINT_COLUMNS)} from public.webhook_endpoints where org_id = ${params.org} order by created_at, id
      `;
    });
    return { data: rows.map(endpointOf), next_cursor: null };
  },
});

export const createWebhook = route({
  method: 'POST',
  response: webhookEndpointWithSecretSchema,
  path: '/orgs/:org/webhooks',
  usersOnly: true,
  status: 201,
  summary: 'Add a webhook endpoint; the answer holds its signing secret (owners and admins)',
  params: orgParams,
  body: webhookCreateSchema,
  // The signing secret is shown once and kept only where the worker reads it, never in a retry's
  // stored answer: a retry gets the endpoint with `secret: null` (as an API key's create does).
  keptForRetry: withoutSecret,
  handler: async ({ params, body, db }): Promise<WebhookEndpointWithSecret> => {
    await requireDeliverableUrl(body.url);
    const secret = newWebhookSecret();
    const row = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const [created] = await tx<EndpointRow[]>`
        insert into public.webhook_endpoints (org_id, url, event_types, enabled, secret)
        values (${params.org}, ${body.url}, ${body.event_types ?? []}, ${body.enabled ?? true}, ${secret})
        returning ${tx.unsafe(ENDPOINT_COLUMNS)}
      `;
      return created;
    });
    return { ...endpointOf(row), secret };
  },
});

export const updateWebhook = route({
  method: 'PATCH',
  response: webhookEndpointSchema,
  path: '/orgs/:org/webhooks/:id',
  usersOnly: true,
  summary: 'Change where an endpoint points, which events it gets, or switch it on or off',
  params: endpointParams,
  body: webhookUpdateSchema,
  handler: async ({ params, body, db }): Promise<WebhookEndpoint> => {
    if (body.url !== undefined) await requireDeliverableUrl(body.url);
    return await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const current = await readEndpoint(tx, params.org, params.id);
      const [row] = await tx<EndpointRow[]>`
        update public.webhook_endpoints
        set url = ${body.url ?? current.url}, event_types = ${body.event_types ?? current.event_types},
            enabled = ${body.enabled ?? current.enabled}
        where org_id = ${params.org} and id = ${params.id}
        returning ${tx.unsafe(ENDPOINT_COLUMNS)}
      `;
      return endpointOf(row);
    });
  },
});

export const deleteWebhook = route({
  method: 'DELETE',
  path: '/orgs/:org/webhooks/:id',
  usersOnly: true,
  empty: true,
  summary: 'Remove an endpoint and its delivery log',
  params: endpointParams,
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const [gone] = await tx`delete from public.webhook_endpoints where org_id = ${params.org} and id = ${params.id} returning id`;
      if (!gone) throw ApiError.notFound('webhook endpoint');
    });
  },
});

export const rotateWebhookSecret = route({
  method: 'POST',
  response: webhookEndpointWithSecretSchema,
  path: '/orgs/:org/webhooks/:id/rotate-secret',
  usersOnly: true,
  summary: 'Replace the signing secret; deliveries are signed with the new one from now on',
  params: endpointParams,
  keptForRetry: withoutSecret,
  handler: async ({ params, db }): Promise<WebhookEndpointWithSecret> => {
    const secret = newWebhookSecret();
    const row = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const [updated] = await tx<EndpointRow[]>`
        update public.webhook_endpoints set secret = ${secret}
        where org_id = ${params.org} and id = ${params.id}
        returning ${tx.unsafe(ENDPOINT_COLUMNS)}
      `;
      if (!updated) throw ApiError.notFound('webhook endpoint');
      return updated;
    });
    return { ...endpointOf(row), secret };
  },
});

type DeliveryRow = Omit<WebhookDelivery, 'next_attempt_at' | 'created_at' | 'delivered_at'> & {
  next_attempt_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  created_key: string;
};

const selectDeliveries = (tx: Tx) => tx`
  select d.id, d.event_id, e.type as event_type, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error,
         (select a.response_body from public.webhook_attempts a where a.delivery_id = d.id order by a.at desc, a.id desc limit 1) as last_response,
         d.created_at, d.delivered_at,
         -- The cursor keeps microseconds: JavaScript dates stop at milliseconds.
         to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key
  from public.webhook_deliveries d
  join public.webhook_events e on e.id = d.event_id
`;

function deliveryOf(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_response: row.last_response,
    created_at: iso(row.created_at),
    delivered_at: iso(row.delivered_at),
  };
}

export const sendTestWebhook = route({
  method: 'POST',
  response: webhookDeliverySchema,
  path: '/orgs/:org/webhooks/:id/test',
  usersOnly: true,
  status: 202,
  summary: 'Send a webhook.test event to this endpoint (enabled or not); it shows in the delivery log',
  params: endpointParams,
  handler: async ({ params, db }): Promise<WebhookDelivery> => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      await readEndpoint(tx, params.org, params.id);
      const [{ event_id }] = await tx<{ event_id: string }[]>`select private.send_test_webhook(${params.id}) as event_id`;
      const [row] = await tx<DeliveryRow[]>`${selectDeliveries(tx)} where d.event_id = ${event_id}`;
      return deliveryOf(row);
    });
  },
});

export const listWebhookDeliveries = route({
  method: 'GET',
  response: { list: webhookDeliverySchema },
  path: '/orgs/:org/webhooks/:id/deliveries',
  usersOnly: true,
  summary: "An endpoint's delivery log, newest first: event, attempts, status, last answer, next attempt",
  params: endpointParams,
  query: pageQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      await readEndpoint(tx, params.org, params.id);
      return await tx<DeliveryRow[]>`
        ${selectDeliveries(tx)}
        where d.endpoint_id = ${params.id}
          and ${after ? tx`(d.created_at, d.id) < (${after[0] as string}::text::timestamptz, ${after[1] as string}::uuid)` : tx`true`}
        order by d.created_at desc, d.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, deliveryOf, (row) => [row.created_key, row.id]);
  },
});

export const redeliverWebhook = route({
  method: 'POST',
  response: webhookDeliverySchema,
  path: '/orgs/:org/deliveries/:id/redeliver',
  usersOnly: true,
  status: 202,
  summary: 'Send a delivery again, as a new delivery of the same event (the old one stays in the log)',
  params: endpointParams,
  handler: async ({ params, db }): Promise<WebhookDelivery> => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const [found] = await tx`select 1 from public.webhook_deliveries where org_id = ${params.org} and id = ${params.id}`;
      if (!found) throw ApiError.notFound('delivery');
      const [{ created }] = await tx<{ created: string }[]>`select private.redeliver_webhook(${params.id}) as created`;
      const [row] = await tx<DeliveryRow[]>`${selectDeliveries(tx)} where d.id = ${created}`;
      return deliveryOf(row);
    });
  },
});
