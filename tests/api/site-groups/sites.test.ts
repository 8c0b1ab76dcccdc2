// Sites in groups (issue 27 part 1): `group_id` on create, read, list and PATCH; several sites moved
// at once with `POST /orgs/{org}/sites/move`; the list's `site_group_id` filter, a group with its
// subgroups. A manager limited to groups keeps every site in one of theirs. Every refusal is a
// catalogue error and writes nothing.
import { describe, expect, it } from 'vitest';
import { allPages } from '../../support/paging.ts';
import { call, expectProblem, expectStatus, patch, post, MISSING_ID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createGeofencedSite, createSite, tag, team } from '../../support/fixtures.ts';
import { createKey } from '../keys/support.ts';
import { createGroup, regionWorldAndOtherOrg, siteWorldSnapshot } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('gsites');
const org = () => world.org.id;
const sitesPath = () => `orgs/${org()}/sites`;
const sitePath = (id: string) => `orgs/${org()}/sites/${id}`;
const movePath = () => `orgs/${org()}/sites/move`;

async function groupOf(siteId: string): Promise<string | null> {
  const [row] = await db()`select group_id from public.sites where id = ${siteId}`;
  return row.group_id;
}

describe('group_id on sites', () => {
  it('is set on create and shown by the read and the list', async () => {
    const site = await createSite(world.manager, org(), { group_id: world.groups.south.id });
    expect(site.group_id).toBe(world.groups.south.id);
    expect(expectStatus(await call(world.viewer.client, sitePath(site.id)), 200).group_id).toBe(world.groups.south.id);
    const listed = (await allPages(world.viewer.client, sitesPath(), 200)).flat().find((s: any) => s.id === site.id);
    expect(listed.group_id).toBe(world.groups.south.id);
    expect(world.sites.loose.group_id).toBeNull();
  });

  it('changes with PATCH, to another group or to none, and a PATCH of other fields keeps it', async () => {
    const site = await createSite(world.manager, org(), { group_id: world.groups.south.id });
    expect(expectStatus(await patch(world.manager.client, sitePath(site.id), { group_id: world.groups.harbor.id }), 200).group_id).toBe(world.groups.harbor.id);
    expect(expectStatus(await patch(world.manager.client, sitePath(site.id), { name: `Renamed ${tag()}` }), 200).group_id).toBe(world.groups.harbor.id);
    expect(expectStatus(await patch(world.manager.client, sitePath(site.id), { group_id: null }), 200).group_id).toBeNull();
    expect(await groupOf(site.id)).toBeNull();
  });

  it("refuses a group of another organization, or none at all, on group_id, and writes nothing", async () => {
    const before = await siteWorldSnapshot(org());
    for (const group_id of [other.group.id, MISSING_ID]) {
      const created = expectProblem(await post(world.manager.client, sitesPath(), { name: 'Stray', group_id }), 422, 'validation_failed', ['group_id']);
      expect(created.errors[0].message).toBe('Choose a group of this organization.');
      expectProblem(await patch(world.manager.client, sitePath(world.sites.loose.id), { group_id }), 422, 'validation_failed', ['group_id']);
    }
    expectProblem(await post(world.manager.client, sitesPath(), { name: 'Stray', group_id: 'south' }), 422, 'validation_failed', ['group_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('lets a limited manager add and move sites only in their groups', async () => {
    const mine = await createSite(world.limited.manager, org(), { group_id: world.groups.north.id });
    expect(mine.group_id).toBe(world.groups.north.id);
    expectStatus(await patch(world.limited.manager.client, sitePath(mine.id), { group_id: world.groups.harbor.id }), 200);
    const before = await siteWorldSnapshot(org());
    // A site outside every group would be out of their sight.
    expectProblem(await post(world.limited.manager.client, sitesPath(), { name: 'Ungrouped' }), 403, 'forbidden');
    expectProblem(await patch(world.limited.manager.client, sitePath(mine.id), { group_id: null }), 403, 'forbidden');
    // South is as unknown to them as another organization's group.
    expectProblem(await post(world.limited.manager.client, sitesPath(), { name: 'Southern', group_id: world.groups.south.id }), 422, 'validation_failed', ['group_id']);
    expectProblem(await patch(world.limited.manager.client, sitePath(mine.id), { group_id: world.groups.south.id }), 422, 'validation_failed', ['group_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });
});

describe('POST /orgs/{org}/sites/move', () => {
  it('puts every listed site in the group, and with group_id null in none', async () => {
    const sites = await Promise.all([1, 2, 3].map(() => createSite(world.manager, org())));
    const ids = sites.map((s) => s.id);
    const moved = expectStatus(await post(world.manager.client, movePath(), { site_ids: ids, group_id: world.groups.south.id }), 200);
    expect(moved).toEqual({ group_id: world.groups.south.id, site_ids: ids });
    for (const id of ids) expect(await groupOf(id)).toBe(world.groups.south.id);
    // Moving them where they are changes nothing: no audit entry.
    const [{ n: auditBefore }] = await db()`select count(*)::int as n from public.audit_log where org_id = ${org()}`;
    expectStatus(await post(world.manager.client, movePath(), { site_ids: ids, group_id: world.groups.south.id }), 200);
    const [{ n: auditAfter }] = await db()`select count(*)::int as n from public.audit_log where org_id = ${org()}`;
    expect(auditAfter).toBe(auditBefore);
    expect(expectStatus(await post(world.admin.client, movePath(), { site_ids: ids, group_id: null }), 200)).toEqual({ group_id: null, site_ids: ids });
    for (const id of ids) expect(await groupOf(id)).toBeNull();
  });

  it('moves 500 sites in one request, and refuses 501', async () => {
    const { owner, org: o } = await team({ label: 'gsites-500', org: 'Five hundred', owner: 'Olive Owner' });
    const group = await createGroup(owner, o.id, 'All of them');
    const rows = await db()`
      insert into public.sites (org_id, name, geofence_m) select ${o.id}, 'Site ' || n, 100 from generate_series(1, 501) n returning id
    `;
    const ids = rows.map((row) => row.id as string);
    const tooMany = expectProblem(await post(owner.client, `orgs/${o.id}/sites/move`, { site_ids: ids, group_id: group.id }), 422, 'validation_failed', ['site_ids']);
    expect(tooMany.errors[0].message).toBe('Move at most 500 sites at a time.');
    expect((await db()`select count(*)::int as n from public.sites where group_id = ${group.id}`)[0].n).toBe(0);
    expectStatus(await post(owner.client, `orgs/${o.id}/sites/move`, { site_ids: ids.slice(0, 500), group_id: group.id }), 200);
    expect((await db()`select count(*)::int as n from public.sites where group_id = ${group.id}`)[0].n).toBe(500);
  });

  it("refuses the whole move when a site is another organization's or unknown, naming each, and moves none", async () => {
    const mine = await createSite(world.manager, org());
    const before = await siteWorldSnapshot(org());
    const problem = expectProblem(
      await post(world.manager.client, movePath(), { site_ids: [mine.id, other.site.id, MISSING_ID], group_id: world.groups.south.id }),
      422, 'validation_failed', ['site_ids.1', 'site_ids.2'],
    );
    expect(problem.errors.map((e: any) => e.message)).toEqual(['Choose sites of this organization.', 'Choose sites of this organization.']);
    expectProblem(await post(world.manager.client, movePath(), { site_ids: [mine.id], group_id: other.group.id }), 422, 'validation_failed', ['group_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('refuses every bad body with field errors and writes nothing', async () => {
    const before = await siteWorldSnapshot(org());
    const id = world.sites.loose.id;
    const cases: Array<[unknown, string[], string?]> = [
      [{ group_id: world.groups.south.id }, ['site_ids'], 'List the sites by id.'],
      [{ site_ids: [], group_id: world.groups.south.id }, ['site_ids'], 'Choose at least one site.'],
      [{ site_ids: [id, id], group_id: world.groups.south.id }, ['site_ids'], 'List each site once.'],
      [{ site_ids: ['loose'], group_id: world.groups.south.id }, ['site_ids.0'], 'Use a valid id.'],
      [{ site_ids: id, group_id: world.groups.south.id }, ['site_ids'], 'List the sites by id.'],
      // group_id says where: null is "in no group", absent is a mistake.
      [{ site_ids: [id] }, ['group_id']],
      [{ site_ids: [id], group_id: 'south' }, ['group_id'], 'Use a valid id.'],
      [{ site_ids: [id], group_id: null, archived: true }, ['archived'], 'This field is not allowed.'],
    ];
    for (const [body, fields, message] of cases) {
      const problem = expectProblem(await post(world.manager.client, movePath(), body), 422, 'validation_failed', fields);
      if (message) expect(problem.errors[0].message, JSON.stringify(body)).toBe(message);
    }
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('is 403 for inspectors and viewers and 404 for another organization; nothing moves', async () => {
    const before = await siteWorldSnapshot(org());
    const body = { site_ids: [world.sites.loose.id], group_id: world.groups.south.id };
    for (const role of ['inspector', 'viewer'] as const) expectProblem(await post(world.byRole[role].client, movePath(), body), 403, 'forbidden');
    expectProblem(await post(other.owner.client, movePath(), body), 404, 'not_found');
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('lets a limited manager move sites between their groups; a site outside them is unknown, and none may leave them', async () => {
    const a = await createSite(world.limited.manager, org(), { group_id: world.groups.north.id });
    const b = await createSite(world.limited.manager, org(), { group_id: world.groups.north.id });
    expectStatus(await post(world.limited.manager.client, movePath(), { site_ids: [a.id, b.id], group_id: world.groups.harbor.id }), 200);
    expect(await groupOf(a.id)).toBe(world.groups.harbor.id);
    const before = await siteWorldSnapshot(org());
    // South's site: as unknown to them as another organization's.
    const outside = await post(world.limited.manager.client, movePath(), { site_ids: [a.id, world.sites.south.id], group_id: world.groups.north.id });
    const elsewhere = await post(world.limited.manager.client, movePath(), { site_ids: [a.id, other.site.id], group_id: world.groups.north.id });
    expectProblem(outside, 422, 'validation_failed', ['site_ids.1']);
    expect({ ...outside.body, request_id: null }).toEqual({ ...elsewhere.body, request_id: null });
    expectProblem(await post(world.limited.manager.client, movePath(), { site_ids: [a.id], group_id: null }), 403, 'forbidden');
    expectProblem(await post(world.limited.manager.client, movePath(), { site_ids: [a.id], group_id: world.groups.south.id }), 422, 'validation_failed',
      ['group_id']);
    expect(await siteWorldSnapshot(org())).toEqual(before);
  });

  it('lets a manager key move sites; an inspector key gets 403', async () => {
    const [manager, inspector] = await Promise.all([createKey(world.owner, org(), 'manager'), createKey(world.owner, org(), 'inspector')]);
    const site = await createSite(world.manager, org());
    expectStatus(await post(manager.client, movePath(), { site_ids: [site.id], group_id: world.groups.south.id }), 200);
    expectProblem(await post(inspector.client, movePath(), { site_ids: [site.id], group_id: null }), 403, 'forbidden');
    expect(await groupOf(site.id)).toBe(world.groups.south.id);
  });
});

describe('GET /orgs/{org}/sites?site_group_id=', () => {
  it('lists the sites of a group and of its subgroups, with and without a search, near or not', async () => {
    const name = `Filtered ${tag()}`;
    const [inNorth, inHarbor, inSouth] = await Promise.all([
      createGeofencedSite(world.manager, org(), { name: `${name} north`, group_id: world.groups.north.id }),
      createGeofencedSite(world.manager, org(), { name: `${name} harbor`, group_id: world.groups.harbor.id }),
      createGeofencedSite(world.manager, org(), { name: `${name} south`, group_id: world.groups.south.id }),
    ]);
    const ids = async (query: string) => (await allPages(world.viewer.client, `${sitesPath()}?${query}`, 2)).flat().map((s: any) => s.id);
    const north = await ids(`site_group_id=${world.groups.north.id}`);
    expect(north).toEqual(expect.arrayContaining([inNorth.id, inHarbor.id, world.sites.harbor.id]));
    expect(north).not.toContain(inSouth.id);
    expect(north).not.toContain(world.sites.loose.id);
    expect(await ids(`site_group_id=${world.groups.harbor.id}&q=${encodeURIComponent(name)}`)).toEqual([inHarbor.id]);
    expect((await ids(`site_group_id=${world.groups.north.id}&q=${encodeURIComponent(name)}`)).sort()).toEqual([inNorth.id, inHarbor.id].sort());
    expect(await ids(`site_group_id=${world.groups.south.id}&near=51.5,-0.12&q=${encodeURIComponent(name)}`)).toEqual([inSouth.id]);
    // An unknown group, or another organization's, selects nothing, as an unknown site_id does.
    expect(await ids(`site_group_id=${other.group.id}`)).toEqual([]);
    expectProblem(await call(world.viewer.client, `${sitesPath()}?site_group_id=north`), 422, 'validation_failed', ['query.site_group_id']);
  });

  it("gives a limited member only their groups' sites, whatever group they filter by", async () => {
    const all = (await allPages(world.limited.inspector.client, sitesPath(), 200)).flat().map((s: any) => s.id);
    expect(all).toContain(world.sites.harbor.id);
    expect(all).not.toContain(world.sites.south.id);
    expect(all).not.toContain(world.sites.loose.id);
    const south = (await allPages(world.limited.inspector.client, `${sitesPath()}?site_group_id=${world.groups.south.id}`, 200)).flat();
    expect(south).toEqual([]);
    // North is theirs only below Harbor: filtering by it gives Harbor's sites alone.
    const north = (await allPages(world.limited.inspector.client, `${sitesPath()}?site_group_id=${world.groups.north.id}`, 200)).flat();
    expect(north.every((s: any) => s.group_id === world.groups.harbor.id)).toBe(true);
    expect(north.map((s: any) => s.id)).toContain(world.sites.harbor.id);
  });
});
