// Calls of the product's `api` function through the unmodified supabase-js client, for the API
// tests: the outcome of success and failure alike, or the body of a call that has to succeed.
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';

export interface ApiOutcome {
  status: number;
  body: any;
  headers: Headers;
}

export interface ApiCallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls `api/<path>` and returns status, body (parsed when JSON) and headers, whatever the status. */
export async function callApi(client: SupabaseClient, path: string, options: ApiCallOptions = {}): Promise<ApiOutcome> {
  const { data, error, response } = await client.functions.invoke(`api/${path}`, {
    method: options.method ?? 'GET',
    body: options.body as never,
    headers: options.headers,
  });
  if (error) {
    // Anything but an HTTP answer (network, relay) is not an outcome to assert on.
    if (!(error instanceof FunctionsHttpError)) throw error;
    const context = error.context as Response;
    const text = await context.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Left as text: the assertion on the status or code shows it.
    }
    return { status: context.status, body, headers: context.headers };
  }
  return { status: response!.status, body: data === '' ? null : data, headers: response!.headers };
}

/** Calls `api/<path>` for a test's setup and returns the body; any refusal throws with its problem. */
export async function apiData<T = unknown>(client: SupabaseClient, path: string, options: ApiCallOptions = {}): Promise<T> {
  const outcome = await callApi(client, path, options);
  if (outcome.status >= 300) throw new Error(`${options.method ?? 'GET'} ${path} failed: ${JSON.stringify(outcome.body)}`);
  return outcome.body as T;
}
