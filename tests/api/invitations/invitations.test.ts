// Invitations end to end: an owner or admin invites an address, a mail with a link arrives, the
// invitee previews and accepts with the account of that address, and every other path (another
// account, revoked, expired, twice, duplicates, wrong roles, bad input) gets its catalogue answer
// without writing anything.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedInClient, uniqueEmail } from '../../support/clients.ts';
import { listMail } from '../../support/mail.ts';
import { stack } from '../../support/stack.ts';
import { createOrg, invitationMail, invite, mailIdsTo, newUser, orgWithEveryRole, orgWithEveryRoleAndStranger, tag } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, del, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { orgSnapshot } from '../../support/snapshots.ts';

const { fixture, stranger } = orgWithEveryRoleAndStranger();

const invitationsPath = (orgId: string) => `orgs/${orgId}/invitations`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('POST /orgs/{org}/invitations', () => {
  it('creates a pending invitation for 7 days and mails a link to the web app with the token', async () => {
    const invitee = await newUser('invitee', 'Ian Invitee');
    const seen = await mailIdsTo(invitee.email);
    const mixedCase = invitee.email.replace(/^./, (c) => c.toUpperCase()).replace('@example', '@EXAMPLE');
    const outcome = await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: `  ${mixedCase} `, role: 'inspector' });
    const invitation = expectStatus(outcome, 201);
    expect(invitation).toEqual({
      id: expect.stringMatching(UUID),
      email: invitee.email,
      role: 'inspector',
      status: 'pending',
      expires_at: expect.stringMatching(ISO_TIMESTAMP),
      invited_by: fixture.owner.userId,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      accepted_at: null,
      revoked_at: null,
    });
    const lifetime = new Date(invitation.expires_at).getTime() - new Date(invitation.created_at).getTime();
    expect(Math.abs(lifetime - 7 * 24 * 3600 * 1000)).toBeLessThan(60_000);

    const { mail, link, token } = await invitationMail(invitee.email, seen);
    expect(mail.subject).toContain(fixture.org.name);
    expect(link).toBe(`${stack.WEB_URL}/invitations/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,128}$/);

    // Only the token's hash is stored: the table alone does not give anyone a working link.
    const [row] = await db()`select email, role, token_hash, invited_by from public.invitations where id = ${invitation.id}`;
    expect(row).toEqual({ email: invitee.email, role: 'inspector', token_hash: sha256(token), invited_by: fixture.owner.userId });
    expect(JSON.stringify(invitation)).not.toContain(token);
  });

  it('shows an organization name with markup as text in the mail', async () => {
    const owner = await newUser('markup', 'Mark <b>Up</b>');
    const org = await createOrg(owner, { name: `<img src=x onerror=alert(1)> & Co ${tag()}` });
    const invitee = uniqueEmail('markup');
    const { mail } = await invite(owner, org.id, invitee, 'viewer');
    expect(mail.subject).toContain(org.name);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Up</b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; Co');
  });

  it('lets an admin invite every role but owner; an owner may invite an owner', async () => {
    for (const role of ['admin', 'manager', 'inspector', 'viewer']) {
      expect(expectStatus(await post(fixture.admin.client, invitationsPath(fixture.org.id), { email: uniqueEmail(role), role }), 201).role).toBe(role);
    }
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await post(fixture.admin.client, invitationsPath(fixture.org.id), { email: uniqueEmail('boss'), role: 'owner' }), 403, 'forbidden');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    expect(expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: uniqueEmail('boss'), role: 'owner' }), 201).role).toBe('owner');
  });

  for (const role of ['manager', 'inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403, writes nothing and sends no mail`, async () => {
      const email = uniqueEmail(`by-${role}`);
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await post(fixture.byRole[role].client, invitationsPath(fixture.org.id), { email, role: 'viewer' }), 403, 'forbidden');
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
      expect((await listMail()).some((m) => m.to.includes(email))).toBe(false);
    });
  }

  it('refuses a second pending invitation for the same address with 409 duplicate', async () => {
    const email = uniqueEmail('twice');
    expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email, role: 'viewer' }), 201);
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(fixture.admin.client, invitationsPath(fixture.org.id), { email: email.toUpperCase(), role: 'manager' }), 409, 'duplicate');
    expect(problem.title).toBe('An invitation with that email already exists.');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('refuses to invite an existing member with 409 duplicate', async () => {
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: fixture.viewer.email, role: 'admin' }), 409, 'duplicate');
    expect(problem.title).toBe('A member with that email already exists.');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  const badBodies: Array<{ name: string; body: unknown; fields: string[] }> = [
    { name: 'an address without @', body: { email: 'not-an-email', role: 'viewer' }, fields: ['email'] },
    { name: 'an address with a space', body: { email: 'a b@example.test', role: 'viewer' }, fields: ['email'] },
    { name: 'an address of 255 characters', body: { email: `${'a'.repeat(242)}@example.test`, role: 'viewer' }, fields: ['email'] },
    { name: 'an empty address', body: { email: '', role: 'viewer' }, fields: ['email'] },
    { name: 'an address of the wrong type', body: { email: ['x@example.test'], role: 'viewer' }, fields: ['email'] },
    { name: 'an unknown role', body: { email: 'x@example.test', role: 'boss' }, fields: ['role'] },
    { name: 'no role', body: { email: 'x@example.test' }, fields: ['role'] },
    { name: 'no fields', body: {}, fields: ['email', 'role'] },
    { name: 'an unknown key', body: { email: 'x@example.test', role: 'viewer', expires_at: '2999-01-01T00:00:00Z' }, fields: ['expires_at'] },
    { name: 'a body that is not JSON', body: 'email=x@example.test', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];
  for (const bad of badBodies) {
    it(`refuses ${bad.name} with 422 and writes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await post(fixture.owner.client, invitationsPath(fixture.org.id), bad.body), 422, 'validation_failed', bad.fields);
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('is 404 for a stranger and an unknown org, 422 for a malformed org id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await post(stranger.client, invitationsPath(fixture.org.id), { email: uniqueEmail(), role: 'viewer' }), 404, 'not_found');
    expectProblem(await post(fixture.owner.client, invitationsPath(MISSING_ID), { email: uniqueEmail(), role: 'viewer' }), 404, 'not_found');
    expectProblem(await post(fixture.owner.client, invitationsPath('abc'), { email: uniqueEmail(), role: 'viewer' }), 422, 'validation_failed', ['org']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});

describe('POST /invitations/preview and /invitations/accept', () => {
  it('previews, accepts (the invitee becomes a member with the role) and accepts again with the same answer', async () => {
    const invitee = await newUser('joiner', 'Jo Joiner');
    const { token } = await invite(fixture.admin, fixture.org.id, invitee.email, 'manager');

    const preview = expectStatus(await post(invitee.client, 'invitations/preview', { token }), 200);
    expect(preview).toEqual({
      org_name: fixture.org.name,
      role: 'manager',
      email: invitee.email,
      invited_by_name: fixture.admin.displayName,
      expires_at: expect.stringMatching(ISO_TIMESTAMP),
      status: 'pending',
    });

    const accepted = expectStatus(await post(invitee.client, 'invitations/accept', { token }), 200);
    expect(accepted).toEqual({ org_id: fixture.org.id, org_slug: fixture.org.slug, org_name: fixture.org.name, role: 'manager' });
    const [membership] = await db()`select role from public.memberships where org_id = ${fixture.org.id} and user_id = ${invitee.userId}`;
    expect(membership.role).toBe('manager');
    expect(expectStatus(await call(invitee.client, `orgs/${fixture.org.id}`), 200).role).toBe('manager');

    const before = await orgSnapshot(fixture.org.id);
    expect(expectStatus(await post(invitee.client, 'invitations/accept', { token }), 200)).toEqual(accepted);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    expect(expectStatus(await post(invitee.client, 'invitations/preview', { token }), 200).status).toBe('accepted');
  });

  it('refuses another signed-in account with 403 forbidden saying the email differs, and writes nothing', async () => {
    const invitee = await newUser('rightful', 'Rita Rightful');
    const { token } = await invite(fixture.owner, fixture.org.id, invitee.email, 'admin');
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(stranger.client, 'invitations/accept', { token }), 403, 'forbidden');
    expect(problem.detail).toMatch(/email/i);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    // The rightful invitee can still accept it.
    expect(expectStatus(await post(invitee.client, 'invitations/accept', { token }), 200).role).toBe('admin');
  });

  it('refuses a revoked invitation with 409 invalid_transition', async () => {
    const invitee = await newUser('revoked', 'Rex Revoked');
    const { token, invitation } = await invite(fixture.owner, fixture.org.id, invitee.email, 'viewer');
    expect((await del(fixture.admin.client, `${invitationsPath(fixture.org.id)}/${invitation.id}`)).status).toBe(204);
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(invitee.client, 'invitations/accept', { token }), 409, 'invalid_transition');
    expect(problem.title).toMatch(/revoked/);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    expect(expectStatus(await post(invitee.client, 'invitations/preview', { token }), 200).status).toBe('revoked');
  });

  it('refuses an expired invitation with 409 invalid_transition; a new invitation to the address then works', async () => {
    const invitee = await newUser('late', 'Lou Late');
    const { token, invitation } = await invite(fixture.owner, fixture.org.id, invitee.email, 'inspector');
    await db()`update public.invitations set expires_at = now() - interval '1 minute' where id = ${invitation.id}`;
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(invitee.client, 'invitations/accept', { token }), 409, 'invalid_transition');
    expect(problem.title).toMatch(/expired/);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    expect(expectStatus(await post(invitee.client, 'invitations/preview', { token }), 200).status).toBe('expired');

    const again = await invite(fixture.owner, fixture.org.id, invitee.email, 'inspector');
    expect(again.token).not.toBe(token);
    expect(expectStatus(await post(invitee.client, 'invitations/accept', { token: again.token }), 200).role).toBe('inspector');
  });

  it('refuses an invitation someone else already accepted with 409 invalid_transition', async () => {
    const invitee = await newUser('second', 'Sid Second');
    const { token, invitation } = await invite(fixture.owner, fixture.org.id, invitee.email, 'viewer');
    // As if the address had belonged to another account when the invitation was accepted.
    await db()`update public.invitations set accepted_at = now(), accepted_by = ${stranger.userId} where id = ${invitation.id}`;
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(invitee.client, 'invitations/accept', { token }), 409, 'invalid_transition');
    expect(problem.title).toMatch(/accepted/);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('answers unknown tokens with 404 not_found and malformed ones with 422 on token', async () => {
    const unknown = 'A'.repeat(43);
    expectProblem(await post(stranger.client, 'invitations/preview', { token: unknown }), 404, 'not_found');
    expectProblem(await post(stranger.client, 'invitations/accept', { token: unknown }), 404, 'not_found');
    for (const body of [{ token: 'short' }, { token: 'has spaces in it and is long enough' }, { token: 42 }, {}, { token: unknown, org_id: MISSING_ID }]) {
      const expectedField = 'org_id' in body ? 'org_id' : 'token';
      expectProblem(await post(stranger.client, 'invitations/accept', body), 422, 'validation_failed', [expectedField]);
      expectProblem(await post(stranger.client, 'invitations/preview', body), 422, 'validation_failed', [expectedField]);
    }
    expectProblem(await post(stranger.client, 'invitations/accept', 'token=abc'), 422, 'validation_failed', ['body']);
    expectProblem(await post(stranger.client, 'invitations/accept', undefined), 422, 'validation_failed', ['body']);
  });
});

describe('GET /orgs/{org}/invitations', () => {
  it('lists newest first with a status, filters by status, and pages', async () => {
    const { org, owner, admin } = await orgWithEveryRole();
    const accepted = await newUser('acc', 'Acc Epted');
    const acceptedInvite = await invite(owner, org.id, accepted.email, 'viewer');
    expectStatus(await post(accepted.client, 'invitations/accept', { token: acceptedInvite.token }), 200);
    const revoked = expectStatus(await post(owner.client, invitationsPath(org.id), { email: uniqueEmail('rev'), role: 'viewer' }), 201);
    expect((await del(owner.client, `${invitationsPath(org.id)}/${revoked.id}`)).status).toBe(204);
    const expired = expectStatus(await post(owner.client, invitationsPath(org.id), { email: uniqueEmail('exp'), role: 'viewer' }), 201);
    await db()`update public.invitations set expires_at = now() - interval '1 second' where id = ${expired.id}`;
    const pending = expectStatus(await post(admin.client, invitationsPath(org.id), { email: uniqueEmail('pen'), role: 'manager' }), 201);

    for (const user of [owner, admin]) {
      const all = expectStatus(await call(user.client, invitationsPath(org.id)), 200);
      const created = all.data.map((i: { created_at: string }) => Date.parse(i.created_at));
      created.slice(1).forEach((time: number, i: number) => expect(time).toBeLessThanOrEqual(created[i]));
      const statusOf = Object.fromEntries(all.data.map((i: { id: string; status: string }) => [i.id, i.status]));
      expect(statusOf[acceptedInvite.invitation.id]).toBe('accepted');
      expect(statusOf[revoked.id]).toBe('revoked');
      expect(statusOf[expired.id]).toBe('expired');
      expect(statusOf[pending.id]).toBe('pending');
      // The four role invitations of the fixture and the four above.
      expect(all.data).toHaveLength(8);
      expect(all.data[0].id).toBe(pending.id);
    }

    const byStatus = async (status: string) =>
      expectStatus(await call(owner.client, `${invitationsPath(org.id)}?status=${status}`), 200).data.map((i: { id: string }) => i.id);
    expect(await byStatus('pending')).toEqual([pending.id]);
    expect(await byStatus('revoked')).toEqual([revoked.id]);
    expect(await byStatus('expired')).toEqual([expired.id]);
    expect(await byStatus('accepted')).toContain(acceptedInvite.invitation.id);
    expect(await byStatus('accepted')).toHaveLength(5);

    const pages = await allPages(owner.client, invitationsPath(org.id), 3);
    expect(pages).toHaveLength(3);
    expect(new Set(pages.flat().map((i) => i.id)).size).toBe(8);
  });

  it('pages through invitations created within the same millisecond without skipping any', async () => {
    const owner = await newUser('sub-ms', 'Sub Milli');
    const org = await createOrg(owner);
    const created = [];
    for (let i = 0; i < 4; i++) {
      created.push(expectStatus(await post(owner.client, invitationsPath(org.id), { email: uniqueEmail(`ms${i}`), role: 'viewer' }), 201));
    }
    // Postgres keeps microseconds: four invitations inside one millisecond, as a burst of invites can be.
    // (Set in SQL: a timestamptz parameter from JavaScript would itself be cut to milliseconds.)
    const micros = [123_900, 123_700, 123_500, 123_300];
    for (const [i, invitation] of created.entries()) {
      await db()`
        update public.invitations
        set created_at = timestamptz '2030-01-01 00:00:00+00' + ${micros[i]}::int * interval '1 microsecond'
        where id = ${invitation.id}
      `;
    }
    const stored = await db()`select to_char(created_at at time zone 'UTC', 'US') as us from public.invitations where org_id = ${org.id} order by created_at desc`;
    expect(stored.map((r) => r.us)).toEqual(['123900', '123700', '123500', '123300']);
    const pages = await allPages(owner.client, invitationsPath(org.id), 1);
    expect(pages.flat().map((i) => i.id)).toEqual(created.map((i) => i.id));
  });

  it('refuses managers, inspectors and viewers with 403 and strangers with 404', async () => {
    for (const role of ['manager', 'inspector', 'viewer'] as const) {
      expectProblem(await call(fixture.byRole[role].client, invitationsPath(fixture.org.id)), 403, 'forbidden');
    }
    expectProblem(await call(stranger.client, invitationsPath(fixture.org.id)), 404, 'not_found');
  });

  it('refuses cursors it did not issue with 422 on query.cursor, not a server error', async () => {
    const cursors = { ...forgedCursors(), '["not a date",uuid]': Buffer.from(JSON.stringify(['not a date', MISSING_ID])).toString('base64url') };
    expect(await cursorOutcomes(fixture.owner.client, invitationsPath(fixture.org.id), cursors)).toEqual(refusedCursors(cursors));
  });

  it('refuses bad status, limit and unknown parameters with 422', async () => {
    const path = invitationsPath(fixture.org.id);
    expectProblem(await call(fixture.owner.client, `${path}?status=lost`), 422, 'validation_failed', ['query.status']);
    expectProblem(await call(fixture.owner.client, `${path}?limit=0`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(fixture.owner.client, `${path}?limit=201`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(fixture.owner.client, `${path}?limit=abc`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(fixture.owner.client, `${path}?email=x`), 422, 'validation_failed', ['query.email']);
  });
});

describe('DELETE /orgs/{org}/invitations/{id}', () => {
  it('revokes a pending invitation (204) and keeps the record', async () => {
    const created = expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: uniqueEmail('gone'), role: 'viewer' }), 201);
    expect((await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/${created.id}`)).status).toBe(204);
    const [row] = await db()`select revoked_at, accepted_at from public.invitations where id = ${created.id}`;
    expect(row.revoked_at).toBeInstanceOf(Date);
    expect(row.accepted_at).toBeNull();
  });

  it('refuses revoking an accepted invitation with 409 invalid_transition', async () => {
    const invitee = await newUser('kept', 'Kim Kept');
    const { token, invitation } = await invite(fixture.owner, fixture.org.id, invitee.email, 'viewer');
    expectStatus(await post(invitee.client, 'invitations/accept', { token }), 200);
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/${invitation.id}`), 409, 'invalid_transition');
    expect(problem.title).toBe("This invitation is accepted, so it can't be revoked.");
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('refuses revoking twice with 409 invalid_transition', async () => {
    const created = expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: uniqueEmail('twice'), role: 'viewer' }), 201);
    expect((await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/${created.id}`)).status).toBe(204);
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/${created.id}`), 409, 'invalid_transition');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('refuses managers, inspectors and viewers with 403; unknown ids are 404, malformed ones 422', async () => {
    const created = expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: uniqueEmail('stay'), role: 'viewer' }), 201);
    const before = await orgSnapshot(fixture.org.id);
    for (const role of ['manager', 'inspector', 'viewer'] as const) {
      expectProblem(await del(fixture.byRole[role].client, `${invitationsPath(fixture.org.id)}/${created.id}`), 403, 'forbidden');
    }
    expectProblem(await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/${MISSING_ID}`), 404, 'not_found');
    expectProblem(await del(fixture.owner.client, `${invitationsPath(fixture.org.id)}/not-an-id`), 422, 'validation_failed', ['id']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('does not let an admin revoke an owner invitation', async () => {
    const created = expectStatus(await post(fixture.owner.client, invitationsPath(fixture.org.id), { email: uniqueEmail('owner2'), role: 'owner' }), 201);
    const before = await orgSnapshot(fixture.org.id);
    const outcome = await del(fixture.admin.client, `${invitationsPath(fixture.org.id)}/${created.id}`);
    // The contract names no status for this case: forbidden, or invisible like any row RLS hides.
    expect([403, 404]).toContain(outcome.status);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});

describe('POST /orgs/{org}/invitations/{id}/resend', () => {
  it('sends a pending invitation again with a new link for 7 days; the old link stops working and the new one joins', async () => {
    const email = uniqueEmail('resent');
    const first = await invite(fixture.owner, fixture.org.id, email, 'inspector');
    const seen = await mailIdsTo(email);
    const resent = expectStatus(await post(fixture.admin.client, `orgs/${fixture.org.id}/invitations/${first.invitation.id}/resend`, undefined), 201);
    expect(resent).toMatchObject({ email, role: 'inspector', status: 'pending' });
    expect(resent.id).not.toBe(first.invitation.id);
    const second = await invitationMail(email, seen);
    expect(second.token).not.toBe(first.token);

    // The invitee signs up with the invited address.
    const { client } = await signedInClient({ email, password: 'resend-password-1', key: stack.PUBLISHABLE_KEY });
    expect((await post(client, 'invitations/preview', { token: first.token })).body.status).toBe('revoked');
    expectStatus(await post(client, 'invitations/accept', { token: second.token }), 200);
    const list = expectStatus(await call(fixture.owner.client, `orgs/${fixture.org.id}/invitations?status=accepted`), 200);
    expect(list.data.map((i: any) => i.id)).toContain(resent.id);
  });

  it('sends an expired invitation again; refuses accepted and revoked ones (409), managers (403) and admins for owner invitations', async () => {
    const email = uniqueEmail('expired');
    const { invitation } = await invite(fixture.owner, fixture.org.id, email, 'viewer');
    // Seven days pass (past the triggers, which fix an invitation's expiry when it is made).
    await db().begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update public.invitations set expires_at = now() - interval '1 minute' where id = ${invitation.id}`;
    });
    expectProblem(await post(fixture.manager.client, `orgs/${fixture.org.id}/invitations/${invitation.id}/resend`, undefined), 403, 'forbidden');
    const again = expectStatus(await post(fixture.owner.client, `orgs/${fixture.org.id}/invitations/${invitation.id}/resend`, undefined), 201);
    expect(again.status).toBe('pending');
    const refused = expectProblem(await post(fixture.owner.client, `orgs/${fixture.org.id}/invitations/${invitation.id}/resend`, undefined), 409, 'invalid_transition');
    expect(refused.title).toBe("This invitation is revoked, so it can't be sent again.");

    const owner = await invite(fixture.owner, fixture.org.id, uniqueEmail('owner-invite'), 'owner');
    expectProblem(await post(fixture.admin.client, `orgs/${fixture.org.id}/invitations/${owner.invitation.id}/resend`, undefined), 403, 'forbidden');
  });
});
