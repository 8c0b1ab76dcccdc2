// Access-token verification against a JWKS served locally, as Supabase Auth serves it: only
// genuine, unexpired ES256/RS256 tokens of an authenticated user get through.
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { ApiError } from '../../supabase/functions/_shared/errors.ts';
import {
  createAuthenticator,
  createTokenVerifier,
  JWKS_CACHE_MAX_AGE_MS,
  type TokenVerifier,
  withVerifiedTokenCache,
} from '../../supabase/functions/_shared/auth.ts';

const ecKeys = await generateKeyPair('ES256', { extractable: true });
const rsaKeys = await generateKeyPair('RS256', { extractable: true });
const attackerKeys = await generateKeyPair('ES256', { extractable: true });
const EC_KID = 'test-es256';
const RSA_KID = 'test-rs256';

let jwksRequests = 0;
const jwks = {
  keys: [
    { ...(await exportJWK(ecKeys.publicKey)), kid: EC_KID, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
    { ...(await exportJWK(rsaKeys.publicKey)), kid: RSA_KID, alg: 'RS256', use: 'sig' },
  ],
};

const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, (req) => {
  if (new URL(req.url).pathname !== '/auth/v1/.well-known/jwks.json') return new Response('no', { status: 404 });
  jwksRequests++;
  return Response.json(jwks, { headers: { 'cache-control': 'public, max-age=600' } });
});
const jwksUrl = `http://127.0.0.1:${server.addr.port}/auth/v1/.well-known/jwks.json`;

const userId = crypto.randomUUID();
const now = () => Math.floor(Date.now() / 1000);

function claims(overrides: JWTPayload = {}): JWTPayload {
  return {
    iss: 'http://127.0.0.1:54321/auth/v1',
    sub: userId,
    aud: 'authenticated',
    role: 'authenticated',
    email: 'ada@example.com',
    aal: 'aal1',
    session_id: crypto.randomUUID(),
    iat: now(),
    exp: now() + 3600,
    ...overrides,
  };
}

function sign(payload: JWTPayload, key: CryptoKey, header: { alg: string; kid?: string }): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ typ: 'JWT', ...header }).sign(key);
}

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

async function rejection(verify: TokenVerifier, token: string): Promise<ApiError> {
  try {
    await verify(token);
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${error}`);
    return error;
  }
  assert.fail('the token was accepted');
}

// One verifier for most tests, like one function instance; each test that counts fetches makes its own.
const verify = createTokenVerifier(jwksUrl);
const options = { sanitizeOps: false, sanitizeResources: false };

Deno.test({ name: 'a valid ES256 token yields the user principal', ...options }, async () => {
  const principal = await verify(await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID }));
  assert.equal(principal.kind, 'user');
  assert.equal(principal.userId, userId);
  assert.equal(principal.claims.email, 'ada@example.com');
  assert.equal(principal.claims.role, 'authenticated');
});

Deno.test({ name: 'a valid RS256 token is accepted too', ...options }, async () => {
  const principal = await verify(await sign(claims(), rsaKeys.privateKey, { alg: 'RS256', kid: RSA_KID }));
  assert.equal(principal.userId, userId);
});

Deno.test({ name: 'the key set is fetched once and then cached', ...options }, async () => {
  const fresh = createTokenVerifier(jwksUrl);
  const before = jwksRequests;
  for (let i = 0; i < 3; i++) await fresh(await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID }));
  assert.equal(jwksRequests - before, 1);
});

Deno.test({ name: 'a token signed by another key under the right kid is unauthenticated', ...options }, async () => {
  const token = await sign(claims(), attackerKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
});

Deno.test({ name: 'a token whose payload was altered after signing is unauthenticated', ...options }, async () => {
  const genuine = await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  const [header, , signature] = genuine.split('.');
  const tampered = `${header}.${base64url(claims({ sub: crypto.randomUUID() }))}.${signature}`;
  assert.equal((await rejection(verify, tampered)).code, 'unauthenticated');
});

Deno.test({ name: 'a token with an unknown kid is unauthenticated', ...options }, async () => {
  const token = await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: 'not-in-the-jwks' });
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
});

Deno.test({ name: 'an expired genuine token is session_expired', ...options }, async () => {
  const token = await sign(claims({ iat: now() - 7200, exp: now() - 60 }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  const error = await rejection(verify, token);
  assert.equal(error.code, 'session_expired');
  assert.equal(error.status, 401);
});

Deno.test({ name: 'an expired forged token is unauthenticated, not session_expired', ...options }, async () => {
  const token = await sign(claims({ exp: now() - 60 }), attackerKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
});

Deno.test({ name: 'an unsigned alg:none token is unauthenticated', ...options }, async () => {
  const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`;
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
  const withKid = `${base64url({ alg: 'none', typ: 'JWT', kid: EC_KID })}.${base64url(claims())}.`;
  assert.equal((await rejection(verify, withKid)).code, 'unauthenticated');
});

