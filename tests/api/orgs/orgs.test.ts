// GET·POST /orgs and GET·PATCH·DELETE /orgs/{org} through the real gateway with supabase-js:
// creating makes the caller the owner, every role reads its organization with its own role,
// only owners and admins change settings, only owners delete, and every bad request is refused
// with its catalogue code and field errors without writing anything.
import { describe, expect, it } from 'vitest';
import { createOrg, newUser, orgWithEveryRoleAndStranger, tag } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, del, expectNoRawDatabaseText, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { orgSnapshot, userSnapshot } from '../../support/snapshots.ts';

const { fixture, stranger } = orgWithEveryRoleAndStranger({ name: `Alpha Inspections ${tag()}` });

describe('POST /orgs', () => {
  it('creates an organization with the caller as its owner, a slug from the name and default settings', async () => {
    const creator = await newUser('creator', 'Cleo Creator');
    const suffix = tag();
    const body = expectStatus(await post(creator.client, 'orgs', { name: `  Acme Foods, Ltd. ${suffix}  ` }), 201);
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      slug: `acme-foods-ltd-${suffix}`,
      name: `Acme Foods, Ltd. ${suffix}`,
      require_mfa: false,
      default_geofence_m: 200,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
      role: 'owner',
    });
    const memberships = await db()`select user_id, role from public.memberships where org_id = ${body.id}`;
    expect([...memberships]).toEqual([{ user_id: creator.userId, role: 'owner' }]);
    const me = expectStatus(await call(creator.client, 'me'), 200);
    expect(me.memberships).toEqual([{ org_id: body.id, org_slug: body.slug, org_name: body.name, role: 'owner', org_wide: true, site_group_ids: [] }]);
  });

  it('stores a given slug and settings', async () => {
    const creator = await newUser('creator', 'Cleo Creator');
    const slug = `north-${tag()}`;
    const body = expectStatus(await post(creator.client, 'orgs', { name: 'North Depot', slug, default_geofence_m: 750, require_mfa: false }), 201);
    expect(body).toMatchObject({ slug, name: 'North Depot', default_geofence_m: 750, require_mfa: false, role: 'owner' });
    const [row] = await db()`select slug, default_geofence_m, created_by from public.organizations where id = ${body.id}`;
    expect(row).toEqual({ slug, default_geofence_m: 750, created_by: creator.userId });
  });

  it('accepts a name of exactly 120 characters and the boundary geofences', async () => {
    const creator = await newUser('creator', 'Cleo Creator');
    const name = `${tag()}${'n'.repeat(114)}`;
    expect(expectStatus(await post(creator.client, 'orgs', { name, default_geofence_m: 10 }), 201)).toMatchObject({ name, default_geofence_m: 10 });
    expect(expectStatus(await post(creator.client, 'orgs', { name: `Big ${tag()}`, default_geofence_m: 5000 }), 201).default_geofence_m).toBe(5000);
  });

  it('adds a suffix to the derived slug when the name\'s slug is taken', async () => {
    const [first, second] = await Promise.all([newUser('first', 'First'), newUser('second', 'Second')]);
    const name = `Harbour ${tag()}`;
    const a = expectStatus(await post(first.client, 'orgs', { name }), 201);
    const b = expectStatus(await post(second.client, 'orgs', { name }), 201);
    expect(a.slug).toBe(name.toLowerCase().replace(' ', '-'));
    expect(b.slug).not.toBe(a.slug);
    expect(b.slug.startsWith(`${a.slug}-`)).toBe(true);
    expect(b.slug).toMatch(/^[a-z0-9](-?[a-z0-9]){2,39}$/);
  });

  it('derives a valid slug from a name without Latin letters, and from a long one, suffixed when taken', async () => {
    const [first, second] = await Promise.all([newUser('first', 'First'), newUser('second', 'Second')]);
    const pattern = /^[a-z0-9](-?[a-z0-9]){2,39}$/;
    const script = `東京 ${'!'.repeat(3)}`;
    const a = expectStatus(await post(first.client, 'orgs', { name: script }), 201);
    const b = expectStatus(await post(second.client, 'orgs', { name: script }), 201);
    expect(a.slug).toMatch(pattern);
    expect(b.slug).toMatch(pattern);
    expect(b.slug).not.toBe(a.slug);

    const long = `${tag()} ${'very long organization name '.repeat(4)}`.slice(0, 120);
    const c = expectStatus(await post(first.client, 'orgs', { name: long }), 201);
    const d = expectStatus(await post(second.client, 'orgs', { name: long }), 201);
    for (const org of [c, d]) {
      expect(org.slug).toMatch(pattern);
      expect(org.slug.length).toBeLessThanOrEqual(40);
    }
    expect(d.slug).not.toBe(c.slug);
  });

  it('refuses a given slug that is taken with 409 duplicate and writes nothing', async () => {
    const creator = await newUser('creator', 'Cleo Creator');
    const before = await userSnapshot(creator.userId);
    const problem = expectProblem(await post(creator.client, 'orgs', { name: 'Copycat', slug: fixture.org.slug }), 409, 'duplicate');
    expect(problem.title).toBe('An organization with that slug already exists.');
    expect(await userSnapshot(creator.userId)).toEqual(before);
  });

  const badBodies: Array<{ name: string; body: unknown; fields: string[]; headers?: Record<string, string> }> = [
    { name: 'an unknown key', body: { name: 'Acme', owner_id: MISSING_ID }, fields: ['owner_id'] },
    { name: 'a created_by key (not the caller\'s to set)', body: { name: 'Acme', created_by: MISSING_ID }, fields: ['created_by'] },
    { name: 'no name', body: { slug: 'acme-co' }, fields: ['name'] },
    { name: 'a name of the wrong type', body: { name: 42 }, fields: ['name'] },
    { name: 'a null name', body: { name: null }, fields: ['name'] },
    { name: 'an empty name', body: { name: '' }, fields: ['name'] },
    { name: 'a name of only spaces', body: { name: '   ' }, fields: ['name'] },
    { name: 'a name of 121 characters', body: { name: 'n'.repeat(121) }, fields: ['name'] },
    { name: 'a name with a NUL character', body: { name: 'Ac\u0000me' }, fields: ['name'] },
    { name: 'a slug with spaces and capitals', body: { name: 'Acme', slug: 'Acme Co' }, fields: ['slug'] },
    { name: 'a slug of 2 characters', body: { name: 'Acme', slug: 'ab' }, fields: ['slug'] },
    { name: 'a slug of 41 characters', body: { name: 'Acme', slug: 'a'.repeat(41) }, fields: ['slug'] },
    { name: 'a slug starting with a hyphen', body: { name: 'Acme', slug: '-acme' }, fields: ['slug'] },
    { name: 'a slug with a double hyphen', body: { name: 'Acme', slug: 'ac--me' }, fields: ['slug'] },
    { name: 'a slug of the wrong type', body: { name: 'Acme', slug: 123 }, fields: ['slug'] },
    { name: 'require_mfa as a string', body: { name: 'Acme', require_mfa: 'yes' }, fields: ['require_mfa'] },
    { name: 'a geofence of 9 m', body: { name: 'Acme', default_geofence_m: 9 }, fields: ['default_geofence_m'] },
    { name: 'a geofence of 5001 m', body: { name: 'Acme', default_geofence_m: 5001 }, fields: ['default_geofence_m'] },
    { name: 'a fractional geofence', body: { name: 'Acme', default_geofence_m: 10.5 }, fields: ['default_geofence_m'] },
    { name: 'a geofence as a string', body: { name: 'Acme', default_geofence_m: '200' }, fields: ['default_geofence_m'] },
    { name: 'two bad fields at once', body: { name: '', slug: 'X' }, fields: ['name', 'slug'] },
    { name: 'a JSON array', body: [{ name: 'Acme' }], fields: ['body'] },
    { name: 'JSON null', body: 'null', headers: { 'Content-Type': 'application/json' }, fields: ['body'] },
    { name: 'malformed JSON', body: '{"name": "Acme', headers: { 'Content-Type': 'application/json' }, fields: ['body'] },
    { name: 'a body that is not JSON', body: 'name=Acme', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];

  for (const bad of badBodies) {
    it(`refuses ${bad.name} with 422 validation_failed and writes nothing`, async () => {
      const before = await userSnapshot(stranger.userId);
      const outcome = await call(stranger.client, 'orgs', { method: 'POST', body: bad.body, headers: bad.headers });
      expectProblem(outcome, 422, 'validation_failed', bad.fields);
      expect(outcome.body.errors.every((e: { message: string }) => e.message.length > 0)).toBe(true);
      expect(await userSnapshot(stranger.userId)).toEqual(before);
    });
  }

  it('names unknown keys with "This field is not allowed."', async () => {
    const problem = expectProblem(await post(stranger.client, 'orgs', { name: 'Acme', plan: 'gold' }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'plan', message: 'This field is not allowed.' }]);
  });
});

