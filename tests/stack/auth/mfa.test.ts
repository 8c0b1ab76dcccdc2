// TOTP MFA: enroll (QR code and secret), challenge, verify (aal1 → aal2 on the same session,
// refresh token rotated), list, assurance level, and unenroll rules.
import { describe, expect, it } from 'vitest';
import { addressToThrottle, createTestClient, freshLoopbackAddress, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { totpFor, wrongCode } from '../../support/totp.ts';
import { rawRequest, userEndpoint } from './support.ts';

function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

async function enrollVerified() {
  const signedIn = await signedInClient();
  const { client } = signedIn;
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
  if (enrolled.error) throw enrolled.error;
  const secret = enrolled.data.totp.secret;
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: totpFor(secret).generate() });
  if (verified.error) throw verified.error;
  return { ...signedIn, factorId: enrolled.data.id, secret };
}

describe('TOTP enrollment and verification', () => {
  it('enroll → challenge → wrong code → right code gives aal2 on the same session', async () => {
    const { client, session, email } = await signedInClient();
    const aal1 = claimsOf(session.access_token);

    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
    expect(enrolled.error).toBeNull();
    const { id: factorId, totp } = enrolled.data!;
    expect(totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.uri).toContain(`secret=${totp.secret}`);
    expect(totp.uri).toContain(encodeURIComponent(email));
    expect(totp.uri).toMatch(/^otpauth:\/\/totp\/.*algorithm=SHA1&digits=6.*period=30/);

    const listedBefore = await client.auth.mfa.listFactors();
    expect(listedBefore.data?.all.map((f) => [f.id, f.status])).toEqual([[factorId, 'unverified']]);
    expect(listedBefore.data?.totp).toHaveLength(0);

    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 200);

    const wrong = await client.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: wrongCode(totp.secret) });
    expect(wrong.error?.status).toBe(422);
    expect(wrong.error?.code).toBe('mfa_verification_failed');

    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const second = await client.auth.mfa.challenge({ factorId });
    const verified = await client.auth.mfa.verify({ factorId, challengeId: second.data!.id, code: totpFor(totp.secret).generate() });
    expect(verified.error).toBeNull();
    const aal2 = claimsOf(verified.data!.access_token);
    expect(aal2.aal).toBe('aal2');
    expect(aal2.session_id).toBe(aal1.session_id);
    expect(aal2.amr.map((entry: { method: string }) => entry.method)).toEqual(['totp', 'password']);
    expect(verified.data!.refresh_token).not.toBe(session.refresh_token);
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');

    // The aal1 refresh token can no longer mint tokens for this session.
    const oldRefresh = await createTestClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(oldRefresh.error).not.toBeNull();
    const newRefresh = await createTestClient().auth.refreshSession({ refresh_token: verified.data!.refresh_token });
    expect(newRefresh.error).toBeNull();
    expect(claimsOf(newRefresh.data.session!.access_token).aal).toBe('aal2');

    const listed = await client.auth.mfa.listFactors();
    expect(listed.data?.totp.map((f) => f.id)).toEqual([factorId]);
    expect(listed.data?.totp[0].status).toBe('verified');

    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((level.data!.currentAuthenticationMethods[0] as { method: string }).method).toBe('totp');
  });

  it('a spent challenge cannot be verified again', async () => {
    const { client } = await signedInClient();
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const challenge = await client.auth.mfa.challenge({ factorId: enrolled.data!.id });
    const code = totpFor(enrolled.data!.totp.secret).generate();
    expect((await client.auth.mfa.verify({ factorId: enrolled.data!.id, challengeId: challenge.data!.id, code })).error).toBeNull();
    const again = await client.auth.mfa.verify({ factorId: enrolled.data!.id, challengeId: challenge.data!.id, code });
    expect(again.error?.code).toBe('mfa_factor_not_found');
  });

  it("another user's factor is not found", async () => {
    const { factorId } = await enrollVerified();
    const { client } = await signedInClient();
    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error?.status).toBe(404);
    expect(challenge.error?.code).toBe('mfa_factor_not_found');
  });

  it('verifying deletes the other unverified TOTP factors', async () => {
    const { client } = await signedInClient();
    const spare = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'spare' });
    const main = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'main' });
    expect(spare.error).toBeNull();
    const verified = await client.auth.mfa.challengeAndVerify({ factorId: main.data!.id, code: totpFor(main.data!.totp.secret).generate() });
    expect(verified.error).toBeNull();
    const listed = await client.auth.mfa.listFactors();
    expect(listed.data?.all.map((f) => f.id)).toEqual([main.data!.id]);
  });
});

