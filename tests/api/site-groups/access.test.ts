// Access by group (issue 27 part 2): `PUT /orgs/{org}/members/{user_id}/access` limits a member to
// groups or, with an empty list, makes them org-wide again (owners and admins only, never of an
// owner or admin); the members list and read, and `GET /me`, say who sees what (`org_wide`,
// `site_group_ids`); an API key is limited when it is made (`site_group_ids`) and lists show it.
// Every refusal is a catalogue error and changes nothing.
import { describe, expect, it } from 'vitest';
import { call, del, expectProblem, expectStatus, MISSING_ID, patch, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createSite, insertMemberships, newUser } from '../../support/fixtures.ts';
import { apiKeysPath, createKey } from '../keys/support.ts';
import { accessPath, createGroup, limitMember, regionWorldAndOtherOrg, siteWorldSnapshot } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('access');
const org = () => world.org.id;
const put = (client: any, path: string, body: unknown) => call(client, path, { method: 'PUT', body });

/** A new inspector of the world, org-wide until limited. */
async function newInspector(label: string) {
  const user = await newUser(label, 'Ingrid New');
  await insertMemberships(org(), [[user.userId, 'inspector']]);
  return user;
}

async function sitesSeenBy(client: any): Promise<string[]> {
  return expectStatus(await call(client, `orgs/${org()}/sites?limit=200`), 200).data.map((s: any) => s.id);
}