describe('GET /orgs', () => {
  it('lists only the caller\'s organizations, by name, each with the caller\'s role', async () => {
    const user = await newUser('lister', 'Lee Lister');
    const suffix = tag();
    const zulu = await createOrg(user, { name: `Zulu ${suffix}` });
    const bravo = await createOrg(user, { name: `Bravo ${suffix}` });
    const page = expectStatus(await call(user.client, 'orgs'), 200);
    expect(page).toEqual({ data: [bravo, zulu], next_cursor: null });

    const viewerPage = expectStatus(await call(fixture.viewer.client, 'orgs'), 200);
    expect(viewerPage.data.map((o: { id: string; role: string }) => [o.id, o.role])).toEqual([[fixture.org.id, 'viewer']]);
    expect(expectStatus(await call(stranger.client, 'orgs'), 200)).toEqual({ data: [], next_cursor: null });
  });

  it('pages with limit and an opaque cursor', async () => {
    const user = await newUser('pager', 'Pat Pager');
    const suffix = tag();
    const orgs = [];
    for (const letter of ['A', 'B', 'C', 'D', 'E']) orgs.push(await createOrg(user, { name: `${letter} Team ${suffix}` }));
    const pages = await allPages(user.client, 'orgs', 2);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
    expect(pages.flat().map((o) => o.id)).toEqual(orgs.map((o) => o.id));
    expect(pages).toHaveLength(3);
  });

  for (const [query, field] of [
    ['limit=0', 'query.limit'],
    ['limit=201', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['limit=1.5', 'query.limit'],
    ['limit=-1', 'query.limit'],
    ['sort=name', 'query.sort'],
  ]) {
    it(`refuses ?${query} with 422 on ${field}`, async () => {
      expectProblem(await call(fixture.owner.client, `orgs?${query}`), 422, 'validation_failed', [field]);
    });
  }

  it('accepts limit=1 and limit=200', async () => {
    expect(expectStatus(await call(fixture.owner.client, 'orgs?limit=1'), 200).data).toHaveLength(1);
    expect(expectStatus(await call(fixture.owner.client, 'orgs?limit=200'), 200).data).toHaveLength(1);
  });

  it('refuses cursors it did not issue with 422 on query.cursor, not a server error', async () => {
    const cursors = forgedCursors();
    expect(await cursorOutcomes(fixture.owner.client, 'orgs', cursors)).toEqual(refusedCursors(cursors));
  });
});

describe('GET /orgs/{org}', () => {
  it('shows every member the organization with their own role', async () => {
    for (const [role, user] of Object.entries(fixture.byRole)) {
      const body = expectStatus(await call(user.client, `orgs/${fixture.org.id}`), 200);
      expect(body).toEqual({ ...fixture.org, updated_at: expect.stringMatching(ISO_TIMESTAMP), role });
    }
  });

  it('is 404 with no data for a non-member and for an unknown id', async () => {
    const hidden = expectProblem(await call(stranger.client, `orgs/${fixture.org.id}`), 404, 'not_found');
    expect(JSON.stringify(hidden)).not.toContain(fixture.org.name);
    expectProblem(await call(fixture.owner.client, `orgs/${MISSING_ID}`), 404, 'not_found');
  });

  it('refuses query parameters it does not take with 422', async () => {
    expectProblem(await call(fixture.owner.client, `orgs/${fixture.org.id}?expand=members`), 422, 'validation_failed', ['query.expand']);
  });

  it('refuses a malformed id with 422 on org', async () => {
    expectProblem(await call(fixture.owner.client, 'orgs/not-a-uuid'), 422, 'validation_failed', ['org']);
    expectProblem(await call(fixture.owner.client, `orgs/${fixture.org.slug}`), 422, 'validation_failed', ['org']);
  });
});

describe('PATCH /orgs/{org}', () => {
  it('lets the owner rename and the admin change the geofence', async () => {
    const renamed = `Alpha Renamed ${tag()}`;
    const byOwner = expectStatus(await patch(fixture.owner.client, `orgs/${fixture.org.id}`, { name: ` ${renamed} ` }), 200);
    expect(byOwner).toMatchObject({ id: fixture.org.id, name: renamed, slug: fixture.org.slug, role: 'owner' });
    const byAdmin = expectStatus(await patch(fixture.admin.client, `orgs/${fixture.org.id}`, { default_geofence_m: 300 }), 200);
    expect(byAdmin).toMatchObject({ name: renamed, default_geofence_m: 300, role: 'admin' });
    const [row] = await db()`select name, default_geofence_m from public.organizations where id = ${fixture.org.id}`;
    expect(row).toEqual({ name: renamed, default_geofence_m: 300 });
    fixture.org = { ...fixture.org, name: renamed, default_geofence_m: 300, updated_at: byAdmin.updated_at };
  });

  it('changes the slug when it is free', async () => {
    const slug = `alpha-${tag()}`;
    expect(expectStatus(await patch(fixture.owner.client, `orgs/${fixture.org.id}`, { slug }), 200).slug).toBe(slug);
    fixture.org.slug = slug;
  });

  for (const role of ['manager', 'inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 forbidden and changes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await patch(fixture.byRole[role].client, `orgs/${fixture.org.id}`, { name: 'Taken over' }), 403, 'forbidden');
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('refuses a slug another organization has with 409 duplicate and changes nothing', async () => {
    const other = await createOrg(stranger, { name: `Other ${tag()}` });
    const before = await orgSnapshot(fixture.org.id);
    const problem = expectProblem(await patch(fixture.owner.client, `orgs/${fixture.org.id}`, { slug: other.slug }), 409, 'duplicate');
    expect(problem.title).toBe('An organization with that slug already exists.');
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  const badPatches: Array<{ name: string; body: unknown; fields: string[]; headers?: Record<string, string> }> = [
    // "Change at least one field" is about the whole body, so it is reported on `body`.
    { name: 'an empty object', body: {}, fields: ['body'] },
    { name: 'an unknown key', body: { name: 'Ok', id: MISSING_ID }, fields: ['id'] },
    { name: 'created_by', body: { name: 'Ok', created_by: MISSING_ID }, fields: ['created_by'] },
    { name: 'an empty name', body: { name: '' }, fields: ['name'] },
    { name: 'a name of 121 characters', body: { name: 'n'.repeat(121) }, fields: ['name'] },
    { name: 'a name with a NUL character', body: { name: 'x\u0000' }, fields: ['name'] },
    { name: 'a bad slug', body: { slug: 'Not_A_Slug' }, fields: ['slug'] },
    { name: 'require_mfa as a number', body: { require_mfa: 1 }, fields: ['require_mfa'] },
    { name: 'a geofence of 5001 m', body: { default_geofence_m: 5001 }, fields: ['default_geofence_m'] },
    { name: 'a null name', body: { name: null }, fields: ['name'] },
    { name: 'a body that is not JSON', body: 'name=x', fields: ['body'] },
    { name: 'an empty body', body: undefined, fields: ['body'] },
  ];

  for (const bad of badPatches) {
    it(`refuses ${bad.name} with 422 validation_failed and changes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      const outcome = await call(fixture.owner.client, `orgs/${fixture.org.id}`, { method: 'PATCH', body: bad.body, headers: bad.headers });
      expectProblem(outcome, 422, 'validation_failed', bad.fields);
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('is 404 for a non-member and for an unknown id, 422 for a malformed id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await patch(stranger.client, `orgs/${fixture.org.id}`, { name: 'Mine now' }), 404, 'not_found');
    expectProblem(await patch(fixture.owner.client, `orgs/${MISSING_ID}`, { name: 'Nobody' }), 404, 'not_found');
    expectProblem(await patch(fixture.owner.client, 'orgs/123', { name: 'Nobody' }), 422, 'validation_failed', ['org']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });
});

describe('DELETE /orgs/{org}', () => {
  for (const role of ['admin', 'manager', 'inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 forbidden and deletes nothing`, async () => {
      const before = await orgSnapshot(fixture.org.id);
      expectProblem(await del(fixture.byRole[role].client, `orgs/${fixture.org.id}`), 403, 'forbidden');
      expect(await orgSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('is 404 for a non-member and an unknown id, 422 for a malformed id', async () => {
    const before = await orgSnapshot(fixture.org.id);
    expectProblem(await del(stranger.client, `orgs/${fixture.org.id}`), 404, 'not_found');
    expectProblem(await del(fixture.owner.client, `orgs/${MISSING_ID}`), 404, 'not_found');
    expectProblem(await del(fixture.owner.client, 'orgs/nope'), 422, 'validation_failed', ['org']);
    expect(await orgSnapshot(fixture.org.id)).toEqual(before);
  });

  it('lets the owner delete the organization with its memberships; afterwards it is 404 for everyone', async () => {
    const outcome = await del(fixture.owner.client, `orgs/${fixture.org.id}`);
    expect(outcome.status).toBe(204);
    const after = await orgSnapshot(fixture.org.id);
    expect(after.organizations).toEqual([]);
    expect(after.memberships).toEqual([]);
    for (const user of Object.values(fixture.byRole)) {
      expectProblem(await call(user.client, `orgs/${fixture.org.id}`), 404, 'not_found');
    }
    expect(expectStatus(await call(fixture.viewer.client, 'orgs'), 200).data).toEqual([]);
  });
});

describe('the raw-database-text guard every call in these tests goes through', () => {
  it('trips on Postgres wording and passes catalogue wording', () => {
    expect(() => expectNoRawDatabaseText({ detail: 'new row for relation "sites" violates check constraint "sites_name_check"' })).toThrow();
    expect(() => expectNoRawDatabaseText({ errors: [{ field: 'org', message: 'invalid input syntax for type uuid: "x"' }] })).toThrow();
    expect(() => expectNoRawDatabaseText({ title: 'Some fields need attention.', detail: '1 field needs attention.' })).not.toThrow();
  });
});

describe('a deleted account', () => {
  it("whose access token is still valid cannot create an organization: 401 that says so, nothing written", async () => {
    const gone = await newUser('deleted', 'Gone Soon');
    await db()`delete from auth.users where id = ${gone.userId}`;
    const name = `Ghost org ${tag()}`;
    const refused = expectProblem(await post(gone.client, 'orgs', { name }), 401, 'unauthenticated');
    expect(refused.detail).toBe('This account no longer exists. Sign in with another account.');
    const [{ n }] = await db()`select count(*)::int as n from public.organizations where name = ${name}`;
    expect(n).toBe(0);
    // A live account still can.
    expectStatus(await post(stranger.client, 'orgs', { name: `Living org ${tag()}` }), 201);
  });
});
