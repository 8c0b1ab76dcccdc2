// Password sign-up and sign-in, the current user, sessions, logout scopes and refresh-token
// rotation, through the unmodified supabase-js client against the local Auth service.
import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { recordingFetch, userEndpoint } from './support.ts';

const db = database();
afterAll(() => db.end());

describe('sign-up', () => {
  it('creates a confirmed user and signs them in with an ES256 session', async () => {
    const client = createTestClient();
    const email = uniqueEmail('signup');
    const { data, error } = await client.auth.signUp({ email, password: 'correct-horse-42', options: { data: { display_name: 'Ada' } } });
    expect(error).toBeNull();
    expect(data.session?.access_token.split('.')).toHaveLength(3);
    expect(data.session?.refresh_token.length).toBeGreaterThanOrEqual(12);
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ display_name: 'Ada' });
    expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(data.user?.identities?.[0]?.provider).toBe('email');
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it('stores the email in lowercase and the password as a bcrypt hash (cost 10)', async () => {
    const client = createTestClient();
    const email = uniqueEmail('Mixed.Case');
    const { error } = await client.auth.signUp({ email, password: 'correct-horse-42' });
    expect(error).toBeNull();
    const [row] = await db`select email, encrypted_password from auth.users where email = ${email.toLowerCase()}`;
    expect(row.email).toBe(email.toLowerCase());
    expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
    expect(await bcrypt.compare('correct-horse-42', row.encrypted_password)).toBe(true);
    expect(await bcrypt.compare('wrong-horse-42', row.encrypted_password)).toBe(false);
  });

  it('refuses a weak password with the reasons', async () => {
    const client = createTestClient();
    const short = await client.auth.signUp({ email: uniqueEmail('weak'), password: 'abc1' });
    expect(short.error?.status).toBe(422);
    expect(short.error?.code).toBe('weak_password');
    expect((short.error as any).reasons).toEqual(['length']);
    const noDigit = await client.auth.signUp({ email: uniqueEmail('weak'), password: 'onlyletters' });
    expect(noDigit.error?.code).toBe('weak_password');
    expect((noDigit.error as any).reasons).toEqual(['characters']);
    expect(noDigit.data.session).toBeNull();
  });

  it('refuses an email that is already registered', async () => {
    const { email } = await signedInClient();
    const { data, error } = await createTestClient().auth.signUp({ email, password: 'another-horse-42' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('user_already_exists');
    expect(data.session).toBeNull();
  });
});

describe('sign-in', () => {
  it('signs in with the right password and refuses a wrong one', async () => {
    const { email, password } = await signedInClient();
    const client = createTestClient();
    const bad = await client.auth.signInWithPassword({ email, password: 'not-the-password-1' });
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.code).toBe('invalid_credentials');
    expect(bad.error?.message).toBe('Invalid login credentials');
    const unknown = await client.auth.signInWithPassword({ email: uniqueEmail('nobody'), password });
    expect(unknown.error?.code).toBe('invalid_credentials');
    const good = await client.auth.signInWithPassword({ email: email.toUpperCase(), password });
    expect(good.error).toBeNull();
    expect(good.data.user?.email).toBe(email);
    expect(good.data.session?.access_token).toBeTruthy();
  });
});

describe('the current user', () => {
  it('getUser returns the user of the session', async () => {
    const { client, user } = await signedInClient({ displayName: 'Grace' });
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.user?.user_metadata).toEqual({ display_name: 'Grace' });
  });

  it('updateUser merges data into user_metadata', async () => {
    const { client } = await signedInClient({ displayName: 'Grace' });
    const { data, error } = await client.auth.updateUser({ data: { color: 'blue' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ display_name: 'Grace', color: 'blue' });
    const again = await client.auth.getUser();
    expect(again.data.user?.user_metadata).toEqual({ display_name: 'Grace', color: 'blue' });
  });

  it('updateUser changes the password, refusing the same one and a weak one', async () => {
    const { client, email, password } = await signedInClient();
    const same = await client.auth.updateUser({ password });
    expect(same.error?.status).toBe(422);
    expect(same.error?.code).toBe('same_password');
    const weak = await client.auth.updateUser({ password: 'short1' });
    expect(weak.error?.code).toBe('weak_password');
    const changed = await client.auth.updateUser({ password: 'brand-new-horse-7' });
    expect(changed.error).toBeNull();
    const old = await createTestClient().auth.signInWithPassword({ email, password });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await createTestClient().auth.signInWithPassword({ email, password: 'brand-new-horse-7' });
    expect(fresh.error).toBeNull();
  });

  it('getSession answers from storage without a request', async () => {
    const requests: string[] = [];
    const client = createTestClient({ wrapFetch: recordingFetch(requests) });
    await client.auth.signUp({ email: uniqueEmail('session'), password: 'correct-horse-42' });
    const before = requests.length;
    const { data } = await client.auth.getSession();
    expect(data.session?.access_token).toBeTruthy();
    expect(requests.length).toBe(before);
  });
});

describe('logout scopes', () => {
  async function twoSessions() {
    const first = await signedInClient();
    const second = createTestClient();
    const { error } = await second.auth.signInWithPassword({ email: first.email, password: first.password });
    expect(error).toBeNull();
    const secondSession = (await second.auth.getSession()).data.session!;
    return { first, second, secondSession };
  }

  it('global revokes every session of the user, and their refresh tokens', async () => {
    const { first, secondSession } = await twoSessions();
    const { error } = await first.client.auth.signOut({ scope: 'global' });
    expect(error).toBeNull();
    const probe = createTestClient();
    expect(await userEndpoint(secondSession.access_token)).toEqual({ status: 403, code: 'session_not_found' });
    const user = await probe.auth.getUser(secondSession.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
    const refreshed = await probe.auth.refreshSession({ refresh_token: secondSession.refresh_token });
    expect(refreshed.error?.code).toBe('refresh_token_not_found');
  });

  it('local revokes only the current session', async () => {
    const { first, second, secondSession } = await twoSessions();
    const firstSession = first.session;
    await first.client.auth.signOut({ scope: 'local' });
    const probe = createTestClient();
    expect(await userEndpoint(firstSession.access_token)).toEqual({ status: 403, code: 'session_not_found' });
    const stillThere = await second.auth.getUser();
    expect(stillThere.error).toBeNull();
    expect(stillThere.data.user?.id).toBe(first.user.id);
    expect((await probe.auth.getUser(secondSession.access_token)).error).toBeNull();
  });

  it('others revokes every session but the current one', async () => {
    const { first, second, secondSession } = await twoSessions();
    const { error } = await second.auth.signOut({ scope: 'others' });
    expect(error).toBeNull();
    expect((await second.auth.getUser()).error).toBeNull();
    const probe = createTestClient();
    expect(await userEndpoint(first.session.access_token)).toEqual({ status: 403, code: 'session_not_found' });
    expect((await probe.auth.getUser(secondSession.access_token)).error).toBeNull();
  });

  it('a revoked session seen by getUser signs the client out', async () => {
    const { first, second } = await twoSessions();
    await first.client.auth.signOut({ scope: 'global' });
    const events: string[] = [];
    second.auth.onAuthStateChange((event) => void events.push(event));
    const { error } = await second.auth.getUser();
    expect(error?.name).toBe('AuthSessionMissingError');
    expect((await second.auth.getSession()).data.session).toBeNull();
    expect(events).toContain('SIGNED_OUT');
  });
});

describe('refresh tokens', () => {
  it('rotate on refresh and keep the session id, aal and amr', async () => {
    const { client, session } = await signedInClient();
    const claimsBefore = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    const claimsAfter = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1], 'base64url').toString());
    expect(claimsAfter.session_id).toBe(claimsBefore.session_id);
    expect(claimsAfter.aal).toBe('aal1');
    expect(claimsAfter.amr).toEqual(claimsBefore.amr);
    const next = await client.auth.refreshSession();
    expect(next.error).toBeNull();
  });

  it('a spent token reused within the reuse interval still returns a valid session', async () => {
    const { client, session } = await signedInClient();
    const rotated = await client.auth.refreshSession();
    expect(rotated.error).toBeNull();
    const reuse = await createTestClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error).toBeNull();
    expect(reuse.data.session?.refresh_token).toBe(rotated.data.session?.refresh_token);
    expect((await createTestClient().auth.getUser(reuse.data.session!.access_token)).error).toBeNull();
  });

  it('a spent token reused after the reuse interval fails and revokes the whole session', async () => {
    const { client, session } = await signedInClient();
    const rotated = await client.auth.refreshSession();
    expect(rotated.error).toBeNull();
    // Age the spent token past the 10 s reuse interval instead of sleeping through it.
    await db`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = ${session.refresh_token}`;
    const thief = createTestClient();
    const reuse = await thief.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error?.status).toBe(400);
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    const current = await createTestClient().auth.refreshSession({ refresh_token: rotated.data.session!.refresh_token });
    expect(current.error?.status).toBe(400);
    expect(await userEndpoint(rotated.data.session!.access_token)).toEqual({ status: 403, code: 'session_not_found' });
  });

  it('an unknown refresh token fails with refresh_token_not_found', async () => {
    const { error } = await createTestClient().auth.refreshSession({ refresh_token: 'no-such-refresh-token' });
    expect(error?.code).toBe('refresh_token_not_found');
  });
});

describe('onAuthStateChange', () => {
  it('emits the GoTrue event sequence', async () => {
    const client = createTestClient();
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    await client.auth.getSession();
    await client.auth.signUp({ email: uniqueEmail('events'), password: 'correct-horse-42' });
    await client.auth.updateUser({ data: { step: 1 } });
    await client.auth.refreshSession();
    await client.auth.signOut();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN', 'USER_UPDATED', 'TOKEN_REFRESHED', 'SIGNED_OUT']);
  });
});
