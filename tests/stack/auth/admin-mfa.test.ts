// The admin MFA API (supabase.auth.admin.mfa): the service role lists a user's factors and
// deletes one, e.g. a member's lost authenticator. As in GoTrue, the deletion drops the sessions
// that reached aal2 with that factor back to aal1, and nobody else may call these endpoints.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, signedInClient } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { totpFor } from '../../support/totp.ts';
import { rawRequest } from './support.ts';

const db = database();
afterAll(() => db.end());

const admin = () => createTestClient({ key: stack.SERVICE_ROLE_KEY }).auth.admin;

function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

/** A signed-in user with a verified TOTP factor and an aal2 session. */
async function userWithVerifiedFactor() {
  const signedIn = await signedInClient();
  const enrolled = await signedIn.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
  if (enrolled.error) throw enrolled.error;
  const verified = await signedIn.client.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: totpFor(enrolled.data.totp.secret).generate() });
  if (verified.error) throw verified.error;
  return { ...signedIn, factorId: enrolled.data.id, aal2Session: verified.data };
}

describe('admin mfa.listFactors', () => {
  it("lists every factor of the user, verified or not, in GoTrue's shape and without the secret", async () => {
    const { client, user, factorId } = await userWithVerifiedFactor();
    const second = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'spare' });
    expect(second.error).toBeNull();

    const { data, error } = await admin().mfa.listFactors({ userId: user.id });
    expect(error).toBeNull();
    expect(data!.factors.map((factor) => [factor.id, factor.status, factor.factor_type, factor.friendly_name])).toEqual([
      [factorId, 'verified', 'totp', 'phone app'],
      [second.data!.id, 'unverified', 'totp', 'spare'],
    ]);
    expect(Object.keys(data!.factors[0]).sort()).toEqual(
      ['created_at', 'factor_type', 'friendly_name', 'id', 'last_challenged_at', 'phone', 'status', 'updated_at'],
    );
    expect(data!.factors[0].last_challenged_at).toBeTruthy();
    expect(JSON.stringify(data)).not.toContain('secret');
  });

  it('is an empty list for a user without factors, and 404 user_not_found for an unknown user', async () => {
    const { user } = await signedInClient();
    expect((await admin().mfa.listFactors({ userId: user.id })).data).toEqual({ factors: [] });
    const missing = await admin().mfa.listFactors({ userId: randomUUID() });
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe('user_not_found');
  });
});

describe('admin mfa.deleteFactor', () => {
  it("removes a user's verified factor and drops the sessions it raised back to aal1", async () => {
    const { client, user, factorId, aal2Session } = await userWithVerifiedFactor();
    expect(claimsOf(aal2Session.access_token).aal).toBe('aal2');

    const { data, error } = await admin().mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(error).toBeNull();
    // supabase-js 2.119 hands back GoTrue's body (the deleted factor) nested as data.data.
    const deleted = (data as unknown as { data: Record<string, unknown> }).data;
    expect(deleted).toMatchObject({ id: factorId, status: 'verified', factor_type: 'totp', friendly_name: 'phone app' });
    expect(deleted).not.toHaveProperty('secret');

    expect((await admin().mfa.listFactors({ userId: user.id })).data).toEqual({ factors: [] });
    const [factorRows] = await db`select count(*)::int as n from auth.mfa_factors where id = ${factorId}`;
    expect(factorRows.n).toBe(0);
    const [session] = await db`select aal::text as aal, factor_id from auth.sessions where id = ${claimsOf(aal2Session.access_token).session_id}`;
    expect(session).toEqual({ aal: 'aal1', factor_id: null });

    // The user's next refresh says so: aal1, and no totp in amr.
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const claims = claimsOf(refreshed.data.session!.access_token);
    expect(claims.aal).toBe('aal1');
    expect(claims.amr.map((entry: { method: string }) => entry.method)).toEqual(['password']);

    // And a password alone signs them in at the highest level they now have.
    const again = createTestClient();
    await again.auth.signInWithPassword({ email: user.email!, password: 'correct-horse-42' });
    const level = await again.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const audit = await db`select payload->>'action' as action from auth.audit_log_entries
      where payload->>'actor_id' = ${user.id} and payload->'traits'->>'factor_id' = ${factorId}`;
    expect(audit.map((row) => row.action)).toContain('factor_deleted');
  });

  it("is 404 mfa_factor_not_found for an unknown factor or another user's, which stays", async () => {
    const owner = await userWithVerifiedFactor();
    const other = await signedInClient();

    const unknown = await admin().mfa.deleteFactor({ userId: owner.user.id, id: randomUUID() });
    expect(unknown.error?.status).toBe(404);
    expect(unknown.error?.code).toBe('mfa_factor_not_found');
    expect(unknown.error?.message).toBe('Factor not found');

    const wrongUser = await admin().mfa.deleteFactor({ userId: other.user.id, id: owner.factorId });
    expect(wrongUser.error?.code).toBe('mfa_factor_not_found');
    expect((await admin().mfa.listFactors({ userId: owner.user.id })).data?.factors.map((f) => f.id)).toEqual([owner.factorId]);

    const notUuid = await rawRequest(`/auth/v1/admin/users/${owner.user.id}/factors/not-a-uuid`, {
      method: 'DELETE',
      headers: { apikey: stack.SERVICE_ROLE_KEY, authorization: `Bearer ${stack.SERVICE_ROLE_KEY}` },
    });
    expect(notUuid.status).toBe(404);
    expect(notUuid.json()).toMatchObject({ code: 'validation_failed', message: 'factor_id must be an UUID' });
  });

  it('is refused to the anon key, the publishable key and the user themself (403 not_admin)', async () => {
    const { user, factorId, aal2Session } = await userWithVerifiedFactor();
    for (const key of [stack.ANON_KEY, stack.PUBLISHABLE_KEY]) {
      const client = createTestClient({ key });
      expect((await client.auth.admin.mfa.listFactors({ userId: user.id })).error?.code).toBe('not_admin');
      expect((await client.auth.admin.mfa.deleteFactor({ userId: user.id, id: factorId })).error?.code).toBe('not_admin');
    }
    const asUser = await rawRequest(`/auth/v1/admin/users/${user.id}/factors/${factorId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${aal2Session.access_token}` },
    });
    expect(asUser.status).toBe(403);
    expect(asUser.json().code).toBe('not_admin');
    const [factor] = await db`select status::text as status from auth.mfa_factors where id = ${factorId}`;
    expect(factor.status).toBe('verified');
  });
});