describe('PUT /orgs/{org}/members/{user_id}/access', () => {
  it('limits a member to groups (and their subgroups), answers the member, and with [] makes them org-wide again', async () => {
    const member = await newInspector('access-limit');
    expect(await sitesSeenBy(member.client)).toEqual(expect.arrayContaining([world.sites.harbor.id, world.sites.south.id, world.sites.loose.id]));
    const limited = expectStatus(await put(world.admin.client, accessPath(org(), member.userId), { site_group_ids: [world.groups.north.id] }), 200);
    expect(limited).toMatchObject({ user_id: member.userId, role: 'inspector', org_wide: false, site_group_ids: [world.groups.north.id] });
    // At once: the next request sees only North's sites, Harbor's included.
    const seen = await sitesSeenBy(member.client);
    expect(seen).toContain(world.sites.harbor.id);
    expect(seen).not.toContain(world.sites.south.id);
    expect(seen).not.toContain(world.sites.loose.id);
    const two = expectStatus(await put(world.owner.client, accessPath(org(), member.userId), { site_group_ids: [world.groups.south.id, world.groups.harbor.id] }), 200);
    expect(two.site_group_ids).toEqual([world.groups.south.id, world.groups.harbor.id].sort());
    const wide = expectStatus(await put(world.owner.client, accessPath(org(), member.userId), { site_group_ids: [] }), 200);
    expect(wide).toMatchObject({ org_wide: true, site_group_ids: [] });
    expect(await sitesSeenBy(member.client)).toEqual(expect.arrayContaining([world.sites.south.id, world.sites.loose.id]));
    const [row] = await db()`select site_access_limited from public.memberships where org_id = ${org()} and user_id = ${member.userId}`;
    expect(row.site_access_limited).toBe(false);
  });

  it('refuses to limit an owner or an admin with 422 on site_group_ids; [] for them is fine', async () => {
    const before = await siteWorldSnapshot(org());
    for (const target of [world.owner, world.admin]) {
      const problem = expectProblem(await put(world.owner.client, accessPath(org(), target.userId), { site_group_ids: [world.groups.north.id] }), 422,
        'validation_failed', ['site_group_ids']);
      expect(problem.errors[0].message).toBe('Owners and admins always see every site.');
      expect(expectStatus(await put(world.owner.client, accessPath(org(), target.userId), { site_group_ids: [] }), 200).org_wide).toBe(true);
    }
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it("refuses groups of another organization, or none at all, on site_group_ids, and every bad body; nothing changes", async () => {
    const member = await newInspector('access-bad');
    await limitMember(world.owner, org(), member, [world.groups.south.id]);
    const before = await siteWorldSnapshot(org());
    const path = accessPath(org(), member.userId);
    for (const ids of [[other.group.id], [world.groups.north.id, MISSING_ID]]) {
      const problem = expectProblem(await put(world.owner.client, path, { site_group_ids: ids }), 422, 'validation_failed', ['site_group_ids']);
      expect(problem.errors[0].message).toBe('Choose groups of this organization.');
    }
    const cases: Array<[unknown, string[], string?]> = [
      [{}, ['site_group_ids'], 'List the groups by id.'],
      [{ site_group_ids: null }, ['site_group_ids'], 'List the groups by id.'],
      [{ site_group_ids: world.groups.north.id }, ['site_group_ids'], 'List the groups by id.'],
      [{ site_group_ids: ['north'] }, ['site_group_ids.0'], 'Use a valid id.'],
      [{ site_group_ids: [world.groups.north.id, world.groups.north.id] }, ['site_group_ids'], 'List each group once.'],
      [{ site_group_ids: Array.from({ length: 1001 }, () => crypto.randomUUID()) }, ['site_group_ids'], 'List at most 1,000 groups.'],
      [{ site_group_ids: [], org_wide: true }, ['org_wide'], 'This field is not allowed.'],
    ];
    for (const [body, fields, message] of cases) {
      const problem = expectProblem(await put(world.owner.client, path, body), 422, 'validation_failed', fields);
      if (message) expect(problem.errors[0].message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    expectProblem(await put(world.owner.client, accessPath(org(), 'someone'), { site_group_ids: [] }), 422, 'validation_failed', ['user_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('is for owners and admins: 403 for the rest and for an admin about an owner, 404 for a stranger or a non-member, 403 for a key', async () => {
    const member = await newInspector('access-roles');
    const key = await createKey(world.owner, org(), 'manager');
    const before = await siteWorldSnapshot(org());
    const body = { site_group_ids: [world.groups.north.id] };
    for (const role of ['manager', 'inspector', 'viewer'] as const) {
      expectProblem(await put(world.byRole[role].client, accessPath(org(), member.userId), body), 403, 'forbidden');
    }
    expectProblem(await put(world.limited.manager.client, accessPath(org(), member.userId), body), 403, 'forbidden');
    // An admin may not change an owner, not even to say they see everything.
    expectProblem(await put(world.admin.client, accessPath(org(), world.owner.userId), { site_group_ids: [] }), 403, 'forbidden');
    expectProblem(await put(other.owner.client, accessPath(org(), member.userId), body), 404, 'not_found');
    const missing = expectProblem(await put(world.owner.client, accessPath(org(), other.owner.userId), body), 404, 'not_found');
    expect(missing.title).toBe("We couldn't find that member.");
    expectProblem(await put(key.client, accessPath(org(), member.userId), body), 403, 'forbidden');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('ends with a promotion to admin: the member is org-wide and their groups are gone', async () => {
    const member = await newInspector('access-promote');
    await limitMember(world.owner, org(), member, [world.groups.harbor.id]);
    const promoted = expectStatus(await patch(world.owner.client, `orgs/${org()}/members/${member.userId}`, { role: 'admin' }), 200);
    expect(promoted).toMatchObject({ role: 'admin', org_wide: true, site_group_ids: [] });
    expect(await db()`select 1 from public.membership_site_groups where org_id = ${org()} and user_id = ${member.userId}`).toHaveLength(0);
    expect(await sitesSeenBy(member.client)).toContain(world.sites.south.id);
  });

  it('leaves a member whose every group is deleted limited, seeing no site rather than every site', async () => {
    const member = await newInspector('access-orphan');
    const lonely = await createGroup(world.owner, org(), `Lonely ${crypto.randomUUID().slice(0, 6)}`);
    await limitMember(world.owner, org(), member, [lonely.id]);
    expectStatus(await del(world.owner.client, `orgs/${org()}/site-groups/${lonely.id}`), 204);
    const read = expectStatus(await call(world.viewer.client, `orgs/${org()}/members/${member.userId}`), 200);
    expect(read).toMatchObject({ org_wide: false, site_group_ids: [] });
    expect(await sitesSeenBy(member.client)).toEqual([]);
    const me = expectStatus(await call(member.client, 'me'), 200);
    expect(me.memberships.find((m: any) => m.org_id === org())).toMatchObject({ org_wide: false, site_group_ids: [] });
  });
});

describe('members and me say who sees what', () => {
  it('the list and the read give every member org_wide and site_group_ids, to every member and a key', async () => {
    const key = await createKey(world.owner, org(), 'viewer');
    for (const client of [world.viewer.client, world.limited.inspector.client, key.client]) {
      const { data } = expectStatus(await call(client, `orgs/${org()}/members?limit=200`), 200);
      const byId = Object.fromEntries(data.map((m: any) => [m.user_id, m]));
      expect(byId[world.owner.userId]).toMatchObject({ org_wide: true, site_group_ids: [] });
      expect(byId[world.limited.inspector.userId]).toMatchObject({ org_wide: false, site_group_ids: [world.groups.harbor.id] });
      expect(byId[world.limited.manager.userId]).toMatchObject({ org_wide: false, site_group_ids: [world.groups.north.id] });
      const read = expectStatus(await call(client, `orgs/${org()}/members/${world.limited.viewer.userId}`), 200);
      expect(read).toEqual(expect.objectContaining({ user_id: world.limited.viewer.userId, role: 'viewer', org_wide: false, site_group_ids: [world.groups.north.id] }));
    }
  });

  it('the read is 404 for a non-member and another organization, 422 for a bad id', async () => {
    expectProblem(await call(world.viewer.client, `orgs/${org()}/members/${other.owner.userId}`), 404, 'not_found');
    expectProblem(await call(other.owner.client, `orgs/${org()}/members/${world.owner.userId}`), 404, 'not_found');
    expectProblem(await call(world.viewer.client, `orgs/${org()}/members/me`), 422, 'validation_failed', ['user_id']);
  });

  it('GET /me gives each membership org_wide and site_group_ids', async () => {
    const me = expectStatus(await call(world.limited.manager.client, 'me'), 200);
    expect(me.memberships).toEqual([
      { org_id: org(), org_slug: world.org.slug, org_name: world.org.name, role: 'manager', org_wide: false, site_group_ids: [world.groups.north.id] },
    ]);
    const owner = expectStatus(await call(world.owner.client, 'me'), 200);
    expect(owner.memberships.find((m: any) => m.org_id === org())).toMatchObject({ org_wide: true, site_group_ids: [] });
  });
});

describe('API keys limited to groups', () => {
  it('a key made with site_group_ids sees only those groups; the answer and the list say so; absent or [] is org-wide', async () => {
    const limited = await createKey(world.owner, org(), 'viewer', { site_group_ids: [world.groups.north.id] });
    const [wide, empty] = await Promise.all([createKey(world.owner, org(), 'viewer'), createKey(world.owner, org(), 'viewer', { site_group_ids: [] })]);
    const { data } = expectStatus(await call(world.owner.client, `${apiKeysPath(org())}?limit=200`), 200);
    const byId = Object.fromEntries(data.map((k: any) => [k.id, k]));
    expect(byId[limited.id]).toMatchObject({ org_wide: false, site_group_ids: [world.groups.north.id] });
    expect(byId[wide.id]).toMatchObject({ org_wide: true, site_group_ids: [] });
    expect(byId[empty.id]).toMatchObject({ org_wide: true, site_group_ids: [] });
    const seen = await sitesSeenBy(limited.client);
    expect(seen).toContain(world.sites.harbor.id);
    expect(seen).not.toContain(world.sites.south.id);
    expect(await sitesSeenBy(wide.client)).toContain(world.sites.south.id);
  });

  it('the create answer carries the access, and a retry with the same Idempotency-Key too', async () => {
    const body = { name: 'North feed', role: 'viewer', site_group_ids: [world.groups.north.id] };
    const headers = { 'Idempotency-Key': `key-${crypto.randomUUID()}` };
    const first = expectStatus(await post(world.owner.client, apiKeysPath(org()), body, headers), 201);
    expect(first).toMatchObject({ org_wide: false, site_group_ids: [world.groups.north.id], secret: expect.stringMatching(/^fck_/) });
    const retry = expectStatus(await post(world.owner.client, apiKeysPath(org()), body, headers), 201);
    expect(retry).toEqual({ ...first, secret: null });
  });

  it("refuses groups of another organization, or none, on site_group_ids, and bad lists; no key is made", async () => {
    const count = async () => (await db()`select count(*)::int as n from public.api_keys where org_id = ${org()}`)[0].n;
    const before = await count();
    for (const ids of [[other.group.id], [MISSING_ID]]) {
      const problem = expectProblem(await post(world.owner.client, apiKeysPath(org()), { name: 'Stray', role: 'viewer', site_group_ids: ids }), 422,
        'validation_failed', ['site_group_ids']);
      expect(problem.errors[0].message).toBe('Choose groups of this organization.');
    }
    expectProblem(await post(world.owner.client, apiKeysPath(org()), { name: 'Twice', role: 'viewer', site_group_ids: [world.groups.north.id, world.groups.north.id] }),
      422, 'validation_failed', ['site_group_ids']);
    expectProblem(await post(world.owner.client, apiKeysPath(org()), { name: 'Bad', role: 'viewer', site_group_ids: ['north'] }), 422, 'validation_failed',
      ['site_group_ids.0']);
    expect(await count()).toBe(before);
    expect(await db()`select 1 from public.api_key_site_groups where org_id = ${org()} and site_group_id = ${other.group.id}`).toHaveLength(0);
  });

  it('a limited manager key adds sites only in its groups', async () => {
    const key = await createKey(world.owner, org(), 'manager', { site_group_ids: [world.groups.north.id] });
    expect((await createSite(key.asUser, org(), { group_id: world.groups.harbor.id })).group_id).toBe(world.groups.harbor.id);
    const before = await siteWorldSnapshot(org());
    expectProblem(await post(key.client, `orgs/${org()}/sites`, { name: 'Loose' }), 403, 'forbidden');
    expectProblem(await post(key.client, `orgs/${org()}/sites`, { name: 'Southern', group_id: world.groups.south.id }), 422, 'validation_failed', ['group_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });
});
