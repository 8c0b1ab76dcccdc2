// The API key check in front of /auth/v1, as hosted Supabase's gateway makes it (the local
// stack's choice, see docs/local-stack.md): every route needs one of the project's keys, except
// the routes browsers reach from emailed links and OAuth redirects (/verify, /callback,
// /authorize) and the JWKS. `supabase start`'s Kong checks no key at all.
import { describe, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { rawRequest } from './support.ts';

const NO_KEY = { apikey: '', authorization: '' };

describe('requests without an API key', () => {
  it.each([
    ['GET', '/auth/v1/health'],
    ['GET', '/auth/v1/settings'],
    ['POST', '/auth/v1/signup'],
    ['POST', '/auth/v1/token?grant_type=password'],
    ['GET', '/auth/v1/user'],
    ['GET', '/auth/v1/admin/users'],
    ['POST', '/auth/v1/invite'],
    ['GET', '/auth/v1/no-such-route'],
  ])('%s %s is 401 no_api_key with the gateway hint', async (method, path) => {
    const response = await rawRequest(path, { method, headers: NO_KEY, body: method === 'POST' ? {} : undefined });
    expect(response.status).toBe(401);
    expect(response.json()).toEqual({
      code: 'no_api_key',
      error_code: 'no_api_key',
      msg: 'No API key found in request',
      message: 'No API key found in request',
      hint: 'No `apikey` request header or url param was found.',
    });
  });

  it('the same routes answer with a key, in the apikey header or as the apikey query parameter', async () => {
    expect((await rawRequest('/auth/v1/health', { headers: { apikey: stack.PUBLISHABLE_KEY, authorization: '' } })).status).toBe(200);
    expect((await rawRequest(`/auth/v1/settings?apikey=${stack.ANON_KEY}`, { headers: NO_KEY })).status).toBe(200);
    const unknown = await rawRequest('/auth/v1/no-such-route');
    expect(unknown.status).toBe(404);
  });
});

describe('the open routes', () => {
  it('the JWKS needs no key', async () => {
    const response = await rawRequest('/auth/v1/.well-known/jwks.json', { headers: NO_KEY });
    expect(response.status).toBe(200);
    expect(response.json().keys).toHaveLength(1);
  });

  it('GET /verify (an emailed link) needs no key and redirects with the error in the fragment', async () => {
    const response = await rawRequest('/auth/v1/verify?token=not-a-token&type=recovery&redirect_to=http://localhost:5173', { headers: NO_KEY });
    expect(response.status).toBe(303);
    expect(response.headers.location).toContain('error_code=otp_expired');
  });

  it('POST /verify needs no key and answers as GoTrue', async () => {
    const response = await rawRequest('/auth/v1/verify', { method: 'POST', headers: NO_KEY, body: { type: 'recovery', token_hash: 'not-a-hash' } });
    expect(response.status).toBe(403);
    expect(response.json().code).toBe('otp_expired');
  });

  it('/authorize and /callback need no key', async () => {
    const authorize = await rawRequest('/auth/v1/authorize?provider=github', { headers: NO_KEY });
    expect(authorize.status).toBe(400);
    expect(authorize.json().msg).toBe('Unsupported provider: provider is not enabled');
    const callback = await rawRequest('/auth/v1/callback', { headers: NO_KEY });
    expect(callback.status).toBe(404);
  });

  it('a wrong key is still refused on the other routes', async () => {
    const response = await rawRequest('/auth/v1/health', { headers: { apikey: 'sb_publishable_not-a-key', authorization: '' } });
    expect(response.status).toBe(401);
    expect(response.json().code).toBe('invalid_api_key');
  });
});
