// Access tokens: ES256 with a kid published in the JWKS (so getClaims verifies locally), the
// claim set of GoTrue, and refusal of forged, unsigned and expired tokens.
import { generateKeyPair, SignJWT, decodeProtectedHeader, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { signedInClient } from '../../support/clients.ts';
import { genuineSigningKey } from '../../support/signing-key.ts';
import { stack } from '../../support/stack.ts';
import { rawRequest, recordingFetch, userEndpoint } from './support.ts';

describe('access tokens', () => {
  it('carry GoTrue claims and are verified locally by getClaims after one JWKS fetch', async () => {
    const requests: string[] = [];
    const { client, user, email } = await signedInClient({ wrapFetch: recordingFetch(requests) });
    const token = (await client.auth.getSession()).data.session!.access_token;
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toBeTruthy();
    expect(token).not.toContain('=');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: `${stack.API_URL}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);

    const before = requests.length;
    const first = await client.auth.getClaims();
    expect(first.error).toBeNull();
    expect(first.data?.claims.sub).toBe(user.id);
    const second = await client.auth.getClaims();
    expect(second.data?.claims.session_id).toBe(claims.session_id);
    const made = requests.slice(before);
    expect(made.filter((r) => r.includes('/.well-known/jwks.json'))).toHaveLength(1);
    expect(made.filter((r) => r.includes('/auth/v1/user'))).toHaveLength(0);
  });

  it('the JWKS holds only the public ES256 key, cacheable for 10 minutes', async () => {
    const response = await rawRequest('/auth/v1/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=600');
    const { keys } = response.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'] });
    expect(keys[0].d).toBeUndefined();
  });
});

describe('GET /user refuses tokens it did not issue', () => {
  it('accepts the genuine token (control)', async () => {
    const { session } = await signedInClient();
    expect(await userEndpoint(session.access_token)).toEqual({ status: 200, code: undefined });
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const { session } = await signedInClient();
    const [header, payload, signature] = session.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url');
    expect(await userEndpoint(`${header}.${tampered}.${signature}`)).toEqual({ status: 403, code: 'bad_jwt' });
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const { session } = await signedInClient();
    const { kid } = await genuineSigningKey();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(decodeJwt(session.access_token)).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);
    expect(await userEndpoint(forged)).toEqual({ status: 403, code: 'bad_jwt' });
  });

  it('refuses an unsigned (alg none) token', async () => {
    const { session } = await signedInClient();
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = session.access_token.split('.')[1];
    expect(await userEndpoint(`${header}.${payload}.`)).toEqual({ status: 403, code: 'bad_jwt' });
  });

  it('refuses an expired token signed with the real key', async () => {
    const { session } = await signedInClient();
    const { kid, privateKey: key } = await genuineSigningKey();
    const claims = decodeJwt(session.access_token);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .sign(key);
    expect(await userEndpoint(expired)).toEqual({ status: 403, code: 'bad_jwt' });
    const fresh = await new SignJWT({ ...claims, iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(key);
    expect(await userEndpoint(fresh)).toEqual({ status: 200, code: undefined });
  });

  it('refuses a genuinely signed token without a session_id', async () => {
    const { session } = await signedInClient();
    const { kid, privateKey } = await genuineSigningKey();
    const { session_id: _dropped, ...claims } = decodeJwt(session.access_token);
    const sessionless = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);
    expect(await userEndpoint(sessionless)).toEqual({ status: 403, code: 'session_not_found' });
  });

  it('refuses HS256 user tokens signed with the public demo secret, on reads and on writes', async () => {
    const { session, user } = await signedInClient();
    const secret = new TextEncoder().encode(stack.JWT_SECRET);
    const now = Math.floor(Date.now() / 1000);
    const bare = await new SignJWT({ sub: user.id, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(secret);
    // Even with every claim of the real token (session included) HS256 does not pass.
    const copied = await new SignJWT(decodeJwt(session.access_token)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    for (const forged of [bare, copied]) {
      expect(await userEndpoint(forged)).toEqual({ status: 403, code: 'bad_jwt' });
      const write = await rawRequest('/auth/v1/user', { method: 'PUT', headers: { authorization: `Bearer ${forged}` }, body: { data: { forged: true } } });
      expect(write.status).toBe(403);
      expect(write.json().code).toBe('bad_jwt');
    }
    const unchanged = await rawRequest('/auth/v1/user', { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(unchanged.json().user_metadata.forged).toBeUndefined();

    // Control: the genuine token writes.
    const genuine = await rawRequest('/auth/v1/user', { method: 'PUT', headers: { authorization: `Bearer ${session.access_token}` }, body: { data: { forged: false } } });
    expect(genuine.status).toBe(200);
    expect(genuine.json().user_metadata.forged).toBe(false);
  });

  it('answers 401 no_authorization without a bearer token, and bad_jwt for an API key', async () => {
    const missing = await rawRequest('/auth/v1/user', { headers: { authorization: '' } });
    expect(missing.status).toBe(401);
    expect(missing.json().code).toBe('no_authorization');
    expect(await userEndpoint(stack.ANON_KEY)).toEqual({ status: 403, code: 'bad_jwt' });
  });
});

describe('malformed ids and paths', () => {
  it('answer 404 JSON with a code, never 500', async () => {
    const { session } = await signedInClient();
    const asUser = { authorization: `Bearer ${session.access_token}` };
    const asAdmin = { apikey: stack.SERVICE_ROLE_KEY, authorization: `Bearer ${stack.SERVICE_ROLE_KEY}` };
    const cases: Array<[string, string, Record<string, string>, string]> = [
      // 36 characters of the loose [0-9a-f-] shape, but not a UUID Postgres would accept.
      ['DELETE', '/auth/v1/factors/------------------------------------', asUser, 'mfa_factor_not_found'],
      ['POST', '/auth/v1/factors/------------------------------------/challenge', asUser, 'mfa_factor_not_found'],
      ['GET', '/auth/v1/admin/users/------------------------------------', asAdmin, 'user_not_found'],
      // A percent escape that does not decode.
      ['DELETE', '/auth/v1/factors/%zz', asUser, 'not_found'],
      ['GET', '/auth/v1/admin/users/%zz', asAdmin, 'not_found'],
    ];
    for (const [method, path, headers, code] of cases) {
      const response = await rawRequest(path, { method, headers });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json(), `${method} ${path}`).toMatchObject({ code, error_code: code });
    }
    // Control: a well-formed id of a factor the caller owns is found and removed.
    const enrolled = await rawRequest('/auth/v1/factors', { method: 'POST', headers: asUser, body: { factor_type: 'totp' } });
    expect(enrolled.status).toBe(200);
    const removed = await rawRequest(`/auth/v1/factors/${enrolled.json().id}`, { method: 'DELETE', headers: asUser });
    expect(removed.status).toBe(200);
    expect(removed.json()).toEqual({ id: enrolled.json().id });
  });
});

describe('error format', () => {
  it('is JSON with code, error_code, msg and message, and the API version header', async () => {
    const response = await rawRequest('/auth/v1/token?grant_type=password', { method: 'POST', body: { email: 'nobody@example.test', password: 'x' } });
    expect(response.status).toBe(400);
    expect(response.headers['x-supabase-api-version']).toBe('2024-01-01');
    expect(response.json()).toEqual({
      code: 'invalid_credentials',
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
      message: 'Invalid login credentials',
    });
  });

  it('answers malformed JSON with 400 bad_json and no internals', async () => {
    const response = await rawRequest('/auth/v1/signup', { method: 'POST', body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.json().code).toBe('bad_json');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses requests without a valid API key', async () => {
    const none = await rawRequest('/auth/v1/signup', { method: 'POST', body: {}, headers: { apikey: '', authorization: '' } });
    expect(none.status).toBe(401);
    const wrong = await rawRequest('/auth/v1/signup', { method: 'POST', body: {}, headers: { apikey: 'sb_publishable_not-a-key', authorization: '' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json().code).toBe('invalid_api_key');
  });

  it('unsupported grant types are refused like GoTrue does', async () => {
    const response = await rawRequest('/auth/v1/token?grant_type=magic', { method: 'POST', body: {} });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_credentials', message: 'unsupported_grant_type' });
  });
});
