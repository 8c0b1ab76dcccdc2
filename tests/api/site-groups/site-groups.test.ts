// `GET·POST /orgs/{org}/site-groups`, `PATCH·DELETE /orgs/{org}/site-groups/{id}` (issue 27 part
// 1): the tree as each caller sees it, made and changed by managers and above — a limited manager
// only strictly inside their groups — three levels deep at most, no cycles, unique names among
// siblings, 1,000 per organization, and a group with sites or subgroups kept until they are moved
// out. Every refusal is a catalogue error and writes nothing.
import { describe, expect, it } from 'vitest';
import { call, del, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createGeofencedSite, insertMemberships, newUser, tag, team } from '../../support/fixtures.ts';
import { createKey } from '../keys/support.ts';
import { createGroup, limitMember, regionWorldAndOtherOrg, siteGroupPath, siteGroupsPath, siteWorldSnapshot } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('groups');
const org = () => world.org.id;

/** The answer for one group, as the list and the writes give it. */
function groupShape(group: { id: string; name: string; parent_id: string | null; depth: number }, counts: Partial<Record<string, number>> = {}, access = 'full') {
  return {
    id: group.id,
    org_id: org(),
    name: group.name,
    parent_id: group.parent_id,
    depth: group.depth,
    site_count: 0,
    archived_site_count: 0,
    child_count: 0,
    access,
    created_at: expect.stringMatching(ISO_TIMESTAMP),
    updated_at: expect.stringMatching(ISO_TIMESTAMP),
    ...counts,
  };
}

async function listOf(client: any) {
  return expectStatus(await call(client, siteGroupsPath(org())), 200);
}

describe('GET /orgs/{org}/site-groups', () => {
  it('answers every org-wide role the whole tree, parents first, with direct counts, in one page', async () => {
    for (const user of Object.values(world.byRole)) {
      const page = await listOf(user.client);
      expect(page.next_cursor).toBeNull();
      const mine = page.data.filter((g: any) => [world.groups.north.id, world.groups.harbor.id, world.groups.south.id].includes(g.id));
      expect(mine).toEqual([
        groupShape(world.groups.north, { child_count: 1 }),
        groupShape(world.groups.south, { site_count: 1 }),
        groupShape(world.groups.harbor, { site_count: 1 }),
      ]);
      // Ordered by depth, then name: a parent always comes before its children.
      const keys = page.data.map((g: any) => [g.depth, g.name]);
      expect(keys).toEqual([...keys].sort((a: any, b: any) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)));
    }
  });

  it('answers a member limited to Harbor Harbor and, to draw the tree, North marked as an ancestor; nothing of South', async () => {
    const page = await listOf(world.limited.inspector.client);
    expect(page).toEqual({
      data: [groupShape(world.groups.north, { child_count: 1 }, 'ancestor'), groupShape(world.groups.harbor, { site_count: 1 })],
      next_cursor: null,
    });
  });

  it('answers a manager limited to North North and everything below it, not South', async () => {
    const page = await listOf(world.limited.manager.client);
    const ids = page.data.map((g: any) => g.id);
    expect(ids).toContain(world.groups.north.id);
    expect(ids).toContain(world.groups.harbor.id);
    expect(ids).not.toContain(world.groups.south.id);
    expect(page.data.every((g: any) => g.access === 'full')).toBe(true);
  });

  it('counts archived sites apart from active ones', async () => {
    const { owner, org: o } = await team({ label: 'grp-arch', org: 'Archive counts', owner: 'Olive Owner' });
    const group = await createGroup(owner, o.id, 'East');
    const [kept, archived] = await Promise.all([
      createGeofencedSite(owner, o.id, { group_id: group.id }),
      createGeofencedSite(owner, o.id, { group_id: group.id }),
    ]);
    expectStatus(await del(owner.client, `orgs/${o.id}/sites/${archived.id}`), 200);
    const [listed] = expectStatus(await call(owner.client, siteGroupsPath(o.id)), 200).data;
    expect(listed).toMatchObject({ id: group.id, site_count: 1, archived_site_count: 1 });
    expect(kept.group_id).toBe(group.id);
  });

  it('answers an org-wide key the whole tree and a key limited to North only North and below', async () => {
    const wide = await createKey(world.owner, org(), 'viewer');
    const limited = await createKey(world.owner, org(), 'viewer', { site_group_ids: [world.groups.north.id] });
    const wideIds = (await listOf(wide.client)).data.map((g: any) => g.id);
    expect(wideIds).toEqual(expect.arrayContaining([world.groups.north.id, world.groups.harbor.id, world.groups.south.id]));
    const limitedIds = (await listOf(limited.client)).data.map((g: any) => g.id);
    expect(limitedIds).toEqual(expect.arrayContaining([world.groups.north.id, world.groups.harbor.id]));
    expect(limitedIds).not.toContain(world.groups.south.id);
  });

  it('is 404 for another organization and an unknown one, 422 for a bad id or a query it does not take', async () => {
    expectProblem(await call(other.owner.client, siteGroupsPath(org())), 404, 'not_found');
    expectProblem(await call(world.owner.client, siteGroupsPath(MISSING_ID)), 404, 'not_found');
    expectProblem(await call(world.owner.client, siteGroupsPath('north')), 422, 'validation_failed', ['org']);
    expectProblem(await call(world.owner.client, `${siteGroupsPath(org())}?limit=10`), 422, 'validation_failed', ['query.limit']);
  });
});

