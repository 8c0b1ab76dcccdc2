// One wake of the delivery worker: claim, send, record, until nothing is due or the time is up.
import { Webhook } from 'standardwebhooks';
import type { Sql } from '../_shared/db.ts';
import { addressPolicyFromEnv, type AddressPolicy, checkWebhookUrl } from '../_shared/webhook-urls.ts';
import { postPinned } from './pinned-post.ts';

/** docs/product.md §9: a receiver has 10 s to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_KEPT_BYTES = 2048;
const CLAIM_SIZE = 20;
// A wake stops claiming after this long, so one wake never overlaps the next by much.
const WAKE_BUDGET_MS = 25_000;

interface Claimed {
  delivery_id: string;
  url: string;
  secret: string;
  event_id: string;
  payload: unknown;
}

export interface AttemptOutcome {
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
}

/**
 * Sends one delivery: the address check first (DNS can change), then a signed POST with a 10 s limit
 * to the address that was checked. The answer's first 2 KB are kept only from a public address: one
 * the local setting let through (loopback, private) is answered by status alone, so the delivery
 * log can never show what a host inside the network says.
 */
export async function send(claimed: Claimed, policy: AddressPolicy, now = new Date(), caCerts?: string[]): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = await checkWebhookUrl(claimed.url, policy);
  if (check.refusal !== undefined) return { status_code: null, duration_ms: elapsed(), response_body: null, error: `Not sent: ${check.refusal}` };
  const body = JSON.stringify(claimed.payload);
  // The event's id, the same on every retry, so receivers can drop duplicates.
  const id = `msg_${claimed.event_id}`;
  const signature = new Webhook(claimed.secret).sign(id, now, body);
  try {
    const answer = await postPinned({
      destination: check.destination,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Fieldcheck-Webhooks/1',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      // A redirect is an answer like any other: it is never followed, so a 3xx is a failure.
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      caCerts,
    }, RESPONSE_KEPT_BYTES);
    const kept = check.destination.public ? new TextDecoder('utf-8', { fatal: false }).decode(answer.body) : null;
    return { status_code: answer.status, duration_ms: elapsed(), response_body: kept, error: null };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return {
      status_code: null,
      duration_ms: elapsed(),
      response_body: null,
      error: timedOut ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : `Could not connect: ${(error as Error).message}`.slice(0, 500),
    };
  }
}

/** Claims and sends until nothing is due or the wake's time is up; what happened, counted. */
export async function deliverDue(sql: Sql, policy: AddressPolicy = addressPolicyFromEnv()) {
  const started = Date.now();
  const counts = { sent: 0, succeeded: 0, failed: 0, dead: 0 };
  while (Date.now() - started < WAKE_BUDGET_MS) {
    const claimed = await sql<Claimed[]>`
      select delivery_id, url, secret, event_id, payload from private.claim_webhook_deliveries(${CLAIM_SIZE})
    `;
    if (claimed.length === 0) break;
    // Claimed deliveries are of different entities or endpoints (the claim keeps one entity's
    // order), so they go out side by side.
    await Promise.all(claimed.map(async (delivery) => {
      const outcome = await send(delivery, policy);
      const [{ state }] = await sql<{ state: string }[]>`
        select private.record_webhook_attempt(${delivery.delivery_id}, ${outcome.status_code}, ${outcome.duration_ms},
                                              ${outcome.response_body}, ${outcome.error}) as state
      `;
      counts.sent++;
      if (state === 'succeeded') counts.succeeded++;
      else if (state === 'dead') counts.dead++;
      else counts.failed++;
    }));
    if (claimed.length < CLAIM_SIZE) break;
  }
  return counts;
}
