// TOTP MFA: enroll (QR code and secret), challenge, verify (aal1 → aal2 on the same session,
// refresh token rotated), list, assurance level, and unenroll rules.
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createTestClient, signedInClient } from '../../support/clients.ts';
import { userEndpoint } from './support.ts';

function totpFor(secret: string) {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** A code that is wrong in every time step the server accepts (now ± 1). */
function wrongCode(secret: string): string {
  const totp = totpFor(secret);
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totp.generate({ timestamp: Date.now() + offset })));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

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
