// The request wrapper: CORS, request ids, routing under /api, authentication before parsing,
// strict parsing of path, query and body, and the 256 KB body limit.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ApiError } from '../../supabase/functions/_shared/errors.ts';
import type { Authenticator, Principal } from '../../supabase/functions/_shared/auth.ts';
import { acceptsGzip, createHandler, MAX_JSON_BODY_BYTES, route } from '../../supabase/functions/_shared/http.ts';
import { profileUpdateSchema } from '../../supabase/functions/_shared/schemas/profile.ts';
import type { Problem } from '../../supabase/functions/_shared/schemas/errors.ts';

const user: Principal = {
  kind: 'user',
  userId: '6f1c3c1e-7a55-4a4f-9a51-2f7f3d1e0c11',
  claims: { sub: '6f1c3c1e-7a55-4a4f-9a51-2f7f3d1e0c11', role: 'authenticated' },
};

// Accepts exactly "Bearer good": the wrapper's behaviour, not token crypto, is under test here.
const fakeAuthenticator: Authenticator = {
  authenticate: (req) =>
    req.headers.get('authorization') === 'Bearer good' ? Promise.resolve(user) : Promise.reject(ApiError.unauthenticated()),
};

const calls: unknown[] = [];
const handler = createHandler({
  basePath: '/api',
  authenticator: () => fakeAuthenticator,
  log: () => {},
  routes: [
    route({
      method: 'PATCH',
      path: '/me',
      body: profileUpdateSchema,
      handler: ({ body, principal }) => {
        calls.push(body);
        return Promise.resolve({ name: body.display_name, kind: principal.kind });
      },
    }),
    route({
      method: 'GET',
      path: '/things/:id',
      params: z.strictObject({ id: z.uuid({ error: 'Use a valid id.' }) }),
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      handler: ({ params, query }) => Promise.resolve({ id: params.id, limit: query.limit }),
    }),
    route({ method: 'GET', path: '/big', handler: () => Promise.resolve({ items: Array.from({ length: 200 }, (_, i) => ({ key: `item-${i}`, label: 'Fridge temperature' })) }) }),
    route({ method: 'GET', path: '/boom', handler: () => Promise.reject(new Error('secret internals')) }),
    route({ method: 'DELETE', path: '/things/:id', handler: () => Promise.resolve(undefined) }),
  ],
});

const good = { authorization: 'Bearer good' };

function request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return handler(new Request(`http://127.0.0.1/api${path}`, init));
}

function patch(body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return request('/me', { method: 'PATCH', body, headers: { ...good, ...headers } });
}

async function problem(response: Response): Promise<Problem> {
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  return await response.json();
}

Deno.test('a valid request reaches the handler with parsed input', async () => {
  calls.length = 0;
  const response = await patch(JSON.stringify({ display_name: '  Ada  ' }));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.deepEqual(await response.json(), { name: 'Ada', kind: 'user' });
  assert.deepEqual(calls, [{ display_name: 'Ada' }]);
});

Deno.test('every response carries a request id, echoing a sane one', async () => {
  const echoed = await request('/me', { method: 'PATCH', headers: { 'x-request-id': 'abc-123' } });
  assert.equal(echoed.headers.get('x-request-id'), 'abc-123');
  assert.equal((await problem(echoed)).request_id, 'abc-123');
  const generated = await request('/me', { method: 'PATCH', headers: { 'x-request-id': '<script>' } });
  assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  await generated.body?.cancel();
});

Deno.test('CORS preflight is answered without authentication and exposes x-request-id', async () => {
  const response = await request('/me', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PATCH' },
  });
  assert.ok(response.status === 200 || response.status === 204);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  const allowed = response.headers.get('access-control-allow-headers') ?? '';
  for (const header of ['authorization', 'apikey', 'x-client-info', 'content-type', 'x-region']) {
    assert.ok(allowed.includes(header), `${header} not allowed`);
  }
  assert.match(response.headers.get('access-control-allow-methods') ?? '', /PATCH/);
  assert.match(response.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
});

