// `GET /orgs/{org}/sites?group_id=`: the sites directly in one group, not in its subgroups, or with
// `none` the sites in no group — what the web's tree of groups lists under each group and at its
// end (docs/site-groups.md, "Screens"). A member limited to a group finds no site in none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, team, type User } from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { closeDb } from '../../support/database.ts';

let owner: User;
let inspector: User;
let orgId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const made = await team({ label: 'own-group', org: 'Own Group Foods', owner: 'Olga Owner', members: { inspector: ['inspector', 'Iris Inspector'] } });
  owner = made.owner;
  inspector = made.members.inspector;
  orgId = made.org.id;
  const north = expectStatus(await post(owner.client, `orgs/${orgId}/site-groups`, { name: 'North' }), 201);
  const harbour = expectStatus(await post(owner.client, `orgs/${orgId}/site-groups`, { name: 'Harbour', parent_id: north.id }), 201);
  Object.assign(ids, { north: north.id, harbour: harbour.id });
  ids.inNorth = (await createSite(owner, orgId, { name: 'Depot', group_id: north.id })).id;
  ids.inHarbour = (await createSite(owner, orgId, { name: 'Pier', group_id: harbour.id })).id;
  ids.nowhere = (await createSite(owner, orgId, { name: 'Annex' })).id;
  const archived = await createSite(owner, orgId, { name: 'Old Annex' });
  expectStatus(await patch(owner.client, `orgs/${orgId}/sites/${archived.id}`, { archived: true }), 200);
  ids.archivedNowhere = archived.id;
  expectStatus(await call(owner.client, `orgs/${orgId}/members/${inspector.userId}/access`, { method: 'PUT', body: { site_group_ids: [north.id] } }), 200);
});

afterAll(closeDb);

async function siteIds(by: User, query: Record<string, string>): Promise<string[]> {
  const body = expectStatus(await call(by.client, `orgs/${orgId}/sites?${new URLSearchParams(query)}`), 200);
  return body.data.map((site: { id: string }) => site.id);
}

describe('GET /orgs/{org}/sites?group_id=', () => {
  it('lists a group\'s own sites without its subgroups\' (site_group_id has them all)', async () => {
    expect(await siteIds(owner, { group_id: ids.north })).toEqual([ids.inNorth]);
    expect(await siteIds(owner, { group_id: ids.harbour })).toEqual([ids.inHarbour]);
    expect(await siteIds(owner, { site_group_id: ids.north })).toEqual([ids.inNorth, ids.inHarbour]);
  });

  it('lists the sites in no group with none, archived ones only when asked', async () => {
    expect(await siteIds(owner, { group_id: 'none' })).toEqual([ids.nowhere]);
    expect(await siteIds(owner, { group_id: 'none', archived: 'all' })).toEqual([ids.nowhere, ids.archivedNowhere]);
  });

  it('finds a limited member no site in no group, and their group\'s own sites as the owner does', async () => {
    expect(await siteIds(inspector, { group_id: 'none' })).toEqual([]);
    expect(await siteIds(inspector, { group_id: ids.north })).toEqual([ids.inNorth]);
    expect(await siteIds(inspector, { group_id: ids.harbour })).toEqual([ids.inHarbour]);
  });

  it('refuses anything but a group id or none', async () => {
    expectProblem(await call(owner.client, `orgs/${orgId}/sites?group_id=north`), 422, 'validation_failed', ['query.group_id']);
  });
});