Deno.test({ name: 'an HS256 token (like the legacy anon key) is unauthenticated', ...options }, async () => {
  const secret = new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters-long');
  const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
  const withKid = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: EC_KID }).sign(secret);
  assert.equal((await rejection(verify, withKid)).code, 'unauthenticated');
});

Deno.test({ name: 'a genuine token for another role is unauthenticated', ...options }, async () => {
  for (const role of ['anon', 'service_role', undefined]) {
    const token = await sign(claims({ role }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
    assert.equal((await rejection(verify, token)).code, 'unauthenticated', `role ${role} was accepted`);
  }
});

Deno.test({ name: 'a genuine token without a user id is unauthenticated', ...options }, async () => {
  for (const sub of [undefined, '', 'not-a-uuid']) {
    const token = await sign(claims({ sub }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
    assert.equal((await rejection(verify, token)).code, 'unauthenticated', `sub ${sub} was accepted`);
  }
});

Deno.test({ name: 'a genuine token without an expiry is unauthenticated', ...options }, async () => {
  const token = await sign(claims({ exp: undefined }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  assert.equal((await rejection(verify, token)).code, 'unauthenticated');
});

Deno.test({ name: 'garbage in place of a token is unauthenticated', ...options }, async () => {
  for (const token of ['a.b.c', 'eyJhbGciOiJFUzI1NiJ9.e30.', '..']) {
    assert.equal((await rejection(verify, token)).code, 'unauthenticated', `accepted ${token}`);
  }
});

Deno.test({ name: 'the authenticator reads the Bearer header and refuses requests without one', ...options }, async () => {
  const authenticator = createAuthenticator({ verifyToken: verify });
  const token = await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  const ok = await authenticator.authenticate(new Request('http://x/api/me', { headers: { authorization: `Bearer ${token}` } }));
  assert.equal(ok.kind, 'user');
  for (const headers of <Record<string, string>[]>[{}, { authorization: token }, { authorization: 'Basic abc' }, { authorization: 'Bearer ' }]) {
    await assert.rejects(
      authenticator.authenticate(new Request('http://x/api/me', { headers })),
      (error: unknown) => error instanceof ApiError && error.code === 'unauthenticated',
    );
  }
});

Deno.test({ name: 'opaque bearer tokens go to the API key resolver, and are refused without one', ...options }, async () => {
  const request = new Request('http://x/api/me', { headers: { authorization: 'Bearer fc_live_abc123' } });
  await assert.rejects(
    createAuthenticator({ verifyToken: verify }).authenticate(request),
    (error: unknown) => error instanceof ApiError && error.code === 'unauthenticated',
  );
  const withKeys = createAuthenticator({
    verifyToken: verify,
    resolveApiKey: (key) =>
      Promise.resolve(key === 'fc_live_abc123' ? { kind: 'api_key', keyId: 'k1', orgId: 'o1', role: 'viewer' } : null),
  });
  assert.equal((await withKeys.authenticate(request)).kind, 'api_key');
});

Deno.test({ name: 'a JWKS answering 500 is service_unavailable, and the same verifier recovers', ...options }, async () => {
  let failing = true;
  const flaky = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, () =>
    failing ? new Response('upstream down', { status: 500 }) : Response.json(jwks));
  try {
    const flakyVerify = createTokenVerifier(`http://127.0.0.1:${flaky.addr.port}/auth/v1/.well-known/jwks.json`);
    const token = await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
    const error = await rejection(flakyVerify, token);
    assert.equal(error.code, 'service_unavailable');
    assert.equal(error.status, 503);
    failing = false;
    assert.equal((await flakyVerify(token)).userId, userId);
    // With the keys back, a forged token is still refused as unauthenticated.
    const forged = await sign(claims(), attackerKeys.privateKey, { alg: 'ES256', kid: EC_KID });
    assert.equal((await rejection(flakyVerify, forged)).code, 'unauthenticated');
  } finally {
    await flaky.shutdown();
  }
});

Deno.test({ name: 'an unreachable JWKS is service_unavailable, not unauthenticated', ...options }, async () => {
  // A port that was just free and is closed again: connections to it are refused.
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const unreachable = createTokenVerifier(`http://127.0.0.1:${port}/auth/v1/.well-known/jwks.json`);
  const error = await rejection(unreachable, await sign(claims(), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID }));
  assert.equal(error.code, 'service_unavailable');
  assert.equal(error.status, 503);
});

Deno.test({ name: 'the verified-token cache verifies a token once, until it expires, and never remembers a refusal', ...options }, async () => {
  let verifications = 0;
  const real = createTokenVerifier(jwksUrl);
  const counting: TokenVerifier = (token) => {
    verifications++;
    return real(token);
  };
  let clock = Date.now();
  const verify = withVerifiedTokenCache(counting, { now: () => clock });
  const expiresIn = 120;
  const token = await sign(claims({ exp: now() + expiresIn }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  const first = await verify(token);
  const second = await verify(token);
  assert.equal(second, first);
  assert.equal(verifications, 1, 'the second request skips the signature check');

  // Past its expiry (by the cache's clock) the token is verified again, not served from the
  // cache; jose, on the real clock, then decides on its own.
  clock += (expiresIn + 1) * 1000;
  await verify(token);
  assert.equal(verifications, 2);

  // A forged token is checked every time and refused every time.
  const forged = await sign(claims(), attackerKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  await assert.rejects(verify(forged));
  await assert.rejects(verify(forged));
  assert.equal(verifications, 4);
});

Deno.test({ name: 'a cached token is trusted no longer than the JWKS is cached, even when it expires later', ...options }, async () => {
  let verifications = 0;
  const real = createTokenVerifier(jwksUrl);
  let clock = Date.now();
  const verify = withVerifiedTokenCache((token) => {
    verifications++;
    return real(token);
  }, { now: () => clock });
  const token = await sign(claims({ exp: now() + 3600 }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID });
  await verify(token);
  clock += JWKS_CACHE_MAX_AGE_MS - 1000;
  await verify(token);
  assert.equal(verifications, 1);
  clock += 2000;
  await verify(token);
  assert.equal(verifications, 2, 'checked again once the JWKS would have been fetched again');
});

Deno.test({ name: 'the cache forgets its oldest token when full', ...options }, async () => {
  let verifications = 0;
  const real = createTokenVerifier(jwksUrl);
  const verify = withVerifiedTokenCache((token) => {
    verifications++;
    return real(token);
  }, { maxEntries: 2 });
  const tokens = await Promise.all([1, 2, 3].map(() => sign(claims({ session_id: crypto.randomUUID() }), ecKeys.privateKey, { alg: 'ES256', kid: EC_KID })));
  for (const token of tokens) await verify(token);
  await verify(tokens[2]);
  assert.equal(verifications, 3, 'the newest is still cached');
  await verify(tokens[0]);
  assert.equal(verifications, 4, 'the oldest was forgotten');
});

Deno.test({ name: 'stop the JWKS server', ...options }, async () => {
  await server.shutdown();
});
