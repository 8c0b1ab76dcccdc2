// "Require two-factor authentication": in an organization with require_mfa, every write from an
// aal1 session is refused with 403 mfa_required and writes nothing, while the same user's aal2
// session succeeds; reads, leaving and accepting an invitation work at aal1; switching the
// requirement on (or off) needs aal2 too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, uniqueEmail } from '../../support/clients.ts';
import { type ApiCallOptions as CallOptions, call, del, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { closeDb, db } from '../../support/database.ts';
import { orgSnapshot, userSnapshot } from '../../support/snapshots.ts';
import { stack } from '../../support/stack.ts';
import { aalOf, addMember, createOrg, invite, type MfaUser, newMfaUser, newUser, stepUp, tag, type User } from '../../support/fixtures.ts';

let owner: MfaUser;
let org: any;
let site: any;
let manager: User;
let viewer: User;
let pendingInvitation: any;

beforeAll(async () => {
  owner = await newMfaUser('mfa-owner', 'Mo Factor');
  expect(await aalOf(owner.client)).toBe('aal2');
  expect(await aalOf(owner.aal1)).toBe('aal1');
  org = expectStatus(await post(owner.client, 'orgs', { name: `Secure ${tag()}`, require_mfa: true }), 201);
  expect(org.require_mfa).toBe(true);
  [manager, viewer] = await Promise.all([newUser('mfa-manager', 'Max Manager'), newUser('mfa-viewer', 'Val Viewer')]);
  // The invitees have no second factor: accepting is exempt from the requirement.
  await addMember(owner, org.id, manager, 'manager');
  await addMember(owner, org.id, viewer, 'viewer');
  site = expectStatus(await post(owner.client, `orgs/${org.id}/sites`, { name: 'Vault' }), 201);
  pendingInvitation = expectStatus(await post(owner.client, `orgs/${org.id}/invitations`, { email: uniqueEmail('pending'), role: 'viewer' }), 201);
});

afterAll(closeDb);

describe('an organization that requires MFA', () => {
  const writes: Array<{ name: string; path: () => string; options: () => CallOptions }> = [
    { name: 'PATCH /orgs/{org}', path: () => `orgs/${org.id}`, options: () => ({ method: 'PATCH', body: { name: 'Weakened' } }) },
    { name: 'PATCH /orgs/{org} switching require_mfa off', path: () => `orgs/${org.id}`, options: () => ({ method: 'PATCH', body: { require_mfa: false } }) },
    { name: 'DELETE /orgs/{org}', path: () => `orgs/${org.id}`, options: () => ({ method: 'DELETE' }) },
    { name: 'POST /orgs/{org}/sites', path: () => `orgs/${org.id}/sites`, options: () => ({ method: 'POST', body: { name: 'From aal1' } }) },
    { name: 'PATCH /orgs/{org}/sites/{id}', path: () => `orgs/${org.id}/sites/${site.id}`, options: () => ({ method: 'PATCH', body: { name: 'Renamed at aal1' } }) },
    { name: 'DELETE /orgs/{org}/sites/{id}', path: () => `orgs/${org.id}/sites/${site.id}`, options: () => ({ method: 'DELETE' }) },
    { name: 'POST /orgs/{org}/invitations', path: () => `orgs/${org.id}/invitations`, options: () => ({ method: 'POST', body: { email: uniqueEmail('aal1'), role: 'viewer' } }) },
    { name: 'DELETE /orgs/{org}/invitations/{id}', path: () => `orgs/${org.id}/invitations/${pendingInvitation.id}`, options: () => ({ method: 'DELETE' }) },
    { name: 'PATCH /orgs/{org}/members/{user_id}', path: () => `orgs/${org.id}/members/${viewer.userId}`, options: () => ({ method: 'PATCH', body: { role: 'inspector' } }) },
    { name: 'DELETE /orgs/{org}/members/{user_id} (someone else)', path: () => `orgs/${org.id}/members/${viewer.userId}`, options: () => ({ method: 'DELETE' }) },
  ];

  for (const write of writes) {
    it(`refuses ${write.name} from the owner's aal1 session with 403 mfa_required and writes nothing`, async () => {
      const before = await orgSnapshot(org.id);
      const problem = expectProblem(await call(owner.aal1, write.path(), write.options()), 403, 'mfa_required');
      expect(problem.title).toBe('This organization requires two-factor authentication. Enter your authenticator code to continue.');
      expect(await orgSnapshot(org.id)).toEqual(before);
    });
  }

  it('refuses a manager without a second factor creating a site with 403 mfa_required', async () => {
    const before = await orgSnapshot(org.id);
    expectProblem(await post(manager.client, `orgs/${org.id}/sites`, { name: 'No factor' }), 403, 'mfa_required');
    expect(await orgSnapshot(org.id)).toEqual(before);
  });

  it('serves reads at aal1', async () => {
    expect(expectStatus(await call(owner.aal1, `orgs/${org.id}`), 200)).toMatchObject({ id: org.id, require_mfa: true, role: 'owner' });
    expect(expectStatus(await call(owner.aal1, `orgs/${org.id}/sites`), 200).data.map((s: { id: string }) => s.id)).toEqual([site.id]);
    expect(expectStatus(await call(owner.aal1, `orgs/${org.id}/sites/${site.id}`), 200).id).toBe(site.id);
    expect(expectStatus(await call(owner.aal1, `orgs/${org.id}/members`), 200).data).toHaveLength(3);
    expect(expectStatus(await call(owner.aal1, `orgs/${org.id}/invitations`), 200).data.length).toBeGreaterThan(0);
    expect(expectStatus(await call(viewer.client, 'orgs'), 200).data.map((o: { id: string }) => o.id)).toEqual([org.id]);
  });

  it('accepts the same writes from the owner\'s aal2 session', async () => {
    expect(expectStatus(await patch(owner.client, `orgs/${org.id}`, { default_geofence_m: 400 }), 200).default_geofence_m).toBe(400);
    const created = expectStatus(await post(owner.client, `orgs/${org.id}/sites`, { name: 'From aal2' }), 201);
    expect(created.geofence_m).toBe(400);
    expect(expectStatus(await patch(owner.client, `orgs/${org.id}/sites/${created.id}`, { name: 'Renamed at aal2' }), 200).name).toBe('Renamed at aal2');
    expect(expectStatus(await del(owner.client, `orgs/${org.id}/sites/${created.id}`), 200).archived_at).not.toBeNull();
    expectStatus(await post(owner.client, `orgs/${org.id}/invitations`, { email: uniqueEmail('aal2'), role: 'viewer' }), 201);
    expect((await del(owner.client, `orgs/${org.id}/invitations/${pendingInvitation.id}`)).status).toBe(204);
    expect(expectStatus(await patch(owner.client, `orgs/${org.id}/members/${viewer.userId}`, { role: 'inspector' }), 200).role).toBe('inspector');
  });

  it('lets a member without a second factor accept an invitation and leave at aal1', async () => {
    const leaver = await newUser('mfa-leaver', 'Lea Leaver');
    const { token } = await invite(owner, org.id, leaver.email, 'inspector');
    expect(expectStatus(await post(leaver.client, 'invitations/accept', { token }), 200).org_id).toBe(org.id);
    expect((await del(leaver.client, `orgs/${org.id}/members/${leaver.userId}`)).status).toBe(204);
    const [row] = await db()`select count(*)::int as n from public.memberships where org_id = ${org.id} and user_id = ${leaver.userId}`;
    expect(row.n).toBe(0);
  });

  it('lets the owner step an aal1 session up and then write', async () => {
    const session = createTestClient({ key: stack.PUBLISHABLE_KEY });
    expect((await session.auth.signInWithPassword({ email: owner.email, password: owner.password })).error).toBeNull();
    expectProblem(await post(session, `orgs/${org.id}/sites`, { name: 'Before step-up' }), 403, 'mfa_required');
    await stepUp(session, owner);
    expect(expectStatus(await post(session, `orgs/${org.id}/sites`, { name: 'After step-up' }), 201).name).toBe('After step-up');
  });

  it('lets the owner delete the organization from aal2 only', async () => {
    const doomed = expectStatus(await post(owner.client, 'orgs', { name: `Doomed ${tag()}`, require_mfa: true }), 201);
    const before = await orgSnapshot(doomed.id);
    expectProblem(await del(owner.aal1, `orgs/${doomed.id}`), 403, 'mfa_required');
    expect(await orgSnapshot(doomed.id)).toEqual(before);
    expect((await del(owner.client, `orgs/${doomed.id}`)).status).toBe(204);
    expect((await orgSnapshot(doomed.id)).organizations).toEqual([]);
  });
});

describe('switching require_mfa on', () => {
  it('refuses creating an organization with require_mfa from aal1 (403 mfa_required, nothing written); aal2 may', async () => {
    const before = await userSnapshot(owner.userId);
    expectProblem(await post(owner.aal1, 'orgs', { name: `Locked ${tag()}`, require_mfa: true }), 403, 'mfa_required');
    expect(await userSnapshot(owner.userId)).toEqual(before);

    const plain = await newUser('plain', 'Pia Plain');
    const plainBefore = await userSnapshot(plain.userId);
    expectProblem(await post(plain.client, 'orgs', { name: `Locked ${tag()}`, require_mfa: true }), 403, 'mfa_required');
    expect(await userSnapshot(plain.userId)).toEqual(plainBefore);
    // Without the requirement an aal1 session creates organizations as usual.
    expect(expectStatus(await post(owner.aal1, 'orgs', { name: `Open ${tag()}` }), 201).require_mfa).toBe(false);
  });

  it('refuses turning it on for an existing organization from aal1, and allows it from aal2', async () => {
    const open = await createOrg(owner, { name: `Open ${tag()}` });
    const before = await orgSnapshot(open.id);
    expectProblem(await patch(owner.aal1, `orgs/${open.id}`, { require_mfa: true }), 403, 'mfa_required');
    expect(await orgSnapshot(open.id)).toEqual(before);
    expect(expectStatus(await patch(owner.client, `orgs/${open.id}`, { require_mfa: true }), 200).require_mfa).toBe(true);
    // And once on, switching it off again also needs aal2.
    expectProblem(await patch(owner.aal1, `orgs/${open.id}`, { require_mfa: false }), 403, 'mfa_required');
    expect(expectStatus(await patch(owner.client, `orgs/${open.id}`, { require_mfa: false }), 200).require_mfa).toBe(false);
  });

  it('keeps aal1 writes working in organizations without the requirement', async () => {
    const open = await createOrg(owner, { name: `Relaxed ${tag()}` });
    expectStatus(await post(owner.aal1, `orgs/${open.id}/sites`, { name: 'Fine at aal1' }), 201);
  });
});
