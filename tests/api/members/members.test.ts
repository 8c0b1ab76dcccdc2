// GET /orgs/{org}/members and PATCH·DELETE /orgs/{org}/members/{user_id}: every member reads the
// list; owners manage everyone, admins everyone but owners; members may leave; an organization
// always keeps an owner. Every refusal leaves the memberships exactly as they were.
import { describe, expect, it } from 'vitest';
import { addMember, createOrg, newUser, orgWithEveryRole, orgWithEveryRoleAndStranger } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, del, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { orgSnapshot } from '../../support/snapshots.ts';

const { fixture, stranger } = orgWithEveryRoleAndStranger();

const membersPath = (orgId: string) => `orgs/${orgId}/members`;
const memberPath = (orgId: string, userId: string) => `orgs/${orgId}/members/${userId}`;

describe('GET /orgs/{org}/members', () => {
  it('lists every member by display name with email, role and join time, to every role', async () => {
    const expected = ['admin', 'inspector', 'manager', 'owner', 'viewer'].map((role) => {
      const user = fixture.byRole[role as keyof typeof fixture.byRole];
      return {
        user_id: user.userId, display_name: user.displayName, email: user.email, role, joined_at: expect.stringMatching(ISO_TIMESTAMP),
        // Nobody here is limited to site groups (tests/api/site-groups/access.test.ts).
        org_wide: true, site_group_ids: [],
      };
    });
    for (const user of Object.values(fixture.byRole)) {
      const page = expectStatus(await call(user.client, membersPath(fixture.org.id)), 200);
      expect(page).toEqual({ data: expected, next_cursor: null });
    }
  });

  it('pages with limit=2 through all five members once each', async () => {
    const pages = await allPages(fixture.viewer.client, membersPath(fixture.org.id), 2);
    expect(pages).toHaveLength(3);
    expect(pages.flat().map((m) => m.user_id)).toEqual(['admin', 'inspector', 'manager', 'owner', 'viewer'].map((r) => fixture.byRole[r as 'admin'].userId));
  });

  it('pages members who share a display name one at a time, each once', async () => {
    const owner = await newUser('same-owner', 'Sam Same');
    const org = await createOrg(owner);
    const twins = await Promise.all([1, 2, 3].map(() => newUser('same', 'Sam Same')));
    for (const twin of twins) await addMember(owner, org.id, twin, 'viewer');
    const seen = (await allPages(owner.client, membersPath(org.id), 1)).flat().map((m) => m.user_id);
    expect([...seen].sort()).toEqual([owner, ...twins].map((u) => u.userId).sort());
    expect(seen).toHaveLength(4);
  });

  it('refuses cursors it did not issue with 422 on query.cursor, not a server error', async () => {
    const cursors = forgedCursors();
    expect(await cursorOutcomes(fixture.owner.client, membersPath(fixture.org.id), cursors)).toEqual(refusedCursors(cursors));
  });

  it('is 404 for a non-member and an unknown org, 422 for bad limits and ids', async () => {
    expectProblem(await call(stranger.client, membersPath(fixture.org.id)), 404, 'not_found');
    expectProblem(await call(fixture.owner.client, membersPath(MISSING_ID)), 404, 'not_found');
    expectProblem(await call(fixture.owner.client, membersPath('xyz')), 422, 'validation_failed', ['org']);
    expectProblem(await call(fixture.owner.client, `${membersPath(fixture.org.id)}?role=owner`), 422, 'validation_failed', ['query.role']);
    for (const limit of ['0', '201', 'abc']) {
      expectProblem(await call(fixture.owner.client, `${membersPath(fixture.org.id)}?limit=${limit}`), 422, 'validation_failed', ['query.limit']);
    }
  });
});

