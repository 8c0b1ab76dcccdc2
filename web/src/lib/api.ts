import { accessToken } from './auth';
import { ApiError, problemOf } from './errors';
import { supabaseKey, supabaseUrl } from './supabase';

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialized as JSON. */
  body?: Record<string, unknown>;
  /** Query parameters; empty, null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** Sent as `Idempotency-Key` so a retried POST is answered from the stored first response. */
  idempotencyKey?: string;
}

/** Builds `a/b/c` from path segments, escaping each one (ids and slugs come from URLs). */
export function apiPath(...segments: string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * Calls a route of the `api` function and returns its JSON body (undefined for 204). Plain fetch,
 * with the headers supabase-js's `functions.invoke` sends (reference/supabase-wire-contracts.md §4),
 * so that the first screen's data does not wait for supabase-js to load (lib/supabase.ts).
 */
export async function callApi<T>(path: string, { method = 'GET', body, query, idempotencyKey }: ApiRequest = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const url = `${supabaseUrl}/functions/v1/api/${path}${search.size > 0 ? `?${search}` : ''}`;
  const headers: Record<string, string> = { apikey: supabaseKey };
  const token = await accessToken().catch(() => null);
  // Signed out, supabase-js sends no Authorization with a publishable key: neither do we.
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    // No answer (offline, refused, reset): described as the service being unavailable.
    throw new ApiError(null, null, null);
  }
  // The gateway's own failure (not the function's answer): no status of ours to read.
  if (response.headers.get('x-relay-error') === 'true') throw new ApiError(null, null, null);
  if (!response.ok) throw await problemOf(response);
  const text = await response.text();
  // A 204 has no body.
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
