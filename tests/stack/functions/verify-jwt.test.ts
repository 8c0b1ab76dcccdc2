// verify_jwt (on by default, as for the fixtures): only callers holding a JWT this stack signed,
// or a new-format API key with no Authorization header, reach the function; the rest get 401.
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, uniqueEmail } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

const legacySecret = new TextEncoder().encode(stack.JWT_SECRET);

/** Invokes `echo` with the given client and headers; returns the status and the body. */
async function call(client: SupabaseClient, headers?: Record<string, string>): Promise<{ status: number; body: any }> {
  const { data, error, response } = await client.functions.invoke('echo', { body: { ping: true }, headers });
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const context = (error as FunctionsHttpError).context as Response;
    return { status: context.status, body: await context.json() };
  }
  return { status: response!.status, body: data };
}

const anonClient = createTestClient();
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const invalidJwt = { code: 401, message: 'Invalid JWT' };

function legacyToken(expiresAt: number): Promise<string> {
  return new SignJWT({ iss: 'supabase-demo', role: 'anon', exp: expiresAt })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(legacySecret);
}

describe('verify_jwt in front of a function', () => {
  const email = uniqueEmail('fn');
  const password = 'Correct-Horse-42';
  const admin = createTestClient({ key: stack.SERVICE_ROLE_KEY });
  let userId = '';
  let accessToken = '';

  beforeAll(async () => {
    const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
    expect(created.error).toBeNull();
    userId = created.data.user!.id;
    const user = createTestClient();
    const signedIn = await user.auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    accessToken = signedIn.data.session!.access_token;
  });

  afterAll(async () => {
    if (userId) await admin.auth.admin.deleteUser(userId);
  });

  it('refuses a request with no Authorization header and no API key', async () => {
    const response = await fetch(`${stack.API_URL}/functions/v1/echo`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ code: 401, message: 'Missing authorization header' });
  });

  it('accepts the legacy anon and service_role keys', async () => {
    expect(await call(anonClient)).toMatchObject({ status: 200, body: { method: 'POST', authorization: true } });
    const serviceClient = createTestClient({ key: stack.SERVICE_ROLE_KEY });
    expect((await call(serviceClient)).status).toBe(200);
  });

  it('accepts a signed-in user session token', async () => {
    const user = createTestClient();
    await user.auth.signInWithPassword({ email, password });
    expect(await call(user)).toMatchObject({ status: 200, body: { authorization: true } });
    expect((await call(anonClient, bearer(accessToken))).status).toBe(200);
  });

  it('accepts a publishable or secret key with no session (supabase-js sends no Authorization then)', async () => {
    const publishable = createTestClient({ key: stack.PUBLISHABLE_KEY });
    expect(await call(publishable)).toMatchObject({ status: 200, body: { authorization: false } });
    const secret = createTestClient({ key: stack.SECRET_KEY });
    expect((await call(secret)).status).toBe(200);
  });

  it('refuses a made-up publishable key', async () => {
    const fake = createTestClient({ key: 'sb_publishable_not-this-stacks-key_0000000' });
    expect(await call(fake)).toEqual({ status: 401, body: { code: 401, message: 'Missing authorization header' } });
  });

  it('refuses a garbage bearer token', async () => {
    expect(await call(anonClient, bearer('not-a-jwt'))).toEqual({ status: 401, body: invalidJwt });
    expect(await call(anonClient, { Authorization: stack.ANON_KEY })).toEqual({ status: 401, body: invalidJwt });
  });

  it('refuses an expired token that would otherwise verify', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await call(anonClient, bearer(await legacyToken(now + 600)))).status).toBe(200);
    expect(await call(anonClient, bearer(await legacyToken(now - 60)))).toEqual({ status: 401, body: invalidJwt });
  });

  it('refuses alg "none"', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ role: 'service_role', exp: 4102444800 })}.`;
    expect(await call(anonClient, bearer(unsigned))).toEqual({ status: 401, body: invalidJwt });
  });

  it('refuses a token signed by another key under the stack kid, and a tampered user token', async () => {
    const { kid } = decodeProtectedHeader(accessToken);
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const forged = await new SignJWT({ sub: userId, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await call(anonClient, bearer(forged))).toEqual({ status: 401, body: invalidJwt });

    const [header, payload, signature] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${signature}`;
    expect(await call(anonClient, bearer(tampered))).toEqual({ status: 401, body: invalidJwt });

    const forgedLegacy = await new SignJWT({ role: 'service_role', exp: 4102444800 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('not-the-stack-secret-but-32-chars-long!!'));
    expect(await call(anonClient, bearer(forgedLegacy))).toEqual({ status: 401, body: invalidJwt });
  });

  it('does not let a valid API key mask an invalid bearer token', async () => {
    const publishable = createTestClient({ key: stack.PUBLISHABLE_KEY });
    expect(await call(publishable, bearer('not-a-jwt'))).toEqual({ status: 401, body: invalidJwt });
  });
});