Deno.test('error responses carry CORS headers too', async () => {
  const response = await request('/me', { method: 'PATCH' });
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  await response.body?.cancel();
});

Deno.test('no token is unauthenticated and the handler never runs', async () => {
  calls.length = 0;
  const response = await request('/me', {
    method: 'PATCH',
    body: JSON.stringify({ display_name: 'Eve' }),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.status, 401);
  assert.equal((await problem(response)).code, 'unauthenticated');
  assert.deepEqual(calls, []);
});

Deno.test('authentication is checked before the body is judged', async () => {
  const response = await request('/me', { method: 'PATCH', body: '{nope', headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 401);
  await response.body?.cancel();
});

Deno.test('unknown routes and methods are not_found', async () => {
  for (const [method, path] of [['GET', '/nope'], ['GET', '/me'], ['POST', '/me'], ['GET', '/things']]) {
    const response = await request(path, { method, headers: good });
    assert.equal(response.status, 404, `${method} ${path}`);
    assert.equal((await problem(response)).code, 'not_found');
  }
  const outside = await handler(new Request('http://127.0.0.1/other/me', { headers: good }));
  assert.equal(outside.status, 404);
  await outside.body?.cancel();
});

Deno.test('malformed JSON is validation_failed on the body field', async () => {
  calls.length = 0;
  const response = await patch('{"display_name": ');
  assert.equal(response.status, 422);
  const body = await problem(response);
  assert.equal(body.code, 'validation_failed');
  assert.deepEqual(body.errors?.map((error) => error.field), ['body']);
  assert.deepEqual(calls, []);
});

Deno.test('a body that is not declared as JSON is refused', async () => {
  for (const headers of <Record<string, string>[]>[{ 'content-type': 'text/plain' }, {}]) {
    const response = await patch(JSON.stringify({ display_name: 'Ada' }), headers);
    assert.equal(response.status, 422);
    assert.deepEqual((await problem(response)).errors?.map((error) => error.field), ['body']);
  }
});

Deno.test('an empty body is refused where one is required', async () => {
  const response = await patch('');
  assert.equal(response.status, 422);
  await response.body?.cancel();
});

Deno.test('unknown keys and bad values come back per field', async () => {
  const response = await patch(JSON.stringify({ display_name: 'x'.repeat(121), role: 'owner' }));
  assert.equal(response.status, 422);
  const body = await problem(response);
  assert.deepEqual(
    body.errors?.map((error) => error.field).sort(),
    ['display_name', 'role'],
  );
  assert.equal(body.errors?.find((error) => error.field === 'role')?.message, 'This field is not allowed.');
});

Deno.test('a body over 256 KB is payload_too_large, declared or streamed', async () => {
  calls.length = 0;
  const big = JSON.stringify({ display_name: 'x'.repeat(MAX_JSON_BODY_BYTES) });
  const declared = await patch(big);
  assert.equal(declared.status, 413);
  assert.equal((await problem(declared)).code, 'payload_too_large');

  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < 8) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const streamed = await patch(stream);
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
  assert.deepEqual(calls, []);
});

Deno.test('a body of exactly 256 KB is read', async () => {
  const padding = MAX_JSON_BODY_BYTES - JSON.stringify({ display_name: 'Ada' }).length;
  const body = JSON.stringify({ display_name: 'Ada' }) + ' '.repeat(padding);
  assert.equal(new TextEncoder().encode(body).byteLength, MAX_JSON_BODY_BYTES);
  const response = await patch(body);
  assert.equal(response.status, 200);
  await response.body?.cancel();
});

Deno.test('path and query parameters are parsed strictly', async () => {
  const id = crypto.randomUUID();
  const ok = await request(`/things/${id}?limit=20`, { headers: good });
  assert.deepEqual(await ok.json(), { id, limit: 20 });

  const badId = await request('/things/not-a-uuid', { headers: good });
  assert.equal(badId.status, 422);
  assert.deepEqual((await problem(badId)).errors, [{ field: 'id', message: 'Use a valid id.' }]);

  const unknownQuery = await request(`/things/${id}?limit=5&debug=1`, { headers: good });
  assert.equal(unknownQuery.status, 422);
  assert.deepEqual((await problem(unknownQuery)).errors?.map((error) => error.field), ['query.debug']);

  const badLimit = await request(`/things/${id}?limit=500`, { headers: good });
  assert.equal(badLimit.status, 422);
  await badLimit.body?.cancel();
});

Deno.test('routes without a body refuse one', async () => {
  const response = await request(`/things/${crypto.randomUUID()}`, {
    method: 'DELETE',
    headers: { ...good, 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 422);
  await response.body?.cancel();
});

Deno.test('a handler returning nothing answers 204', async () => {
  const response = await request(`/things/${crypto.randomUUID()}`, { method: 'DELETE', headers: good });
  assert.equal(response.status, 204);
});

Deno.test('a crashing handler is a 500 problem without its message', async () => {
  const response = await request('/boom', { headers: good });
  assert.equal(response.status, 500);
  const text = await response.text();
  assert.ok(!text.includes('secret internals'));
  assert.equal(JSON.parse(text).code, 'internal_error');
});

Deno.test('a large JSON answer goes gzipped to a caller that takes gzip, and reads back the same', async () => {
  const plain = await request('/big', { headers: { ...good, 'accept-encoding': 'identity' } });
  assert.equal(plain.headers.get('content-encoding'), null);
  const plainBytes = new Uint8Array(await plain.arrayBuffer());
  assert.ok(plainBytes.byteLength > 1024);

  const gzipped = await request('/big', { headers: { ...good, 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(gzipped.status, 200);
  assert.equal(gzipped.headers.get('content-encoding'), 'gzip');
  assert.match(gzipped.headers.get('vary') ?? '', /accept-encoding/i);
  assert.equal(gzipped.headers.get('x-request-id')?.length, 36);
  const zipped = new Uint8Array(await gzipped.arrayBuffer());
  assert.ok(zipped.byteLength < plainBytes.byteLength / 4, `${zipped.byteLength} bytes gzipped of ${plainBytes.byteLength}`);
  const unzipped = new Uint8Array(await new Response(new Blob([zipped]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
  assert.deepEqual(unzipped, plainBytes);
});

Deno.test('a small answer, a problem and a 204 are sent as they are', async () => {
  const small = await patch(JSON.stringify({ display_name: 'Ada' }), { 'content-type': 'application/json', 'accept-encoding': 'gzip' });
  assert.equal(small.headers.get('content-encoding'), null);
  assert.deepEqual(await small.json(), { name: 'Ada', kind: 'user' });
  const refused = await request('/big', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('content-encoding'), null);
  await refused.body?.cancel();
  const empty = await request('/things/6f1c3c1e-7a55-4a4f-9a51-2f7f3d1e0c11', { method: 'DELETE', headers: { ...good, 'accept-encoding': 'gzip' } });
  assert.equal(empty.status, 204);
  assert.equal(empty.headers.get('content-encoding'), null);
});

Deno.test('gzip is taken as Accept-Encoding says, q=0 refusing it', () => {
  const accepts = (value: string) => acceptsGzip(new Request('http://127.0.0.1/', { headers: { 'accept-encoding': value } }));
  assert.equal(accepts('gzip'), true);
  assert.equal(accepts('br, GZIP;q=0.5'), true);
  assert.equal(accepts('*'), true);
  assert.equal(accepts('gzip;q=0'), false);
  assert.equal(accepts('br, deflate'), false);
  assert.equal(accepts(''), false);
});