describe('PATCH /orgs/{org}/members/{user_id}', () => {
  it('lets the owner change a role and answers with the member', async () => {
    const { org, owner, viewer } = await orgWithEveryRole();
    const body = expectStatus(await patch(owner.client, memberPath(org.id, viewer.userId), { role: 'inspector' }), 200);
    expect(body).toEqual({
      user_id: viewer.userId,
      display_name: viewer.displayName,
      email: viewer.email,
      role: 'inspector',
      joined_at: expect.stringMatching(ISO_TIMESTAMP),
      org_wide: true,
      site_group_ids: [],
    });
    const [row] = await db()`select role from public.memberships where org_id = ${org.id} and user_id = ${viewer.userId}`;
    expect(row.role).toBe('inspector');
    expect(expectStatus(await call(viewer.client, `orgs/${org.id}`), 200).role).toBe('inspector');
  });

  it('lets an admin change non-owners, but not an owner\'s role and not to owner (403, nothing changed)', async () => {
    const { org, owner, admin, inspector, manager } = await orgWithEveryRole();
    expect(expectStatus(await patch(admin.client, memberPath(org.id, inspector.userId), { role: 'viewer' }), 200).role).toBe('viewer');
    expect(expectStatus(await patch(admin.client, memberPath(org.id, manager.userId), { role: 'admin' }), 200).role).toBe('admin');

    const before = await orgSnapshot(org.id);
    expectProblem(await patch(admin.client, memberPath(org.id, owner.userId), { role: 'viewer' }), 403, 'forbidden');
    expectProblem(await patch(admin.client, memberPath(org.id, inspector.userId), { role: 'owner' }), 403, 'forbidden');
    expectProblem(await patch(admin.client, memberPath(org.id, admin.userId), { role: 'owner' }), 403, 'forbidden');
    expect(await orgSnapshot(org.id)).toEqual(before);
  });

  it('refuses managers, inspectors and viewers with 403 and changes nothing', async () => {
    const before = await orgSnapshot(fixture.org.id);
    for (const role of ['manager', 'inspector', 'viewer'] as const) {
      const target = role === 'viewer' ? fixture.inspector : fixture.viewer;
      expectProblem(await patch(fixture.byRole[role].client, memberPath(fixture.org.id, target.userId), { role: 'admin' }), 403, 'forbidden');
      expectProblem(await patch(fixture.byRole[role].client, memberPath(fixture.org.id, fixture.byRole[role].userId), { role: 'admin' }), 403, 'forbidden');
    }
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('refuses to demote the last owner with 422 validation_failed on role, and allows it once there is a second owner', async () => {
    const { org, owner, admin } = await orgWithEveryRole();
    const before = await orgSnapshot(org.id);
    const problem = expectProblem(await patch(owner.client, memberPath(org.id, owner.userId), { role: 'admin' }), 422, 'validation_failed', ['role']);
    expect(problem.errors[0].message).toMatch(/owner/i);
    expect(await orgSnapshot(org.id)).toEqual(before);

    expect(expectStatus(await patch(owner.client, memberPath(org.id, admin.userId), { role: 'owner' }), 200).role).toBe('owner');
    expect(expectStatus(await patch(owner.client, memberPath(org.id, owner.userId), { role: 'admin' }), 200).role).toBe('admin');
    // The former admin is now the only owner, and cannot step down either.
    expectProblem(await patch(admin.client, memberPath(org.id, admin.userId), { role: 'manager' }), 422, 'validation_failed', ['role']);
  });

  const badBodies: Array<{ name: string; body: unknown; fields: string[] }> = [
    { name: 'an unknown role', body: { role: 'superuser' }, fields: ['role'] },
    { name: 'a role in capitals', body: { role: 'ADMIN' }, fields: ['role'] },
    { name: 'a role of the wrong type', body: { role: 3 }, fields: ['role'] },
    { name: 'no role', body: {}, fields: ['role'] },
    { name: 'an unknown key', body: { role: 'viewer', user_id: MISSING_ID }, fields: ['user_id'] },
    { name: 'a body that is not JSON', body: 'role=admin', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];
  for (const bad of badBodies) {
    it(`refuses ${bad.name} with 422 and changes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      const outcome = await call(fixture.owner.client, memberPath(fixture.org.id, fixture.viewer.userId), { method: 'PATCH', body: bad.body });
      expectProblem(outcome, 422, 'validation_failed', bad.fields);
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('is 404 for someone who is not a member and for an unknown org; 422 for a malformed user id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await patch(fixture.owner.client, memberPath(fixture.org.id, stranger.userId), { role: 'viewer' }), 404, 'not_found');
    expectProblem(await patch(fixture.owner.client, memberPath(fixture.org.id, MISSING_ID), { role: 'viewer' }), 404, 'not_found');
    expectProblem(await patch(fixture.owner.client, memberPath(MISSING_ID, fixture.viewer.userId), { role: 'viewer' }), 404, 'not_found');
    expectProblem(await patch(fixture.owner.client, memberPath(fixture.org.id, 'me'), { role: 'viewer' }), 422, 'validation_failed', ['user_id']);
    expectProblem(await patch(stranger.client, memberPath(fixture.org.id, fixture.viewer.userId), { role: 'admin' }), 404, 'not_found');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});

describe('DELETE /orgs/{org}/members/{user_id}', () => {
  it('lets the owner remove a member, who then no longer sees the organization', async () => {
    const { org, owner, viewer } = await orgWithEveryRole();
    const outcome = await del(owner.client, memberPath(org.id, viewer.userId));
    expect(outcome.status).toBe(204);
    const after = await orgSnapshot(org.id);
    expect(after.memberships.map((m) => m.user_id)).not.toContain(viewer.userId);
    expectProblem(await call(viewer.client, `orgs/${org.id}`), 404, 'not_found');
    expectProblem(await call(viewer.client, `orgs/${org.id}/sites`), 404, 'not_found');
  });

  it('lets an admin remove a manager but not an owner', async () => {
    const { org, owner, admin, manager } = await orgWithEveryRole();
    expect((await del(admin.client, memberPath(org.id, manager.userId))).status).toBe(204);
    const before = await orgSnapshot(org.id);
    expectProblem(await del(admin.client, memberPath(org.id, owner.userId)), 403, 'forbidden');
    expect(await orgSnapshot(org.id)).toEqual(before);
  });

  it('lets any member leave (delete themselves)', async () => {
    const { org, inspector, admin } = await orgWithEveryRole();
    for (const user of [inspector, admin]) {
      expect((await del(user.client, memberPath(org.id, user.userId))).status).toBe(204);
      expectProblem(await call(user.client, `orgs/${org.id}`), 404, 'not_found');
    }
  });

  it('refuses managers, inspectors and viewers removing others with 403 and removes nothing', async () => {
    const before = await orgSnapshot(fixture.org.id);
    for (const role of ['manager', 'inspector', 'viewer'] as const) {
      const target = role === 'viewer' ? fixture.inspector : fixture.viewer;
      expectProblem(await del(fixture.byRole[role].client, memberPath(fixture.org.id, target.userId)), 403, 'forbidden');
    }
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('refuses the last owner leaving with 422 validation_failed on user_id; a second owner makes it possible', async () => {
    const owner = await newUser('solo', 'Solo Owner');
    const org = await createOrg(owner);
    const before = await orgSnapshot(org.id);
    expectProblem(await del(owner.client, memberPath(org.id, owner.userId)), 422, 'validation_failed', ['user_id']);
    expect(await orgSnapshot(org.id)).toEqual(before);

    const coOwner = await newUser('co', 'Co Owner');
    await addMember(owner, org.id, coOwner, 'owner');
    expect((await del(owner.client, memberPath(org.id, owner.userId))).status).toBe(204);
    expectProblem(await del(coOwner.client, memberPath(org.id, coOwner.userId)), 422, 'validation_failed', ['user_id']);
  });

  it('is 404 for a non-member target, an unknown org and a stranger; 422 for a malformed id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await del(fixture.owner.client, memberPath(fixture.org.id, stranger.userId)), 404, 'not_found');
    expectProblem(await del(fixture.owner.client, memberPath(MISSING_ID, fixture.viewer.userId)), 404, 'not_found');
    expectProblem(await del(stranger.client, memberPath(fixture.org.id, fixture.viewer.userId)), 404, 'not_found');
    expectProblem(await del(fixture.owner.client, memberPath(fixture.org.id, '42')), 422, 'validation_failed', ['user_id']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});