describe('unenroll', () => {
  it('a verified factor needs aal2: refused at aal1, allowed at aal2', async () => {
    const { email, password, factorId, secret } = await enrollVerified();
    const client = createTestClient();
    await client.auth.signInWithPassword({ email, password });
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    const refused = await client.auth.mfa.unenroll({ factorId });
    expect(refused.error?.status).toBe(422);
    expect(refused.error?.code).toBe('insufficient_aal');

    const stepUp = await client.auth.mfa.challengeAndVerify({ factorId, code: totpFor(secret).generate() });
    expect(stepUp.error).toBeNull();
    const removed = await client.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    expect((await client.auth.mfa.listFactors()).data?.all).toHaveLength(0);
  });

  it('an unverified factor can be removed at aal1', async () => {
    const { client } = await signedInClient();
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const removed = await client.auth.mfa.unenroll({ factorId: enrolled.data!.id });
    expect(removed.error).toBeNull();
    const { session } = await signedInClient();
    expect(await userEndpoint(session.access_token)).toEqual({ status: 200, code: undefined });
  });
});

describe('changing credentials with MFA on', () => {
  it('password and email need aal2; metadata does not', async () => {
    const { email, password, factorId, secret } = await enrollVerified();
    const client = createTestClient();
    expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
    const newPassword = 'brand-new-horse-43';
    const newEmail = uniqueEmail('changed');

    for (const attributes of [{ password: newPassword }, { email: newEmail }, { email: newEmail, data: { theme: 'dark' } }]) {
      const refused = await client.auth.updateUser(attributes);
      expect(refused.error?.status, JSON.stringify(attributes)).toBe(401);
      expect(refused.error?.code).toBe('insufficient_aal');
      expect(refused.error?.message).toBe('AAL2 session is required to update email or password when MFA is enabled.');
    }
    // The refusals changed nothing: not the credentials, not the metadata sent alongside.
    const unchanged = await client.auth.getUser();
    expect(unchanged.data.user?.email).toBe(email);
    expect(unchanged.data.user?.user_metadata.theme).toBeUndefined();
    expect((await createTestClient().auth.signInWithPassword({ email, password })).error).toBeNull();

    const metadata = await client.auth.updateUser({ data: { theme: 'light' } });
    expect(metadata.error).toBeNull();
    expect(metadata.data.user?.user_metadata.theme).toBe('light');
    // Re-sending the current email is not a change.
    expect((await client.auth.updateUser({ email, data: { theme: 'dark' } })).error).toBeNull();

    expect((await client.auth.mfa.challengeAndVerify({ factorId, code: totpFor(secret).generate() })).error).toBeNull();
    const passwordChanged = await client.auth.updateUser({ password: newPassword });
    expect(passwordChanged.error).toBeNull();
    const emailChanged = await client.auth.updateUser({ email: newEmail });
    expect(emailChanged.error).toBeNull();
    expect(emailChanged.data.user?.email).toBe(newEmail);
    expect((await createTestClient().auth.signInWithPassword({ email: newEmail, password: newPassword })).error).toBeNull();
  });

  it('without a verified factor an aal1 session changes the password', async () => {
    const { client, email } = await signedInClient();
    await client.auth.mfa.enroll({ factorType: 'totp' });
    const changed = await client.auth.updateUser({ password: 'another-horse-44' });
    expect(changed.error).toBeNull();
    expect((await createTestClient().auth.signInWithPassword({ email, password: 'another-horse-44' })).error).toBeNull();
  });
});

describe('MFA rate limit per IP', () => {
  it('code guesses and challenges answer 429 to one address while another still verifies', async () => {
    const { session } = await signedInClient();
    const headers = { authorization: `Bearer ${session.access_token}` };
    const enrolled = await rawRequest('/auth/v1/factors', { method: 'POST', headers, body: { factor_type: 'totp' } });
    expect(enrolled.status).toBe(200);
    const { id: factorId, totp } = enrolled.json();
    const challenge = (localAddress: string) =>
      rawRequest(`/auth/v1/factors/${factorId}/challenge`, { method: 'POST', headers, body: {}, localAddress });
    const verify = (localAddress: string, challengeId: string, code: string) =>
      rawRequest(`/auth/v1/factors/${factorId}/verify`, { method: 'POST', headers, body: { challenge_id: challengeId, code }, localAddress });

    const guesser = addressToThrottle();
    const first = await challenge(guesser);
    expect(first.status).toBe(200);
    let throttled: Awaited<ReturnType<typeof rawRequest>> | undefined;
    for (let attempt = 0; attempt < 200 && !throttled; attempt++) {
      const response = await verify(guesser, first.json().id, wrongCode(totp.secret));
      if (response.status === 429) throttled = response;
      else expect(response.json().code).toBe('mfa_verification_failed');
    }
    expect(throttled, 'no 429 after 200 wrong codes from one address').toBeDefined();
    expect(throttled!.json()).toMatchObject({ code: 'over_request_rate_limit', error_code: 'over_request_rate_limit' });
    expect(Number(throttled!.headers['retry-after'])).toBeGreaterThan(0);
    // Once throttled, the right code and new challenges are refused from that address too.
    expect((await verify(guesser, first.json().id, totpFor(totp.secret).generate())).status).toBe(429);
    expect((await challenge(guesser)).status).toBe(429);

    const other = freshLoopbackAddress();
    const second = await challenge(other);
    expect(second.status).toBe(200);
    const verified = await verify(other, second.json().id, totpFor(totp.secret).generate());
    expect(verified.status).toBe(200);
    expect(claimsOf(verified.json().access_token).aal).toBe('aal2');
  });
});