describe('POST /orgs/{org}/site-groups', () => {
  it('makes a top-level group, one inside it and one inside that, each a level deeper, for owners, admins and managers', async () => {
    const region = expectStatus(await post(world.admin.client, siteGroupsPath(org()), { name: '  West  ' }), 201);
    expect(region).toEqual(groupShape({ id: region.id, name: 'West', parent_id: null, depth: 1 }));
    expect(region.id).toMatch(UUID);
    const area = expectStatus(await post(world.manager.client, siteGroupsPath(org()), { name: 'Docks', parent_id: region.id }), 201);
    expect(area).toMatchObject({ parent_id: region.id, depth: 2 });
    const spot = expectStatus(await post(world.owner.client, siteGroupsPath(org()), { name: 'Pier 4', parent_id: area.id }), 201);
    expect(spot).toMatchObject({ parent_id: area.id, depth: 3 });
    const [row] = await db()`select depth, created_by from public.site_groups where id = ${spot.id}`;
    expect(row).toEqual({ depth: 3, created_by: world.owner.userId });
  });

  it('refuses a fourth level on parent_id, and writes nothing', async () => {
    const top = await createGroup(world.owner, org(), `Deep ${tag()}`);
    const second = await createGroup(world.owner, org(), 'Second', top.id);
    const third = await createGroup(world.owner, org(), 'Third', second.id);
    const before = await siteWorldSnapshot(org());
    const problem = expectProblem(await post(world.owner.client, siteGroupsPath(org()), { name: 'Fourth', parent_id: third.id }), 422, 'validation_failed', ['parent_id']);
    expect(problem.errors[0].message).toBe('Groups can be at most three levels deep.');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses a name a sibling (or another top-level group) has with 409; other parents may reuse it', async () => {
    const before = await siteWorldSnapshot(org());
    const top = expectProblem(await post(world.owner.client, siteGroupsPath(org()), { name: 'North' }), 409, 'duplicate');
    expect(top.title).toBe('A site group with that name already exists.');
    expectProblem(await post(world.owner.client, siteGroupsPath(org()), { name: 'Harbor', parent_id: world.groups.north.id }), 409, 'duplicate');
    expect(await siteWorldSnapshot(org())).toEqual(before);
    // Harbor under South is another Harbor; North elsewhere is another North.
    expectStatus(await post(world.owner.client, siteGroupsPath(org()), { name: 'Harbor', parent_id: world.groups.south.id }), 201);
    expectStatus(await post(other.owner.client, siteGroupsPath(other.org.id), { name: 'Harbor' }), 201);
  });

  it("refuses a parent of another organization, or none at all, on parent_id as the same field error", async () => {
    const before = await siteWorldSnapshot(org());
    for (const parent_id of [other.group.id, MISSING_ID]) {
      const problem = expectProblem(await post(world.owner.client, siteGroupsPath(org()), { name: 'Stray', parent_id }), 422, 'validation_failed', ['parent_id']);
      expect(problem.errors[0].message).toBe('Choose a group of this organization.');
    }
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 and writes nothing`, async () => {
      const before = await siteWorldSnapshot(org());
      expectProblem(await post(world.byRole[role].client, siteGroupsPath(org()), { name: `By ${role}` }), 403, 'forbidden');
      expect(await siteWorldSnapshot(org())).toEqual(before);
    });
  }

  it('is 404 for a member of another organization, and writes nothing', async () => {
    const before = await siteWorldSnapshot(org());
    expectProblem(await post(other.owner.client, siteGroupsPath(org()), { name: 'Taken over' }), 404, 'not_found');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses every bad body with field errors from the catalogue and writes nothing', async () => {
    const cases: Array<[unknown, string[], string?]> = [
      [{}, ['name'], 'Enter a group name.'],
      [{ name: '' }, ['name'], 'Enter a group name.'],
      [{ name: '   ' }, ['name'], 'Enter a group name.'],
      [{ name: 'x'.repeat(121) }, ['name'], 'Use at most 120 characters.'],
      [{ name: 'Tab\tname' }, ['name'], 'Remove the control characters.'],
      [{ name: 42 }, ['name']],
      [{ name: 'Ok', parent_id: 'north' }, ['parent_id'], 'Use a valid id.'],
      [{ name: 'Ok', parent_id: 7 }, ['parent_id']],
      [{ name: 'Ok', depth: 1 }, ['depth'], 'This field is not allowed.'],
      [{ name: 'Ok', org_id: org() }, ['org_id'], 'This field is not allowed.'],
      [['North'], ['body']],
      [null, ['body']],
    ];
    const before = await siteWorldSnapshot(org());
    for (const [body, fields, message] of cases) {
      const problem = expectProblem(await post(world.owner.client, siteGroupsPath(org()), body), 422, 'validation_failed', fields);
      if (message) expect(problem.errors[0].message, JSON.stringify(body)).toBe(message);
    }
    expectProblem(await call(world.owner.client, siteGroupsPath(org()), { method: 'POST', body: 'North', headers: { 'content-type': 'text/plain' } }), 422,
      'validation_failed', ['body']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('makes the 1,000th group of an organization and refuses the 1,001st with limit_exceeded', async () => {
    const { owner, org: o } = await team({ label: 'grp-limit', org: 'Many groups', owner: 'Olive Owner' });
    await db()`insert into public.site_groups (org_id, name) select ${o.id}, 'Group ' || n from generate_series(1, 999) n`;
    expectStatus(await post(owner.client, siteGroupsPath(o.id), { name: 'The thousandth' }), 201);
    const problem = expectProblem(await post(owner.client, siteGroupsPath(o.id), { name: 'One too many' }), 422, 'limit_exceeded');
    expect(problem.title).toBe("You've reached the limit of 1000 site groups.");
    const [{ n }] = await db()`select count(*)::int as n from public.site_groups where org_id = ${o.id}`;
    expect(n).toBe(1000);
    // The whole tree still comes in one answer.
    const page = expectStatus(await call(owner.client, siteGroupsPath(o.id)), 200);
    expect(page.data).toHaveLength(1000);
    expect(page.next_cursor).toBeNull();
  });

  it('lets a limited manager add groups inside theirs, never at the top level nor in a group they only see as an ancestor', async () => {
    const inside = expectStatus(await post(world.limited.manager.client, siteGroupsPath(org()), { name: `Quay ${tag()}`, parent_id: world.groups.north.id }), 201);
    expect(inside).toMatchObject({ parent_id: world.groups.north.id, depth: 2, access: 'full' });
    const before = await siteWorldSnapshot(org());
    expectProblem(await post(world.limited.manager.client, siteGroupsPath(org()), { name: 'Top' }), 403, 'forbidden');
    // South is not theirs to see: as unknown as another organization's group.
    expectProblem(await post(world.limited.manager.client, siteGroupsPath(org()), { name: 'Sneak', parent_id: world.groups.south.id }), 422,
      'validation_failed', ['parent_id']);
    // A manager limited to Harbor sees North only as its ancestor.
    const harborManager = await newUser('grp-harbor-mgr', 'Hugo Harbor');
    await insertMemberships(org(), [[harborManager.userId, 'manager']]);
    await limitMember(world.owner, org(), harborManager, [world.groups.harbor.id]);
    const mid = await siteWorldSnapshot(org());
    expectProblem(await post(harborManager.client, siteGroupsPath(org()), { name: 'Beside Harbor', parent_id: world.groups.north.id }), 403, 'forbidden');
    expect(await siteWorldSnapshot(org())).toEqual(mid);
    expect(before.groups).toEqual(mid.groups);
    expectStatus(await post(harborManager.client, siteGroupsPath(org()), { name: `Berth ${tag()}`, parent_id: world.groups.harbor.id }), 201);
  });
});

describe('PATCH /orgs/{org}/site-groups/{id}', () => {
  it('renames a group and moves it with its subgroups, whose depths follow', async () => {
    const top = await createGroup(world.owner, org(), `Mover ${tag()}`);
    const child = await createGroup(world.owner, org(), 'Child', top.id);
    const renamed = expectStatus(await patch(world.manager.client, siteGroupPath(org(), top.id), { name: 'Moved region' }), 200);
    expect(renamed).toMatchObject({ id: top.id, name: 'Moved region', depth: 1, child_count: 1 });
    const moved = expectStatus(await patch(world.manager.client, siteGroupPath(org(), top.id), { parent_id: world.groups.south.id }), 200);
    expect(moved).toMatchObject({ parent_id: world.groups.south.id, depth: 2 });
    const [row] = await db()`select depth from public.site_groups where id = ${child.id}`;
    expect(row.depth).toBe(3);
    const back = expectStatus(await patch(world.manager.client, siteGroupPath(org(), top.id), { parent_id: null }), 200);
    expect(back).toMatchObject({ parent_id: null, depth: 1 });
    expect((await db()`select depth from public.site_groups where id = ${child.id}`)[0].depth).toBe(2);
  });

  it('answers a change to nothing with the group as it is, writing nothing', async () => {
    const before = await siteWorldSnapshot(org());
    const same = expectStatus(await patch(world.manager.client, siteGroupPath(org(), world.groups.north.id), { name: 'North', parent_id: null }), 200);
    expect(same).toEqual(groupShape(world.groups.north, { child_count: same.child_count }));
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses a move inside itself or its subgroups, and one that would put a subgroup on a fourth level, on parent_id', async () => {
    const top = await createGroup(world.owner, org(), `Loop ${tag()}`);
    const child = await createGroup(world.owner, org(), 'Child', top.id);
    const grandchild = await createGroup(world.owner, org(), 'Grandchild', child.id);
    const before = await siteWorldSnapshot(org());
    for (const parent_id of [top.id, child.id, grandchild.id]) {
      const problem = expectProblem(await patch(world.owner.client, siteGroupPath(org(), top.id), { parent_id }), 422, 'validation_failed', ['parent_id']);
      expect(problem.errors[0].message).toBe('A group cannot be moved inside itself or one of its subgroups.');
    }
    // Three levels under Harbor (level 2) would reach level 4.
    const deep = expectProblem(await patch(world.owner.client, siteGroupPath(org(), top.id), { parent_id: world.groups.harbor.id }), 422, 'validation_failed',
      ['parent_id']);
    expect(deep.errors[0].message).toBe('Groups can be at most three levels deep.');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses a name a new or current sibling has with 409, and writes nothing', async () => {
    const a = await createGroup(world.owner, org(), 'Twin A', world.groups.south.id);
    const b = await createGroup(world.owner, org(), 'Twin B', world.groups.north.id);
    await createGroup(world.owner, org(), 'Twin B', world.groups.south.id);
    const before = await siteWorldSnapshot(org());
    expectProblem(await patch(world.owner.client, siteGroupPath(org(), a.id), { name: 'Twin B' }), 409, 'duplicate');
    expectProblem(await patch(world.owner.client, siteGroupPath(org(), b.id), { parent_id: world.groups.south.id }), 409, 'duplicate');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it("answers 404 for a group that is not there and another organization's, and 422 for a parent that is not the organization's", async () => {
    const before = await siteWorldSnapshot(org());
    const missing = expectProblem(await patch(world.owner.client, siteGroupPath(org(), MISSING_ID), { name: 'X' }), 404, 'not_found');
    expect(missing.title).toBe("We couldn't find that site group.");
    expectProblem(await patch(world.owner.client, siteGroupPath(org(), other.group.id), { name: 'X' }), 404, 'not_found');
    expectProblem(await patch(other.owner.client, siteGroupPath(org(), world.groups.south.id), { name: 'X' }), 404, 'not_found');
    expectProblem(await patch(world.owner.client, siteGroupPath(org(), world.groups.south.id), { parent_id: other.group.id }), 422, 'validation_failed',
      ['parent_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses every bad body and id with field errors and writes nothing', async () => {
    const before = await siteWorldSnapshot(org());
    const path = siteGroupPath(org(), world.groups.south.id);
    const cases: Array<[unknown, string[], string?]> = [
      [{}, ['body'], 'Change at least one field.'],
      [{ name: '' }, ['name'], 'Enter a group name.'],
      [{ name: 'y'.repeat(121) }, ['name']],
      [{ parent_id: 'top' }, ['parent_id']],
      // A body of fields it does not take changes nothing, and says both.
      [{ depth: 2 }, ['depth', 'body'], 'This field is not allowed.'],
      [{ site_count: 0 }, ['site_count', 'body'], 'This field is not allowed.'],
    ];
    for (const [body, fields, message] of cases) {
      const problem = expectProblem(await patch(world.owner.client, path, body), 422, 'validation_failed', fields);
      if (message) expect(problem.errors[0].message, JSON.stringify(body)).toBe(message);
    }
    expectProblem(await patch(world.owner.client, siteGroupPath(org(), 'south'), { name: 'X' }), 422, 'validation_failed', ['id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 and writes nothing`, async () => {
      const before = await siteWorldSnapshot(org());
      expectProblem(await patch(world.byRole[role].client, siteGroupPath(org(), world.groups.south.id), { name: 'Mine' }), 403, 'forbidden');
      expect(await siteWorldSnapshot(org())).toEqual(before);
    });
  }

  it('lets a limited manager rename and move groups strictly inside theirs, but not their own group, nor out of it', async () => {
    const quay = await createGroup(world.owner, org(), `Quay ${tag()}`, world.groups.north.id);
    expectStatus(await patch(world.limited.manager.client, siteGroupPath(org(), quay.id), { name: `Quay renamed ${tag()}` }), 200);
    expectStatus(await patch(world.limited.manager.client, siteGroupPath(org(), quay.id), { parent_id: world.groups.harbor.id }), 200);
    const before = await siteWorldSnapshot(org());
    // Their own group is for members who see more.
    expectProblem(await patch(world.limited.manager.client, siteGroupPath(org(), world.groups.north.id), { name: 'Mine' }), 403, 'forbidden');
    // Out of their groups: to the top, or under a group they cannot see (as another organization's).
    expectProblem(await patch(world.limited.manager.client, siteGroupPath(org(), quay.id), { parent_id: null }), 403, 'forbidden');
    expectProblem(await patch(world.limited.manager.client, siteGroupPath(org(), quay.id), { parent_id: world.groups.south.id }), 422,
      'validation_failed', ['parent_id']);
    // A group outside theirs is not found, exactly as another organization's.
    const outside = await patch(world.limited.manager.client, siteGroupPath(org(), world.groups.south.id), { name: 'Mine' });
    const elsewhere = await patch(world.limited.manager.client, siteGroupPath(org(), other.group.id), { name: 'Mine' });
    expectProblem(outside, 404, 'not_found');
    expect({ ...outside.body, request_id: null }).toEqual({ ...elsewhere.body, request_id: null });
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });
});

