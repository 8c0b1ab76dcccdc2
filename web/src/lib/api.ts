import { toApiError } from './errors';
import { supabase } from './supabase';

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

/** Calls a route of the `api` function and returns its JSON body (undefined for 204). */
export async function callApi<T>(path: string, { method = 'GET', body, query, idempotencyKey }: ApiRequest = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const name = `api/${path}${search.size > 0 ? `?${search}` : ''}`;
  const headers = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined;
  const { data, error } = await supabase.functions.invoke<T>(name, { method, body, headers });
  if (error) throw await toApiError(error);
  // A 204 arrives as an empty text body.
  return (data === '' ? undefined : data) as T;
}
