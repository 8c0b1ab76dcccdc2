// Tokens: the API key that opens the socket, the access token a join acts with, and
// `access_token` updates while joined — verified against the stack's signing key (ES256 with
// its kid) and legacy JWT secret, refused with Realtime's reasons, and enforced until expiry.
import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { genuineSigningKey } from '../../support/signing-key.ts';
import { stack } from '../../support/stack.ts';
import {
  clientWithToken,
  closeClients,
  createTopicPolicies,
  keepClient,
  mintAccessToken,
  rawSocket,
  realtimeClient,
  sleep,
  subscribe,
  subscribed,
  uniqueTopic,
  VSNS,
  waitFor,
} from './support.ts';

const prefix = `rt-tokens-${randomUUID().slice(0, 8)}`;
const sql = database();
let dropPolicies: () => Promise<void>;

beforeAll(async () => {
  dropPolicies = await createTopicPolicies(sql, prefix);
});

afterAll(async () => {
  await dropPolicies?.();
  await sql.end();
});

afterEach(closeClients);

async function hs256(claims: Record<string, unknown>, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** A channel that records its statuses and system messages. */
function observed(channel: ReturnType<ReturnType<typeof realtimeClient>['channel']>) {
  const statuses: string[] = [];
  const system: any[] = [];
  const broadcasts: string[] = [];
  channel.on('system', {}, (payload) => system.push(payload)).on('broadcast', { event: '*' }, (m) => broadcasts.push(m.event));
  channel.subscribe((status) => statuses.push(status));
  return { channel, statuses, system, broadcasts };
}

describe.each(VSNS)('joining with a token over vsn %s', (vsn) => {
  const refusal = async (token: string) => {
    const outcome = await subscribe((await clientWithToken(() => token, { vsn })).channel(uniqueTopic('tokens')));
    expect(outcome.status).toBe('CHANNEL_ERROR');
    return outcome.error!.message;
  };

  it('an expired token is refused', async () => {
    expect(await refusal(await mintAccessToken({ expiresIn: -30 }))).toMatch(/^InvalidJWTToken: Token has expired \d+ seconds ago$/);
  });

  it('a token signed by another key under the stack’s kid is refused', async () => {
    const { kid } = await genuineSigningKey();
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: randomUUID(), role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await refusal(forged)).toBe('JwtSignatureError: Failed to validate JWT signature');
  });

  it('a token whose kid the stack does not publish is refused', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ role: 'authenticated' }).setProtectedHeader({ alg: 'ES256', kid: 'someone-else', typ: 'JWT' }).setExpirationTime('1h').sign(privateKey);
    expect(await refusal(foreign)).toBe('JwtSignerError: Failed to generate JWT signer, check your JWT secret or JWKS configuration');
  });

  it('an HS256 token signed with another secret is refused', async () => {
    const token = await hs256({ role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 3600 }, 'not-the-secret-of-this-project-at-all-000');
    expect(await refusal(token)).toBe('JwtSignatureError: Failed to validate JWT signature');
  });

  it('a token without role or exp is refused', async () => {
    const token = await hs256({ sub: randomUUID() }, stack.JWT_SECRET);
    expect(await refusal(token)).toBe('InvalidJWTToken: Fields `role` and `exp` are required in JWT');
  });

  it('a value that is not a JWT is refused', async () => {
    expect(await refusal('not-a-jwt')).toBe('MalformedJWT: The token provided is not a valid JWT');
  });

  it('a genuine token joins (control)', async () => {
    const outcome = await subscribe((await clientWithToken(await mintAccessToken().then((t) => () => t), { vsn })).channel(uniqueTopic('tokens')));
    expect(outcome.status).toBe('SUBSCRIBED');
  });
});