describe('DELETE /orgs/{org}/site-groups/{id}', () => {
  it('deletes an empty group (204), after which it is not found', async () => {
    const empty = await createGroup(world.manager, org(), `Empty ${tag()}`, world.groups.south.id);
    expect(expectStatus(await del(world.manager.client, siteGroupPath(org(), empty.id)), 204)).toBeNull();
    expect(await db()`select 1 from public.site_groups where id = ${empty.id}`).toHaveLength(0);
    expectProblem(await del(world.manager.client, siteGroupPath(org(), empty.id)), 404, 'not_found');
  });

  it('refuses a group with a site, an archived site or a subgroup with 422 on id, and writes nothing', async () => {
    const withSite = await createGroup(world.owner, org(), `Full ${tag()}`);
    await createGeofencedSite(world.owner, org(), { group_id: withSite.id });
    const withArchived = await createGroup(world.owner, org(), `Archived ${tag()}`);
    const archived = await createGeofencedSite(world.owner, org(), { group_id: withArchived.id });
    expectStatus(await del(world.owner.client, `orgs/${org()}/sites/${archived.id}`), 200);
    const before = await siteWorldSnapshot(org());
    for (const group of [withSite, withArchived, world.groups.north]) {
      const problem = expectProblem(await del(world.owner.client, siteGroupPath(org(), group.id)), 422, 'validation_failed', ['id']);
      expect(problem.errors[0].message).toBe("Move this group's sites and subgroups out before deleting it.");
    }
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('is 403 for inspectors and viewers, 404 for another organization, 422 for a bad id; nothing is written', async () => {
    const empty = await createGroup(world.owner, org(), `Kept ${tag()}`);
    const before = await siteWorldSnapshot(org());
    for (const role of ['inspector', 'viewer'] as const) {
      expectProblem(await del(world.byRole[role].client, siteGroupPath(org(), empty.id)), 403, 'forbidden');
    }
    expectProblem(await del(other.owner.client, siteGroupPath(org(), empty.id)), 404, 'not_found');
    expectProblem(await del(world.owner.client, siteGroupPath(org(), other.group.id)), 404, 'not_found');
    expectProblem(await del(world.owner.client, siteGroupPath(org(), 'kept')), 422, 'validation_failed', ['id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('lets a limited manager delete an empty group inside theirs, but not their own group', async () => {
    const inside = await createGroup(world.owner, org(), `Inside ${tag()}`, world.groups.north.id);
    expectStatus(await del(world.limited.manager.client, siteGroupPath(org(), inside.id)), 204);
    const own = await createGroup(world.owner, org(), `Own ${tag()}`);
    await limitMember(world.owner, org(), world.limited.manager, [world.groups.north.id, own.id]);
    const before = await siteWorldSnapshot(org());
    expectProblem(await del(world.limited.manager.client, siteGroupPath(org(), own.id)), 403, 'forbidden');
    expectProblem(await del(world.limited.manager.client, siteGroupPath(org(), world.groups.south.id)), 404, 'not_found');
    expect(await siteWorldSnapshot(org())).toEqual(before);
    await limitMember(world.owner, org(), world.limited.manager, [world.groups.north.id]);
  });
});
