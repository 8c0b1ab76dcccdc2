// GoTrue features the local stack does not emulate answer as GoTrue answers them switched off
// (config.toml's defaults): the status, code and words GoTrue uses, after the checks GoTrue's
// router makes first (admin credentials, a signed-in user), and nothing is written.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { rawRequest } from './support.ts';

const db = database();
afterAll(() => db.end());

const adminClient = () => createTestClient({ key: stack.SERVICE_ROLE_KEY });

function expectRefusal(error: { status?: number; code?: string; message: string } | null, status: number, code: string, message: string) {
  expect(error).not.toBeNull();
  expect({ status: error!.status, code: error!.code, message: error!.message }).toEqual({ status, code, message });
}

describe('admin OAuth clients (the OAuth 2.1 server is off)', () => {
  it('answer the service role 404 feature_disabled "OAuth server is disabled"', async () => {
    const { oauth } = adminClient().auth.admin;
    expectRefusal((await oauth.listClients()).error, 404, 'feature_disabled', 'OAuth server is disabled');
    const created = await oauth.createClient({ client_name: 'Fieldcheck test', redirect_uris: ['http://localhost:5173/callback'] });
    expectRefusal(created.error, 404, 'feature_disabled', 'OAuth server is disabled');
    expectRefusal((await oauth.deleteClient('some-client')).error, 404, 'feature_disabled', 'OAuth server is disabled');
  });

  it('are still refused to anyone but the service role first', async () => {
    const { error } = await createTestClient().auth.admin.oauth.listClients();
    expect(error?.status).toBe(403);
    expect(error?.code).toBe('not_admin');
  });
});

describe('admin inviteUserByEmail', () => {
  it('is 404 feature_disabled and creates no user', async () => {
    const email = uniqueEmail('invited');
    const { data, error } = await adminClient().auth.admin.inviteUserByEmail(email);
    expectRefusal(error, 404, 'feature_disabled', 'Invites are disabled on the local stack');
    expect(data.user).toBeNull();
    const [row] = await db`select count(*)::int as n from auth.users where email = ${email}`;
    expect(row.n).toBe(0);
    expect((await createTestClient().auth.admin.inviteUserByEmail(email)).error?.code).toBe('not_admin');
  });
});

describe("a signed-in user's unemulated requests", () => {
  it('reauthenticate is 404 feature_disabled', async () => {
    const { client } = await signedInClient();
    expectRefusal((await client.auth.reauthenticate()).error, 404, 'feature_disabled', 'Reauthentication is disabled on the local stack');
  });

  it('unlinkIdentity and linkIdentity are 404 manual_linking_disabled and change nothing', async () => {
    const { client, user } = await signedInClient();
    const identities = await client.auth.getUserIdentities();
    expect(identities.data?.identities).toHaveLength(1);
    const unlinked = await client.auth.unlinkIdentity(identities.data!.identities[0]);
    expectRefusal(unlinked.error, 404, 'manual_linking_disabled', 'Manual linking is disabled');
    const linked = await client.auth.linkIdentity({ provider: 'github', options: { skipBrowserRedirect: true } });
    expectRefusal(linked.error, 404, 'manual_linking_disabled', 'Manual linking is disabled');
    const [row] = await db`select count(*)::int as n from auth.identities where user_id = ${user.id}`;
    expect(row.n).toBe(1);
  });

  it('without a session token they are refused as GoTrue refuses an anonymous caller', async () => {
    const response = await rawRequest('/auth/v1/reauthenticate');
    expect(response.status).toBe(403);
    expect(response.json().code).toBe('bad_jwt');
    const unlink = await rawRequest('/auth/v1/user/identities/00000000-0000-0000-0000-000000000000', { method: 'DELETE' });
    expect(unlink.status).toBe(403);
  });
});

describe('sign-in methods that are off', () => {
  it('Web3 (Sign in with Ethereum / Solana) is 422 web3_provider_disabled', async () => {
    const client = createTestClient();
    const { data, error } = await client.auth.signInWithWeb3({ chain: 'ethereum', message: 'localhost wants you to sign in', signature: '0x00' as `0x${string}` });
    expectRefusal(error, 422, 'web3_provider_disabled', 'Web3 provider is disabled');
    expect(data.session).toBeNull();
  });

  it('anonymous sign-ins are 422 anonymous_provider_disabled and create no user', async () => {
    const [before] = await db`select count(*)::int as n from auth.users where is_anonymous`;
    const { error } = await createTestClient().auth.signInAnonymously();
    expectRefusal(error, 422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    const [after] = await db`select count(*)::int as n from auth.users where is_anonymous`;
    expect(after.n).toBe(before.n);
  });

  it('OAuth providers: /authorize answers "Unsupported provider" as GoTrue does for a provider that is off', async () => {
    const { data, error } = await createTestClient().auth.signInWithOAuth({ provider: 'github', options: { skipBrowserRedirect: true } });
    expect(error).toBeNull();
    // A browser opens this URL with no API key, as it would an emailed link.
    const response = await fetch(data.url!, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' });
    const unknown = await fetch(`${stack.API_URL}/auth/v1/authorize?provider=myspace`);
    expect((await unknown.json()).msg).toBe('Unsupported provider: Provider myspace could not be found');
  });

  it('ID tokens, SSO, magic links and codes, resend and passkeys are refused as disabled', async () => {
    const client = createTestClient();
    expectRefusal((await client.auth.signInWithIdToken({ provider: 'google', token: 'x' })).error, 404, 'feature_disabled',
      'ID token sign-in (OAuth / OIDC providers) is disabled on the local stack');
    expectRefusal((await client.auth.signInWithSSO({ domain: 'example.com' })).error, 404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
    const email = uniqueEmail('otp');
    expectRefusal((await client.auth.signInWithOtp({ email })).error, 404, 'feature_disabled', 'Magic links and one-time codes are disabled on the local stack');
    expectRefusal((await client.auth.resend({ type: 'signup', email })).error, 404, 'feature_disabled', 'Resending mails is disabled on the local stack');
    const [row] = await db`select count(*)::int as n from auth.users where email = ${email}`;
    expect(row.n).toBe(0);

    const { client: signedIn } = await signedInClient();
    expectRefusal((await signedIn.auth.passkey.list()).error, 404, 'passkey_disabled', 'Passkeys are disabled');
    const customProviders = await adminClient().auth.admin.customProviders.listProviders();
    expectRefusal(customProviders.error, 404, 'feature_disabled', 'Custom OAuth providers are disabled');
  });
});