describe('tokens while joined', () => {
  it('when the joined token expires the channel gets Realtime’s system message and is closed', async () => {
    const token = await mintAccessToken({ expiresIn: 2 });
    const topic = uniqueTopic('expiry');
    const watched = observed((await clientWithToken(() => token)).channel(topic));
    await waitFor('the join', () => watched.statuses.includes('SUBSCRIBED'));
    await waitFor('the channel to close', () => watched.statuses.includes('CLOSED'), 6000);
    expect(watched.statuses).toEqual(['SUBSCRIBED', 'CLOSED']);
    expect(watched.system).toEqual([
      { extension: 'system', status: 'error', message: expect.stringMatching(/^Token has expired \d+ seconds ago$/), channel: topic },
    ]);
  });

  it('a new token sent with setAuth before expiry keeps the channel open and receiving', async () => {
    const user = randomUUID();
    const topic = `${prefix}:${user}:renewed`;
    let current = await mintAccessToken({ sub: user, expiresIn: 2 });
    const client = await clientWithToken(() => current);
    const watched = observed(client.channel(topic, { config: { private: true } }));
    await waitFor('the join', () => watched.statuses.includes('SUBSCRIBED'));

    current = await mintAccessToken({ sub: user, expiresIn: 3600 });
    await client.realtime.setAuth();
    await sleep(3000); // past the first token's expiry
    await sql`select realtime.send('{}'::jsonb, 'still-here', ${topic})`;
    await waitFor('the message', () => watched.broadcasts.length === 1);
    expect(watched.statuses).toEqual(['SUBSCRIBED']);
    expect(watched.system).toEqual([]);
  });

  it('a new token whose user the policy does not admit closes a private channel', async () => {
    const user = randomUUID();
    const topic = `${prefix}:${user}:revoked`;
    let current = await mintAccessToken({ sub: user });
    const client = await clientWithToken(() => current);
    const watched = observed(client.channel(topic, { config: { private: true } }));
    await waitFor('the join', () => watched.statuses.includes('SUBSCRIBED'));

    current = await mintAccessToken({ sub: randomUUID() });
    await client.realtime.setAuth();
    await waitFor('the channel to close', () => watched.statuses.includes('CLOSED'));
    expect(watched.system).toEqual([
      { extension: 'system', status: 'error', message: `You no longer have permission to read from this Channel topic: ${topic}`, channel: topic },
    ]);
  });

  it('an invalid new token closes the channel', async () => {
    let current = await mintAccessToken();
    const client = await clientWithToken(() => current);
    const topic = uniqueTopic('forged-update');
    const watched = observed(client.channel(topic));
    await waitFor('the join', () => watched.statuses.includes('SUBSCRIBED'));
    const [header, payload] = current.split('.');
    current = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    await client.realtime.setAuth();
    await waitFor('the channel to close', () => watched.statuses.includes('CLOSED'));
    expect(watched.system).toEqual([{ extension: 'system', status: 'error', message: 'Failed to validate JWT signature', channel: topic }]);
  });

  it('a refreshed session’s token reaches the joined channel, which keeps receiving', async () => {
    const { client, user } = await signedInClient();
    keepClient(client);
    const topic = `${prefix}:${user.id}:refresh`;
    const watched = observed(client.channel(topic, { config: { private: true } }));
    await waitFor('the join', () => watched.statuses.includes('SUBSCRIBED'));
    const { data } = await client.auth.refreshSession();
    await waitFor('the new token', () => client.realtime.accessTokenValue === data.session!.access_token);
    await sql`select realtime.send('{}'::jsonb, 'after-refresh', ${topic})`;
    await waitFor('the message', () => watched.broadcasts.length === 1);
    expect(watched.statuses).toEqual(['SUBSCRIBED']);
  });
});

describe('API keys', () => {
  it('a socket with an unknown API key is refused', async () => {
    await expect(rawSocket('2.0.0', 'not-a-key')).rejects.toThrow('403');
  });

  it('an expired API key JWT is refused', async () => {
    const expired = await hs256({ role: 'anon', exp: Math.floor(Date.now() / 1000) - 60 }, stack.JWT_SECRET);
    await expect(rawSocket('2.0.0', expired)).rejects.toThrow('403');
  });

  it('the publishable key joins as anon; the secret key acts as the service role', async () => {
    const topic = uniqueTopic('new-keys');
    const anonPrivate = await subscribe(realtimeClient({ key: stack.PUBLISHABLE_KEY }).channel(topic, { config: { private: true } }));
    expect(anonPrivate.status).toBe('CHANNEL_ERROR');
    expect((await subscribe(realtimeClient({ key: stack.PUBLISHABLE_KEY }).channel(topic))).status).toBe('SUBSCRIBED');
    await subscribed(realtimeClient({ key: stack.SECRET_KEY }).channel(topic, { config: { private: true } }));
  });

  it('an HS256 JWT signed with the project’s JWT secret is accepted, as Supabase Realtime accepts it', async () => {
    const legacy = await hs256({ role: 'authenticated', sub: randomUUID(), exp: Math.floor(Date.now() / 1000) + 600 }, stack.JWT_SECRET);
    expect((await subscribe((await clientWithToken(() => legacy)).channel(uniqueTopic('legacy')))).status).toBe('SUBSCRIBED');
  });
});
