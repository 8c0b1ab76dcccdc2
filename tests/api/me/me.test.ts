// GET·PATCH /me through the real gateway and Deno with the unmodified supabase-js client: a
// signed-in user reads and renames their own profile; every bad request gets its catalogue
// code and leaves the row exactly as it was.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { generateKeyPair, SignJWT } from 'jose';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi as call } from '../../support/api.ts';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';
import { genuineSigningKey } from '../../support/signing-key.ts';

const sql = postgres(stack.DB_URL, { max: 2, onnotice: () => {} });

interface Actor {
  client: SupabaseClient;
  userId: string;
  email: string;
  accessToken: string;
}

function newClient(key = stack.PUBLISHABLE_KEY): SupabaseClient {
  return createTestClient({ key });
}

async function signUp(label: string, displayName: string): Promise<Actor> {
  const { client, email, user, session } = await signedInClient({ email: uniqueEmail(label), displayName, key: stack.PUBLISHABLE_KEY });
  return { client, userId: user.id, email, accessToken: session.access_token };
}

async function profileRow(userId: string) {
  const [row] = await sql<{ display_name: string; updated_at: Date }[]>`
    select display_name, updated_at from public.profiles where user_id = ${userId}
  `;
  return row;
}

let ada: Actor;
let bob: Actor;

