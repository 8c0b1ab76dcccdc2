// The inspections list of a member limited to site groups is read site by site while they see at
// most 1,000 sites, and beyond by private.inspections_by_site_group, which keeps each inspection's
// site group in the list's order (api/inspections.ts, gatedPageSql and groupWalkedPageSql;
// docs/site-groups.md, "Hot paths"). Either way it is the same list: the org-wide list narrowed to
// their groups, in the same order, paged without repeats or gaps, with the list's filters and a
// forged cursor refused; and a site moved into or out of their groups is in or out of it at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, expectStatus, patch } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { scheduleInspection, tag } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { createKey, type Key } from '../keys/support.ts';
import { at, regionWorldAndOtherOrg } from './support.ts';

const { world } = regionWorldAndOtherOrg('list');
const org = () => world.org.id;
const listPath = (query = '') => `orgs/${org()}/inspections${query ? `?${query}` : ''}`;
const ids = async (client: any, query: string, limit: number) => (await allPages(client, listPath(query), limit)).flat().map((i: any) => i.id);

const word = `Walkway ${tag()}`;
let key: Key;
beforeAll(async () => {
  // Inspections at Harbor's site and South's, interleaved in time, a few titled with `word`.
  for (let n = 0; n < 6; n++) {
    await scheduleInspection(at(world, world.sites.harbor), { title: n % 2 ? `${word} ${n}` : `Harbor ${n}` });
    await scheduleInspection(at(world, world.sites.south), { title: `${word} south ${n}` });
  }
  key = await createKey(world.owner, org(), 'viewer', { site_group_ids: [world.groups.harbor.id] });
});

/** What the org-wide owner's list gives for Harbor's group, as the reference. */
const reference = (query: string) => ids(world.owner.client, [`site_group_id=${world.groups.harbor.id}`, query].filter(Boolean).join('&'), 200);

async function expectSameListAsReference() {
  for (const query of ['', 'status=scheduled', `q=${encodeURIComponent(word)}`, 'status=approved']) {
    const expected = await reference(query);
    for (const client of [world.limited.inspector.client, key.client]) {
      for (const limit of [1, 2, 200]) expect(await ids(client, query, limit), `${query} by ${limit}`).toEqual(expected);
    }
  }
}

describe('the inspections list of a member limited to site groups', () => {
  it('seeing few sites (site by site): the org-wide list narrowed to its groups, in order, every page once', async () => {
    const [{ n }] = await db()`select count(*)::int as n from public.sites where group_id = ${world.groups.harbor.id}`;
    expect(n).toBeLessThanOrEqual(1000);
    expect((await reference('')).length).toBe(6);
    await expectSameListAsReference();
  });

  it('keeps its place when an inspection changes between pages', async () => {
    const first = expectStatus(await call(world.limited.inspector.client, listPath('limit=3')), 200);
    expectStatus(await patch(world.manager.client, `orgs/${org()}/inspections/${first.data[0].id}`, { title: `Renamed ${tag()}` }), 200);
    const second = expectStatus(await call(world.limited.inspector.client, listPath(`limit=3&cursor=${encodeURIComponent(first.next_cursor)}`)), 200);
    expect([...first.data, ...second.data].map((i: any) => i.id)).toEqual(await reference(''));
  });

  it('refuses cursors it did not issue with 422 on query.cursor', async () => {
    const cursors = forgedCursors();
    expect(await cursorOutcomes(world.limited.inspector.client, listPath(), cursors)).toEqual(refusedCursors(cursors));
    expectProblem(await call(world.limited.inspector.client, listPath('status=nope')), 422, 'validation_failed', ['query.status']);
  });

  it('seeing more than 1,000 sites (the organization\'s index): the same list', async () => {
    await db()`
      insert into public.sites (org_id, name, geofence_m, group_id)
      select ${org()}, 'Harbor berth ' || n, 100, ${world.groups.harbor.id} from generate_series(1, 1000) n
    `;
    const [{ n }] = await db()`select count(*)::int as n from public.sites where group_id = ${world.groups.harbor.id}`;
    expect(n).toBeGreaterThan(1000);
    await expectSameListAsReference();
  });

  it('seeing more than 1,000 sites: a site moved into its groups is in the list at once, and out of it when moved away', async () => {
    // A key made now reads its first page by the gated statement and the next ones by the statement
    // its read plan then names (a limited caller seeing more than 1,000 sites: groupWalkedPageSql).
    const fresh = await createKey(world.owner, org(), 'viewer', { site_group_ids: [world.groups.harbor.id] });
    const sitePath = `orgs/${org()}/sites/${world.sites.south.id}`;
    const southIds = (await ids(world.owner.client, `site_id=${world.sites.south.id}`, 200));
    expect(southIds.length).toBe(6);
    const expectListOf = async (expected: string[]) => {
      for (const client of [world.limited.inspector.client, fresh.client]) {
        for (const limit of [1, 5, 200]) expect(await ids(client, '', limit), `by ${limit}`).toEqual(expected);
      }
    };

    expectStatus(await patch(world.manager.client, sitePath, { group_id: world.groups.harbor.id }), 200);
    const withSouth = await reference('');
    expect(withSouth.filter((id: string) => southIds.includes(id)).length).toBe(6);
    await expectListOf(withSouth);
    // With filters too (the planner then chooses the joins' order itself).
    for (const query of ['status=scheduled', `q=${encodeURIComponent(word)}`]) {
      expect(await ids(fresh.client, query, 2), query).toEqual(await reference(query));
    }

    expectStatus(await patch(world.manager.client, sitePath, { group_id: world.groups.south.id }), 200);
    const withoutSouth = await reference('');
    expect(withoutSouth.filter((id: string) => southIds.includes(id))).toEqual([]);
    await expectListOf(withoutSouth);
  });
});
