// Sites: owners, admins and managers create, edit and archive them; every member reads them; the
// list searches, sorts by distance, filters archived ones and pages by keyset so that inserts
// between pages neither repeat nor skip a site; every bad request is refused and writes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createSite, orgWithEveryRoleAndStranger, tag } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, del, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { orgSnapshot } from '../../support/snapshots.ts';

const { fixture, stranger } = orgWithEveryRoleAndStranger({ default_geofence_m: 150 });

const sitesPath = (orgId: string) => `orgs/${orgId}/sites`;
const sitePath = (orgId: string, id: string) => `orgs/${orgId}/sites/${id}`;

// Great-circle distance on the same sphere the product uses (mean Earth radius).
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(a));
}

describe('POST /orgs/{org}/sites', () => {
  it('creates a site with the organization\'s default geofence and UTC when only a name is given', async () => {
    const site = await createSite(fixture.manager, fixture.org.id, { name: '  Cold Store  ' });
    expect(site).toEqual({
      id: expect.stringMatching(UUID),
      org_id: fixture.org.id,
      name: 'Cold Store',
      address: null,
      latitude: null,
      longitude: null,
      geofence_m: 150,
      timezone: 'UTC',
      external_ref: null,
      group_id: null,
      archived_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const [row] = await db()`select name, geofence_m, timezone, created_by from public.sites where id = ${site.id}`;
    expect(row).toEqual({ name: 'Cold Store', geofence_m: 150, timezone: 'UTC', created_by: fixture.manager.userId });
  });

  it('stores every field given, trimmed, at the edges of their ranges', async () => {
    const ref = `ERP-${tag()}`;
    const site = await createSite(fixture.admin, fixture.org.id, {
      name: 'North Pole Station',
      address: ' 1 Ice Road ',
      latitude: 90,
      longitude: -180,
      geofence_m: 5000,
      timezone: 'America/New_York',
      external_ref: ` ${ref} `,
    });
    expect(site).toMatchObject({ address: '1 Ice Road', latitude: 90, longitude: -180, geofence_m: 5000, timezone: 'America/New_York', external_ref: ref });
    const other = await createSite(fixture.owner, fixture.org.id, { name: 'South', latitude: -90, longitude: 180, geofence_m: 10, address: '', external_ref: null });
    expect(other).toMatchObject({ latitude: -90, longitude: 180, geofence_m: 10, address: null, external_ref: null });
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 forbidden and writes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await post(fixture.byRole[role].client, sitesPath(fixture.org.id), { name: `By ${role}` }), 403, 'forbidden');
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('refuses an external ref the organization already uses with 409 duplicate; another organization may use it', async () => {
    const ref = `CMMS-${tag()}`;
    await createSite(fixture.manager, fixture.org.id, { name: 'First', external_ref: ref });
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await post(fixture.manager.client, sitesPath(fixture.org.id), { name: 'Second', external_ref: ref }), 409, 'duplicate');
    expect(problem.title).toBe('A site with that external ref already exists.');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);

    const elsewhere = await createOrg(stranger);
    expect((await createSite(stranger, elsewhere.id, { name: 'Same ref', external_ref: ref })).external_ref).toBe(ref);
  });

  const badBodies: Array<{ name: string; body: unknown; fields: string[]; headers?: Record<string, string> }> = [
    { name: 'an unknown key', body: { name: 'Yard', owner: 'me' }, fields: ['owner'] },
    { name: 'an org_id in the body', body: { name: 'Yard', org_id: MISSING_ID }, fields: ['org_id'] },
    { name: 'archived on create', body: { name: 'Yard', archived: true }, fields: ['archived'] },
    { name: 'no name', body: { address: 'Somewhere' }, fields: ['name'] },
    { name: 'an empty name', body: { name: ' ' }, fields: ['name'] },
    { name: 'a name of 121 characters', body: { name: 's'.repeat(121) }, fields: ['name'] },
    { name: 'a name of the wrong type', body: { name: 7 }, fields: ['name'] },
    { name: 'a name with a NUL character', body: { name: 'Ya\u0000rd' }, fields: ['name'] },
    { name: 'an address with a NUL character', body: { name: 'Yard', address: '1 Road\u0000' }, fields: ['address'] },
    { name: 'an external ref with a NUL character', body: { name: 'Yard', external_ref: 'R\u00001' }, fields: ['external_ref'] },
    { name: 'an address of 501 characters', body: { name: 'Yard', address: 'a'.repeat(501) }, fields: ['address'] },
    { name: 'an address of the wrong type', body: { name: 'Yard', address: 42 }, fields: ['address'] },
    { name: 'a latitude of 91', body: { name: 'Yard', latitude: 91, longitude: 0 }, fields: ['latitude'] },
    { name: 'a latitude of -90.5', body: { name: 'Yard', latitude: -90.5, longitude: 0 }, fields: ['latitude'] },
    { name: 'a longitude of 181', body: { name: 'Yard', latitude: 0, longitude: 181 }, fields: ['longitude'] },
    { name: 'a longitude of -180.01', body: { name: 'Yard', latitude: 0, longitude: -180.01 }, fields: ['longitude'] },
    { name: 'a latitude as a string', body: { name: 'Yard', latitude: '51.5', longitude: 0 }, fields: ['latitude'] },
    { name: 'only a latitude', body: { name: 'Yard', latitude: 51.5 }, fields: ['longitude'] },
    { name: 'only a longitude', body: { name: 'Yard', longitude: -0.12 }, fields: ['latitude'] },
    { name: 'a latitude with a null longitude', body: { name: 'Yard', latitude: 51.5, longitude: null }, fields: ['longitude'] },
    { name: 'a geofence of 9 m', body: { name: 'Yard', geofence_m: 9 }, fields: ['geofence_m'] },
    { name: 'a geofence of 5001 m', body: { name: 'Yard', geofence_m: 5001 }, fields: ['geofence_m'] },
    { name: 'a fractional geofence', body: { name: 'Yard', geofence_m: 12.5 }, fields: ['geofence_m'] },
    { name: 'an unknown time zone', body: { name: 'Yard', timezone: 'Mars/Olympus_Mons' }, fields: ['timezone'] },
    { name: 'an empty time zone', body: { name: 'Yard', timezone: '' }, fields: ['timezone'] },
    { name: 'a time zone offset string', body: { name: 'Yard', timezone: '+25:00' }, fields: ['timezone'] },
    { name: 'a time zone of the wrong type', body: { name: 'Yard', timezone: 1 }, fields: ['timezone'] },
    { name: 'an external ref of 256 characters', body: { name: 'Yard', external_ref: 'r'.repeat(256) }, fields: ['external_ref'] },
    { name: 'several bad fields', body: { name: '', latitude: 100, longitude: 200, geofence_m: 1 }, fields: ['name', 'latitude', 'longitude', 'geofence_m'] },
    { name: 'a JSON array', body: [{ name: 'Yard' }], fields: ['body'] },
    { name: 'malformed JSON', body: '{"name":', headers: { 'Content-Type': 'application/json' }, fields: ['body'] },
    { name: 'a body that is not JSON', body: 'name=Yard', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];
  for (const bad of badBodies) {
    it(`refuses ${bad.name} with 422 validation_failed and writes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      const outcome = await call(fixture.manager.client, sitesPath(fixture.org.id), { method: 'POST', body: bad.body, headers: bad.headers });
      expectProblem(outcome, 422, 'validation_failed', bad.fields);
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('is 404 for a stranger and an unknown org, 422 for a malformed org id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await post(stranger.client, sitesPath(fixture.org.id), { name: 'Mine' }), 404, 'not_found');
    expectProblem(await post(fixture.manager.client, sitesPath(MISSING_ID), { name: 'Nowhere' }), 404, 'not_found');
    expectProblem(await post(fixture.manager.client, sitesPath('0000'), { name: 'Nowhere' }), 422, 'validation_failed', ['org']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});

describe('GET·PATCH·DELETE /orgs/{org}/sites/{id}', () => {
  let site: any;
  beforeAll(async () => {
    site = await createSite(fixture.manager, fixture.org.id, { name: 'Loading Bay', address: '5 Quay Street', latitude: 53.4, longitude: -2.99 });
  });

  it('shows the site to every role', async () => {
    for (const user of Object.values(fixture.byRole)) {
      expect(expectStatus(await call(user.client, sitePath(fixture.org.id, site.id)), 200)).toEqual(site);
    }
  });

  it('is 404 for an unknown id and a stranger, 422 for a malformed id', async () => {
    expectProblem(await call(fixture.viewer.client, sitePath(fixture.org.id, MISSING_ID)), 404, 'not_found');
    expectProblem(await call(stranger.client, sitePath(fixture.org.id, site.id)), 404, 'not_found');
    expectProblem(await call(fixture.viewer.client, sitePath(fixture.org.id, 'bay')), 422, 'validation_failed', ['id']);
  });

  it('lets a manager edit fields, move and clear the position', async () => {
    const moved = expectStatus(await patch(fixture.manager.client, sitePath(fixture.org.id, site.id), { name: 'Loading Bay 2', latitude: 53.41, longitude: -2.98, timezone: 'Europe/London' }), 200);
    expect(moved).toMatchObject({ id: site.id, name: 'Loading Bay 2', latitude: 53.41, longitude: -2.98, timezone: 'Europe/London', address: '5 Quay Street' });
    expect(Date.parse(moved.updated_at)).toBeGreaterThanOrEqual(Date.parse(site.updated_at));
    const cleared = expectStatus(await patch(fixture.admin.client, sitePath(fixture.org.id, site.id), { latitude: null, longitude: null, address: null }), 200);
    expect(cleared).toMatchObject({ latitude: null, longitude: null, address: null });
    const [row] = await db()`select name, latitude, longitude, address from public.sites where id = ${site.id}`;
    expect(row).toEqual({ name: 'Loading Bay 2', latitude: null, longitude: null, address: null });
    site = cleared;
  });

  it('archives and restores with archived: true / false', async () => {
    const archived = expectStatus(await patch(fixture.manager.client, sitePath(fixture.org.id, site.id), { archived: true }), 200);
    expect(archived.archived_at).toMatch(ISO_TIMESTAMP);
    const restored = expectStatus(await patch(fixture.manager.client, sitePath(fixture.org.id, site.id), { archived: false }), 200);
    expect(restored.archived_at).toBeNull();
    site = restored;
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} editing or archiving with 403 and changes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await patch(fixture.byRole[role].client, sitePath(fixture.org.id, site.id), { name: 'Renamed' }), 403, 'forbidden');
      expectProblem(await del(fixture.byRole[role].client, sitePath(fixture.org.id, site.id)), 403, 'forbidden');
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  const badPatches: Array<{ name: string; body: unknown; fields: string[] }> = [
    { name: 'an empty object', body: {}, fields: ['body'] },
    { name: 'an unknown key', body: { name: 'Ok', archived_at: '2020-01-01T00:00:00Z' }, fields: ['archived_at'] },
    { name: 'an org_id', body: { name: 'Ok', org_id: MISSING_ID }, fields: ['org_id'] },
    { name: 'an empty name', body: { name: '' }, fields: ['name'] },
    { name: 'a null name', body: { name: null }, fields: ['name'] },
    { name: 'only a latitude', body: { latitude: 10 }, fields: ['longitude'] },
    { name: 'a latitude out of range', body: { latitude: 90.0001, longitude: 0 }, fields: ['latitude'] },
    { name: 'a longitude out of range', body: { latitude: 0, longitude: 180.5 }, fields: ['longitude'] },
    { name: 'a geofence of 5001 m', body: { geofence_m: 5001 }, fields: ['geofence_m'] },
    { name: 'a bad time zone', body: { timezone: 'Europe/Atlantis' }, fields: ['timezone'] },
    { name: 'archived as a string', body: { archived: 'yes' }, fields: ['archived'] },
    { name: 'a body that is not JSON', body: 'name=x', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];
  for (const bad of badPatches) {
    it(`refuses a PATCH with ${bad.name} with 422 and changes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await call(fixture.manager.client, sitePath(fixture.org.id, site.id), { method: 'PATCH', body: bad.body }), 422, 'validation_failed', bad.fields);
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('refuses a PATCH to an external ref another site has with 409 duplicate', async () => {
    const ref = `DUP-${tag()}`;
    await createSite(fixture.manager, fixture.org.id, { name: 'Ref holder', external_ref: ref });
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await patch(fixture.manager.client, sitePath(fixture.org.id, site.id), { external_ref: ref }), 409, 'duplicate');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('is 404 for PATCH and DELETE of an unknown id, 422 for a malformed one', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await patch(fixture.manager.client, sitePath(fixture.org.id, MISSING_ID), { name: 'Ghost' }), 404, 'not_found');
    expectProblem(await del(fixture.manager.client, sitePath(fixture.org.id, MISSING_ID)), 404, 'not_found');
    expectProblem(await patch(fixture.manager.client, sitePath(fixture.org.id, 'x'), { name: 'Ghost' }), 422, 'validation_failed', ['id']);
    expectProblem(await del(fixture.manager.client, sitePath(fixture.org.id, 'x')), 422, 'validation_failed', ['id']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('DELETE archives (200 with archived_at) and keeps the row', async () => {
    const deleted = expectStatus(await del(fixture.manager.client, sitePath(fixture.org.id, site.id)), 200);
    expect(deleted).toMatchObject({ id: site.id, name: site.name, archived_at: expect.stringMatching(ISO_TIMESTAMP) });
    const [row] = await db()`select archived_at from public.sites where id = ${site.id}`;
    expect(row.archived_at).toBeInstanceOf(Date);
    expect(expectStatus(await call(fixture.viewer.client, sitePath(fixture.org.id, site.id)), 200).archived_at).toBe(deleted.archived_at);
  });
});

describe('GET /orgs/{org}/sites', () => {
  let searchOrg: any;
  let warehouse: any;
  let office: any;
  let depot: any;
  let archivedSite: any;
  let dairy: any;
  let gate: any;

  beforeAll(async () => {
    searchOrg = await createOrg(fixture.owner, { name: `Search ${tag()}` });
    warehouse = await createSite(fixture.owner, searchOrg.id, { name: 'Warehouse North', address: '1 Dock Road', external_ref: 'WMS-1001' });
    office = await createSite(fixture.owner, searchOrg.id, { name: 'Office Central', address: '22 High Street' });
    depot = await createSite(fixture.owner, searchOrg.id, { name: 'Bus Depot', external_ref: 'erp-2002' });
    dairy = await createSite(fixture.owner, searchOrg.id, { name: 'Dairy 100%' });
    gate = await createSite(fixture.owner, searchOrg.id, { name: 'Farm_Gate' });
    archivedSite = await createSite(fixture.owner, searchOrg.id, { name: 'Closed Warehouse' });
    expectStatus(await del(fixture.owner.client, sitePath(searchOrg.id, archivedSite.id)), 200);
  });

  it('lists active sites by name by default', async () => {
    const page = expectStatus(await call(fixture.owner.client, sitesPath(searchOrg.id)), 200);
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((s: { id: string }) => s.id)).toEqual([depot.id, dairy.id, gate.id, office.id, warehouse.id]);
    expect(page.data[0]).toEqual(depot);
    expect(page.data[0]).not.toHaveProperty('distance_m');
  });

  it('lists every role the sites of its organization', async () => {
    for (const user of Object.values(fixture.byRole)) {
      const page = expectStatus(await call(user.client, sitesPath(fixture.org.id)), 200);
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.every((s: { org_id: string }) => s.org_id === fixture.org.id)).toBe(true);
    }
  });

  it('filters archived=false (default), true and all', async () => {
    const ids = async (query: string) =>
      expectStatus(await call(fixture.owner.client, `${sitesPath(searchOrg.id)}${query}`), 200).data.map((s: { id: string }) => s.id);
    expect(await ids('?archived=false')).toEqual([depot.id, dairy.id, gate.id, office.id, warehouse.id]);
    expect(await ids('?archived=true')).toEqual([archivedSite.id]);
    expect(await ids('?archived=all')).toEqual([depot.id, archivedSite.id, dairy.id, gate.id, office.id, warehouse.id]);
    expect(await ids('')).toEqual(await ids('?archived=false'));
  });

  it('searches name, address and external ref by substring in any case', async () => {
    const ids = async (q: string, extra = '') =>
      expectStatus(await call(fixture.owner.client, `${sitesPath(searchOrg.id)}?q=${encodeURIComponent(q)}${extra}`), 200).data.map((s: { id: string }) => s.id);
    expect(await ids('HOUSE')).toEqual([warehouse.id]);
    expect(await ids('house', '&archived=all')).toEqual([archivedSite.id, warehouse.id]);
    expect(await ids('DOCK road')).toEqual([warehouse.id]);
    expect(await ids('high st')).toEqual([office.id]);
    expect(await ids('ERP-2')).toEqual([depot.id]);
    expect(await ids('wms-100')).toEqual([warehouse.id]);
    expect(await ids('zzz')).toEqual([]);
    // Pattern characters are literal: % and _ match only themselves.
    expect(await ids('%')).toEqual([dairy.id]);
    expect(await ids('0%')).toEqual([dairy.id]);
    expect(await ids('_')).toEqual([gate.id]);
    expect(await ids('m_g')).toEqual([gate.id]);
    expect(await ids('\\')).toEqual([]);
    expect(await ids('  dairy  ')).toEqual([dairy.id]);
  });

  it('orders by distance from near=lat,lng with distance_m on each row, nearest first', async () => {
    const geoOrg = await createOrg(fixture.owner, { name: `Geo ${tag()}` });
    const places = [
      { name: 'Edinburgh', latitude: 55.9533, longitude: -3.1883 },
      { name: 'Paris', latitude: 48.8566, longitude: 2.3522 },
      { name: 'London', latitude: 51.5072, longitude: -0.1276 },
      { name: 'Oxford', latitude: 51.752, longitude: -1.2577 },
    ];
    for (const place of places) await createSite(fixture.owner, geoOrg.id, place);
    await createSite(fixture.owner, geoOrg.id, { name: 'Aardvark (no position)' });

    const origin = { latitude: 51.5072, longitude: -0.1276 };
    const page = expectStatus(await call(fixture.owner.client, `${sitesPath(geoOrg.id)}?near=${origin.latitude},${origin.longitude}`), 200);
    const positioned = page.data.filter((s: { latitude: number | null }) => s.latitude !== null);
    expect(positioned.map((s: { name: string }) => s.name)).toEqual(['London', 'Oxford', 'Paris', 'Edinburgh']);
    for (const row of positioned) {
      const expected = haversine(origin.latitude, origin.longitude, row.latitude, row.longitude);
      expect(typeof row.distance_m).toBe('number');
      expect(Math.abs(row.distance_m - expected)).toBeLessThanOrEqual(Math.max(1, expected * 0.005));
    }
    expect(positioned[0].distance_m).toBeLessThan(1);
    // A site without a position has no distance and comes after every positioned one.
    expect(page.data).toHaveLength(5);
    expect(page.data.slice(0, 4)).toEqual(positioned);
    expect(page.data[4]).toMatchObject({ name: 'Aardvark (no position)', distance_m: null });

    const searched = expectStatus(await call(fixture.owner.client, `${sitesPath(geoOrg.id)}?near=48.85,2.35&q=o`), 200);
    // q and near combine: names with an "o", nearest to Paris first, the one without a position last.
    expect(searched.data.map((s: { name: string }) => s.name)).toEqual(['London', 'Oxford', 'Aardvark (no position)']);
  });

  const badQueries: Array<[string, string]> = [
    ['near=abc', 'query.near'],
    ['near=51.5', 'query.near'],
    ['near=91,0', 'query.near'],
    ['near=0,181', 'query.near'],
    ['near=1,2,3', 'query.near'],
    ['near=,', 'query.near'],
    ['near=', 'query.near'],
    ['limit=0', 'query.limit'],
    ['limit=201', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['archived=maybe', 'query.archived'],
    ['q=' + 'q'.repeat(201), 'query.q'],
    ['q=a%00b', 'query.q'],
    ['sort=name', 'query.sort'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query.slice(0, 40)} with 422 on ${field}`, async () => {
      expectProblem(await call(fixture.viewer.client, `${sitesPath(fixture.org.id)}?${query}`), 422, 'validation_failed', [field]);
    });
  }

  it('refuses cursors it did not issue with 422 on query.cursor, with and without near', async () => {
    const cursors = forgedCursors();
    expect(await cursorOutcomes(fixture.viewer.client, sitesPath(fixture.org.id), cursors)).toEqual(refusedCursors(cursors));
    expect(await cursorOutcomes(fixture.viewer.client, `${sitesPath(fixture.org.id)}?near=1,1`, cursors)).toEqual(refusedCursors(cursors));
  });

  it('is 404 for a stranger and an unknown org', async () => {
    expectProblem(await call(stranger.client, sitesPath(fixture.org.id)), 404, 'not_found');
    expectProblem(await call(fixture.owner.client, sitesPath(MISSING_ID)), 404, 'not_found');
  });
});

describe('paging through sites', () => {
  it('sees every site that existed exactly once while sites are added between pages (limit=5)', async () => {
    const pagingOrg = await createOrg(fixture.owner, { name: `Paging ${tag()}` });
    const numbers = Array.from({ length: 17 }, (_, i) => String(i + 1).padStart(2, '0'));
    const existing = await Promise.all(numbers.map((n) => createSite(fixture.owner, pagingOrg.id, { name: `pier ${n}` })));
    const existingIds = new Set(existing.map((s) => s.id));
    const addedAhead = new Set<string>();
    let round = 0;

    const pages = await allPages(fixture.owner.client, sitesPath(pagingOrg.id), 5, async (page) => {
      round++;
      const last = page[page.length - 1].name as string;
      // One site sorting before everything seen, one right after the page's last row, one at the end.
      await createSite(fixture.owner, pagingOrg.id, { name: `pier 00 r${round}` });
      const next = await createSite(fixture.owner, pagingOrg.id, { name: `${last} r${round}` });
      const end = await createSite(fixture.owner, pagingOrg.id, { name: `pier 99 r${round}` });
      addedAhead.add(next.id);
      addedAhead.add(end.id);
    });
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(5);

    const seen = pages.flat().map((s) => s.id);
    expect(new Set(seen).size, 'no site appears twice').toBe(seen.length);
    for (const id of existingIds) expect(seen.filter((s) => s === id)).toHaveLength(1);
    // Keyset paging also finds the rows inserted ahead of the cursor.
    for (const id of addedAhead) expect(seen).toContain(id);
    const names = pages.flat().map((s) => s.name);
    expect(names.filter((n) => /^pier \d\d$/.test(n))).toEqual(numbers.map((n) => `pier ${n}`));
  });

  it('pages through near results in distance order, each site once', async () => {
    const org = await createOrg(fixture.owner, { name: `Ring ${tag()}` });
    // Twelve sites due north of the origin, 1 km apart, created in scrambled order.
    const kms = [7, 2, 11, 4, 9, 1, 12, 5, 3, 10, 6, 8];
    for (const km of kms) await createSite(fixture.owner, org.id, { name: `km ${km}`, latitude: km / 111.195, longitude: 0 });
    // Two at the same spot (a tie broken by id) and three without a position (last, by id).
    const twins = [await createSite(fixture.owner, org.id, { name: 'twin a', latitude: 6 / 111.195, longitude: 0 })];
    twins.push(await createSite(fixture.owner, org.id, { name: 'twin b', latitude: 6 / 111.195, longitude: 0 }));
    const unplaced = [];
    for (const n of [1, 2, 3]) unplaced.push(await createSite(fixture.owner, org.id, { name: `unplaced ${n}` }));

    const pages = await allPages(fixture.owner.client, `${sitesPath(org.id)}?near=0,0`, 5);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(5);
    const rows = pages.flat();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const placed = rows.filter((r) => r.distance_m !== null);
    expect(placed.map((r) => r.distance_m)).toEqual([...placed.map((r) => r.distance_m)].sort((a, b) => a - b));
    expect(placed.filter((r) => r.name.startsWith('km')).map((r) => r.name)).toEqual([...kms].sort((a, b) => a - b).map((km) => `km ${km}`));
    expect(placed.map((r) => r.id)).toEqual(expect.arrayContaining(twins.map((t) => t.id)));
    expect(rows.slice(placed.length).map((r) => r.id)).toEqual(unplaced.map((u) => u.id).sort());
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 2]);
  });
});

describe('the limit of 100 000 sites per organization', () => {
  it('allows the 100 000th site and refuses the next with 422 limit_exceeded, writing nothing', { timeout: 180_000 }, async () => {
    const org = await createOrg(fixture.owner, { name: `Full ${tag()}` });
    // Filling through the API would take hours; the rows go in directly, without per-row triggers.
    await db().begin(async (sql) => {
      await sql`set local session_replication_role = replica`;
      await sql`
        insert into public.sites (org_id, name, geofence_m)
        select ${org.id}, 'bulk ' || lpad(g::text, 6, '0'), 200 from generate_series(1, 99999) g
      `;
    });
    await createSite(fixture.owner, org.id, { name: 'The last one' });
    const before = await db()`select count(*)::int as n from public.sites where org_id = ${org.id}`;
    expect(before[0].n).toBe(100_000);
    const problem = expectProblem(await post(fixture.owner.client, sitesPath(org.id), { name: 'One too many' }), 422, 'limit_exceeded');
    expect(problem.title).toMatch(/limit of 100[\s,.\u202f]?000 sites/);
    const after = await db()`select count(*)::int as n from public.sites where org_id = ${org.id}`;
    expect(after[0].n).toBe(100_000);
    await db().begin(async (sql) => {
      await sql`set local session_replication_role = replica`;
      await sql`delete from public.sites where org_id = ${org.id}`;
    });
  });
});
