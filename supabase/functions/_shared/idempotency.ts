// Idempotency-Key for POSTs (docs/product.md §7, §9). The key is claimed in the same transaction as
// the request's own writes, so either both commit or neither does: a failed request leaves no
// key behind and may simply be retried. A concurrent request with the same key waits on the
// key's primary key until the first one commits, then replays its response. Routes that commit
// their own work mid-request (`commitsOwnWork`) claim the key "ahead", in a short transaction of
// its own, and answer it in another; a duplicate meanwhile is asked to retry in a moment.
import type { Tx } from './db.ts';
import { ApiError } from './errors.ts';
import { idempotencyKeySchema } from './schemas/common.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

// The key row's lifetime (its expires_at default) and how long a claim made ahead may go unanswered.
const IDEMPOTENCY_KEY_LIFETIME = '24 hours';
const ABANDONED_CLAIM_AFTER = '1 minute';

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** The header's value, validated; null when the request carries none. */
export function idempotencyKeyOf(req: Request): string | null {
  const value = req.headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  const parsed = idempotencyKeySchema.safeParse(value);
  if (!parsed.success) {
    throw ApiError.validation([{ field: 'Idempotency-Key', message: parsed.error.issues[0].message }]);
  }
  return parsed.data;
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What "the same request" means: method, path and body (key order aside). */
export async function requestHash(method: string, path: string, body: unknown): Promise<string> {
  const text = `${method} ${path}\n${body === undefined ? '' : canonicalJson(body)}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Claims `key` for this request. Returns the stored response of an earlier identical request,
 * or null when this request is the first and should run; throws idempotency_conflict when the
 * key was used for a different request.
 */
export async function claimIdempotencyKey(
  tx: Tx,
  key: string,
  hash: string,
  { ahead = false }: { ahead?: boolean } = {},
): Promise<StoredResponse | null> {
  // Expired keys (24 h) are the caller's to reuse; purge them first, cheaply, by index.
  await tx`delete from public.idempotency_keys where principal_id = (select private.current_principal_id()) and expires_at <= now()`;
  const claimed = await tx`
    insert into public.idempotency_keys (key, request_hash)
    values (${key}, ${hash})
    on conflict (principal_id, key) do nothing
    returning 1
  `;
  if (claimed.length === 1) return null;
  const [stored] = await tx<{ request_hash: string; response_status: number | null; response_body: unknown }[]>`
    select request_hash, response_status, response_body
    from public.idempotency_keys
    where principal_id = (select private.current_principal_id()) and key = ${key}
  `;
  if (!stored || stored.request_hash !== hash) throw ApiError.idempotencyConflict();
  if (stored.response_status === null) {
    // Only a claim made ahead (a route that commits its own work) is visible before its answer.
    if (!ahead) throw ApiError.idempotencyConflict();
    // A claim whose request died before answering is taken over after a minute; until then the
    // first request is still running, and a retry a moment later gets its answer.
    const [abandoned] = await tx`
      delete from public.idempotency_keys
      where principal_id = (select private.current_principal_id()) and key = ${key} and response_status is null
        and expires_at < now() + ${IDEMPOTENCY_KEY_LIFETIME}::interval - ${ABANDONED_CLAIM_AFTER}::interval
      returning 1
    `;
    if (!abandoned) throw ApiError.serviceUnavailable();
    return await claimIdempotencyKey(tx, key, hash, { ahead });
  }
  return { status: stored.response_status, body: stored.response_body };
}

/** Drops a claim made ahead when its request failed, so the request may be retried. */
export async function releaseIdempotencyKey(tx: Tx, key: string): Promise<void> {
  await tx`
    delete from public.idempotency_keys
    where principal_id = (select private.current_principal_id()) and key = ${key} and response_status is null
  `;
}

export async function storeIdempotentResponse(tx: Tx, key: string, response: StoredResponse): Promise<void> {
  await tx`
    update public.idempotency_keys
    set response_status = ${response.status}, response_body = ${tx.json(response.body as never)}
    where principal_id = (select private.current_principal_id()) and key = ${key}
  `;
}
