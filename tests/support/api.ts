// Calls of the product's `api` function through the unmodified supabase-js client, for the API
// tests: the outcome of success and failure alike, or the body of a call that has to succeed; and
// the assertions every API test makes on an answer — its status, a problem document from the
// catalogue, no database text leaking into a refusal — with the shapes answers hold.
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';

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

// Words of Postgres' own error messages ("violates check constraint", "relation … does not
// exist", "syntax error", "duplicate key value", "invalid input syntax for type uuid").
const RAW_DATABASE_TEXT = /violates|relation|syntax|constraint|duplicate key|sqlstate|pg_|null value|column|uuid:|public\.|private\./i;

/** Fails when a problem document carries raw database text anywhere users could see it. */
export function expectNoRawDatabaseText(body: any): void {
  if (!body || typeof body !== 'object') return;
  const texts = [body.title, body.detail, ...(Array.isArray(body.errors) ? body.errors.map((e: { message?: string }) => e.message) : [])];
  for (const text of texts) {
    if (typeof text === 'string') expect(text, `raw database text in a problem: ${JSON.stringify(body)}`).not.toMatch(RAW_DATABASE_TEXT);
  }
}

/** Calls the api function and fails the test when a refusal carries raw database text. */
export async function call(client: SupabaseClient, path: string, options: ApiCallOptions = {}): Promise<ApiOutcome> {
  const outcome = await callApi(client, path, options);
  if (outcome.status >= 300) expectNoRawDatabaseText(outcome.body);
  return outcome;
}

/** Asserts a success status and returns the body; the message shows the problem otherwise. */
export function expectStatus(outcome: ApiOutcome, status: number): any {
  expect(outcome.status, `expected ${status}, got ${outcome.status}: ${JSON.stringify(outcome.body)}`).toBe(status);
  return outcome.body;
}

/** Asserts a problem document with the given status and code (and, if given, exactly these fields). */
export function expectProblem(outcome: ApiOutcome, status: number, code: string, fields?: string[]): any {
  expect(outcome.status, `expected ${status} ${code}, got ${outcome.status}: ${JSON.stringify(outcome.body)}`).toBe(status);
  expect(outcome.headers.get('content-type')).toBe('application/problem+json');
  expect(outcome.body).toMatchObject({
    type: `https://fieldcheck.app/problems/${code}`,
    status,
    code,
    title: expect.any(String),
    detail: expect.any(String),
    request_id: expect.any(String),
  });
  if (fields) {
    // A field may carry more than one message (e.g. "Choose a time zone." and "… from the list.").
    const reported = [...new Set(outcome.body.errors?.map((e: { field: string }) => e.field))];
    expect(reported, JSON.stringify(outcome.body)).toEqual(fields);
  }
  // A refusal carries no data of the thing it refused.
  expect(outcome.body).not.toHaveProperty('data');
  expect(outcome.body).not.toHaveProperty('id');
  return outcome.body;
}

export const post = (client: SupabaseClient, path: string, body: unknown, headers?: Record<string, string>) =>
  call(client, path, { method: 'POST', body, headers });
export const patch = (client: SupabaseClient, path: string, body: unknown) => call(client, path, { method: 'PATCH', body });
export const del = (client: SupabaseClient, path: string) => call(client, path, { method: 'DELETE' });

export const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An id no row has: for requests about something that does not exist. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';
