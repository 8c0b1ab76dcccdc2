// The functions gateway as unmodified supabase-js sees it: requests reach the real Deno process
// unchanged, responses come back unchanged (except HTML to GET), errors look like Supabase's.
import { FunctionsHttpError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

const client = createTestClient();

interface Echo {
  method: string;
  pathname: string;
  search: string;
  contentType: string | null;
  authorization: boolean;
  body: string;
  env: string[];
}

async function echo(name: string, options?: Parameters<typeof client.functions.invoke>[1]): Promise<Echo> {
  const { data, error } = await client.functions.invoke<Echo>(name, options);
  expect(error).toBeNull();
  return data!;
}

describe('functions.invoke through the gateway', () => {
  it('forwards a JSON body as POST with its content type', async () => {
    const seen = await echo('echo', { body: { hello: 'world', list: [1, 2] } });
    expect(seen.method).toBe('POST');
    expect(seen.contentType).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ hello: 'world', list: [1, 2] });
  });

  it('forwards a string body as text/plain', async () => {
    const seen = await echo('echo', { body: 'plain words' });
    expect(seen.contentType).toBe('text/plain');
    expect(seen.body).toBe('plain words');
  });

  it('forwards a GET with no body and no content type', async () => {
    const seen = await echo('echo', { method: 'GET' });
    expect(seen).toMatchObject({ method: 'GET', contentType: null, body: '' });
  });

  it('hands the function a pathname starting with its name, plus sub-path and query', async () => {
    const seen = await echo('echo/sub/path?x=1&y=two%20words', { method: 'PATCH', body: { a: 1 } });
    expect(seen.method).toBe('PATCH');
    expect(seen.pathname).toBe('/echo/sub/path');
    expect(seen.search).toBe('?x=1&y=two%20words');
    const root = await echo('echo', { method: 'GET' });
    expect(root.pathname).toBe('/echo');
    expect(root.search).toBe('');
  });

  it('returns a non-2xx answer as FunctionsHttpError with the body in context', async () => {
    const { data, error } = await client.functions.invoke('echo?status=418', { body: { why: 'teapot' } });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(418);
    const body = await response.json();
    expect(JSON.parse(body.body)).toEqual({ why: 'teapot' });
  });

  it('serves text/html to GET as text/plain, like the platform, but leaves other methods alone', async () => {
    const get = await client.functions.invoke('html', { method: 'GET' });
    expect(get.error).toBeNull();
    expect(get.response?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(get.data).toBe('<h1>hello</h1>');
    const post = await client.functions.invoke('html', { body: 'x' });
    expect(post.error).toBeNull();
    expect(post.response?.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers an unknown function with 404 NOT_FOUND', async () => {
    const { error } = await client.functions.invoke('no-such-function', { body: {} });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' });
  });

  it('gives the function the platform variables', async () => {
    const seen = await echo('echo', { method: 'GET' });
    for (const name of ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_DB_URL', 'SUPABASE_PUBLISHABLE_KEYS', 'SUPABASE_SECRET_KEYS', 'SUPABASE_JWKS']) {
      expect(seen.env).toContain(name);
    }
  });

  it('forwards an OPTIONS preflight to the function, without any token', async () => {
    const response = await fetch(`${stack.API_URL}/functions/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).method).toBe('OPTIONS');
  });

  it('answers 502 WORKER_ERROR when the function dies after the head of its answer, before any of its body', async () => {
    // The gateway had passed the head on and could then only cut the connection: the client got
    // no answer at all ("Failed to send a request to the Edge Function"; the fault test saw it).
    const crash = await client.functions.invoke('crash/exit-after-head', { method: 'GET' });
    expect(crash.error).toBeInstanceOf(FunctionsHttpError);
    const response = (crash.error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
    // And the function works again.
    expect((await client.functions.invoke<{ pid: number }>('crash', { method: 'GET' })).error).toBeNull();
  });

  it('starts a function again after its process died', async () => {
    const before = await client.functions.invoke<{ pid: number }>('crash', { method: 'GET' });
    expect(before.error).toBeNull();
    const crash = await client.functions.invoke('crash/exit', { method: 'GET' });
    expect(crash.error).toBeInstanceOf(FunctionsHttpError);
    const crashResponse = (crash.error as FunctionsHttpError).context as Response;
    expect(crashResponse.status).toBeGreaterThanOrEqual(500);
    await crashResponse.body?.cancel();
    const after = await client.functions.invoke<{ pid: number }>('crash', { method: 'GET' });
    expect(after.error).toBeNull();
    expect(after.data!.pid).not.toBe(before.data!.pid);
  });
});