beforeAll(async () => {
  ada = await signUp('ada', 'Ada Lovelace');
  bob = await signUp('bob', '  Bob Babbage ');
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

describe('GET /me', () => {
  it('returns the signed-in user their own profile and no memberships yet', async () => {
    const { status, body, headers } = await call(ada.client, 'me');
    expect(status).toBe(200);
    expect(body).toEqual({
      user_id: ada.userId,
      email: ada.email,
      display_name: 'Ada Lovelace',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      memberships: [],
    });
    expect(headers.get('x-request-id')).toBeTruthy();
  });

  it('returns each user their own profile, the sign-up name trimmed', async () => {
    const { status, body } = await call(bob.client, 'me');
    expect(status).toBe(200);
    expect(body.user_id).toBe(bob.userId);
    expect(body.display_name).toBe('Bob Babbage');
  });

  it('echoes the caller\'s request id', async () => {
    const { headers } = await call(ada.client, 'me', { headers: { 'x-request-id': 'me-test-42' } });
    expect(headers.get('x-request-id')).toBe('me-test-42');
  });

  it('refuses unknown query parameters', async () => {
    const { status, body } = await call(ada.client, 'me?debug=1');
    expect(status).toBe(422);
    expect(body.code).toBe('validation_failed');
    expect(body.errors).toEqual([{ field: 'query.debug', message: 'This field is not allowed.' }]);
  });

  it('is not_found when the profile row does not exist', async () => {
    const carol = await signUp('carol', 'Carol');
    await sql`delete from public.profiles where user_id = ${carol.userId}`;
    const { status, body } = await call(carol.client, 'me');
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found', title: "We couldn't find that profile." });
  });

  it('answers unknown routes with a not_found problem', async () => {
    const { status, body } = await call(ada.client, 'no-such-route');
    expect(status).toBe(404);
    expect(body.code).toBe('not_found');
  });
});

describe('PATCH /me', () => {
  it('renames the caller, trimmed, and stores it', async () => {
    const before = await profileRow(ada.userId);
    const { status, body } = await call(ada.client, 'me', { method: 'PATCH', body: { display_name: '  Countess Ada  ' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ user_id: ada.userId, email: ada.email, display_name: 'Countess Ada', memberships: [] });
    const after = await profileRow(ada.userId);
    expect(after.display_name).toBe('Countess Ada');
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
    expect((await call(ada.client, 'me')).body.display_name).toBe('Countess Ada');
  });

  it('does not touch anyone else\'s profile', async () => {
    await call(ada.client, 'me', { method: 'PATCH', body: { display_name: 'Ada again' } });
    expect((await profileRow(bob.userId)).display_name).toBe('Bob Babbage');
  });
});

describe('PATCH /me refuses bad requests and writes nothing', () => {
  const stackKid = async () => {
    const jwks = await (await fetch(stack.JWKS_URL)).json();
    return jwks.keys[0].kid as string;
  };

  const now = () => Math.floor(Date.now() / 1000);
  const claimsOf = (actor: Actor) => ({
    sub: actor.userId,
    role: 'authenticated',
    aud: 'authenticated',
    email: actor.email,
    aal: 'aal1',
    session_id: randomUUID(),
  });

  const cases: Array<{
    name: string;
    request: () => Promise<{ client: SupabaseClient; body?: unknown; headers?: Record<string, string> }>;
    status: number;
    code: string;
    fields?: string[];
  }> = [
    {
      name: 'a display name of the wrong type',
      request: async () => ({ client: ada.client, body: { display_name: 42 } }),
      status: 422, code: 'validation_failed', fields: ['display_name'],
    },
    {
      name: 'an unknown key next to a valid name',
      request: async () => ({ client: ada.client, body: { display_name: 'Mallory', user_id: bob.userId } }),
      status: 422, code: 'validation_failed', fields: ['user_id'],
    },
    {
      name: 'a display name of 121 characters',
      request: async () => ({ client: ada.client, body: { display_name: 'x'.repeat(121) } }),
      status: 422, code: 'validation_failed', fields: ['display_name'],
    },
    {
      name: 'a display name that is empty after trimming',
      request: async () => ({ client: ada.client, body: { display_name: '  \t ' } }),
      status: 422, code: 'validation_failed', fields: ['display_name'],
    },
    {
      name: 'an empty object',
      request: async () => ({ client: ada.client, body: {} }),
      status: 422, code: 'validation_failed', fields: ['display_name'],
    },
    {
      name: 'malformed JSON',
      request: async () => ({ client: ada.client, body: '{"display_name": "Ada', headers: { 'Content-Type': 'application/json' } }),
      status: 422, code: 'validation_failed', fields: ['body'],
    },
    {
      name: 'a body that is not JSON',
      request: async () => ({ client: ada.client, body: 'display_name=Mallory' }),
      status: 422, code: 'validation_failed', fields: ['body'],
    },
    {
      name: 'a body over 256 KB',
      request: async () => ({ client: ada.client, body: { display_name: 'x'.repeat(300 * 1024) } }),
      status: 413, code: 'payload_too_large',
    },
    {
      name: 'no token (publishable key, signed out)',
      request: async () => ({ client: newClient(stack.PUBLISHABLE_KEY), body: { display_name: 'Mallory' } }),
      status: 401, code: 'unauthenticated',
    },
    {
      name: 'the legacy anon key instead of a user token',
      request: async () => ({ client: newClient(stack.ANON_KEY), body: { display_name: 'Mallory' } }),
      status: 401, code: 'unauthenticated',
    },
    {
      name: 'the service role key instead of a user token',
      request: async () => ({ client: newClient(stack.SERVICE_ROLE_KEY), body: { display_name: 'Mallory' } }),
      status: 401, code: 'unauthenticated',
    },
    {
      name: 'an expired token signed by the stack',
      request: async () => {
        const key = await genuineSigningKey();
        const token = await new SignJWT({ ...claimsOf(ada), iat: now() - 7200 })
          .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
          .setExpirationTime(now() - 60)
          .sign(key.privateKey);
        return { client: newClient(), body: { display_name: 'Mallory' }, headers: { Authorization: `Bearer ${token}` } };
      },
      status: 401, code: 'session_expired',
    },
    {
      name: 'a forged token under the stack\'s key id',
      request: async () => {
        const { privateKey } = await generateKeyPair('ES256');
        const token = await new SignJWT({ ...claimsOf(ada), iat: now() })
          .setProtectedHeader({ alg: 'ES256', kid: await stackKid(), typ: 'JWT' })
          .setExpirationTime(now() + 3600)
          .sign(privateKey);
        return { client: newClient(), body: { display_name: 'Mallory' }, headers: { Authorization: `Bearer ${token}` } };
      },
      status: 401, code: 'unauthenticated',
    },
    {
      name: 'an HS256 token signed with the stack\'s JWT secret',
      request: async () => {
        const token = await new SignJWT({ ...claimsOf(ada), iat: now() })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setExpirationTime(now() + 3600)
          .sign(new TextEncoder().encode((stack as { JWT_SECRET?: string }).JWT_SECRET ?? 'super-secret-jwt-token-with-at-least-32-characters-long'));
        return { client: newClient(), body: { display_name: 'Mallory' }, headers: { Authorization: `Bearer ${token}` } };
      },
      status: 401, code: 'unauthenticated',
    },
  ];

  for (const testCase of cases) {
    it(`${testCase.name} → ${testCase.status} ${testCase.code}`, async () => {
      const before = await profileRow(ada.userId);
      const { client, body, headers } = await testCase.request();
      const outcome = await call(client, 'me', { method: 'PATCH', body, headers });
      expect(outcome.status).toBe(testCase.status);
      expect(outcome.headers.get('content-type')).toBe('application/problem+json');
      expect(outcome.body).toMatchObject({
        code: testCase.code,
        status: testCase.status,
        type: `https://fieldcheck.app/problems/${testCase.code}`,
        request_id: expect.any(String),
      });
      if (testCase.fields) {
        expect(outcome.body.errors.map((error: { field: string }) => error.field)).toEqual(testCase.fields);
      }
      const after = await profileRow(ada.userId);
      expect(after.display_name).toBe(before.display_name);
      expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
    });
  }

  it('accepts a token minted with the same key when it is not expired (the expired case is real)', async () => {
    const key = await genuineSigningKey();
    const token = await new SignJWT({ ...claimsOf(ada), iat: now() })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setExpirationTime(now() + 600)
      .sign(key.privateKey);
    const { status, body } = await call(newClient(), 'me', { headers: { Authorization: `Bearer ${token}` } });
    expect(status).toBe(200);
    expect(body.user_id).toBe(ada.userId);
  });
});

describe('CORS', () => {
  it('answers the browser preflight for PATCH /me', async () => {
    const response = await fetch(`${stack.API_URL}/functions/v1/api/me`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization, apikey, x-client-info, content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    const allowOrigin = response.headers.get('access-control-allow-origin');
    expect(allowOrigin === '*' || allowOrigin === 'http://localhost:5173').toBe(true);
    const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'apikey', 'x-client-info', 'content-type']) {
      expect(allowedHeaders).toContain(header);
    }
    expect((response.headers.get('access-control-allow-methods') ?? '').toUpperCase()).toContain('PATCH');
  });

  it('lets the browser read the request id of an actual response', async () => {
    const response = await fetch(`${stack.API_URL}/functions/v1/api/me`, {
      headers: { Origin: 'http://localhost:5173', Authorization: `Bearer ${ada.accessToken}`, apikey: stack.PUBLISHABLE_KEY },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeTruthy();
    expect((response.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('x-request-id');
    await response.body?.cancel();
  });
});
