// Templates through the api function: owners, admins and managers create, edit, publish and
// archive them, every member reads them; publishing makes version n+1 and never changes version n;
// a stale base_revision is a 409; every bad request is a 422 on its field (or a 403 for the
// wrong role) and writes nothing.
import { describe, expect, it } from 'vitest';
import { orgWithEveryRoleAndStranger, tag, createTemplate, publish, templatePath, templatesPath } from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { EVERY_KIND_DEFINITION, templateSnapshot } from './support.ts';

const { fixture } = orgWithEveryRoleAndStranger();

const oneItem = (item: Record<string, unknown>) => ({ sections: [{ key: 's', title: 'Section', items: [item] }] });
const textItem = (key: string) => ({ key, kind: 'text', label: `Label ${key}` });

describe('POST /orgs/{org}/templates', () => {
  it('creates an empty draft from a name alone', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: '  Food safety  ' });
    expect(template).toEqual({
      id: expect.stringMatching(UUID),
      org_id: fixture.org.id,
      name: 'Food safety',
      description: null,
      status: 'draft',
      latest_version: null,
      has_unpublished_changes: true,
      item_count: 0,
      revision: 1,
      archived_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
      definition: { sections: [] },
    });
    const [row] = await db()`select created_by from public.templates where id = ${template.id}`;
    expect(row.created_by).toBe(fixture.manager.userId);
  });

  it('stores a definition with every item kind as given, and fills the defaults of a sparse item', async () => {
    const full = await createTemplate(fixture.admin.client, fixture.org.id, { name: 'Every kind', description: 'All of them', definition: EVERY_KIND_DEFINITION });
    expect(full).toMatchObject({ description: 'All of them', item_count: 9, definition: EVERY_KIND_DEFINITION });
    const sparse = await createTemplate(fixture.owner.client, fixture.org.id, {
      name: 'Sparse',
      definition: oneItem({ key: 'ok', kind: 'pass_fail', label: ' Fine? ', help: '' }),
    });
    expect(sparse.definition.sections[0].items[0]).toEqual({ key: 'ok', kind: 'pass_fail', label: 'Fine?', help: null, required: false, weight: 1 });
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} with 403 forbidden and writes nothing`, async () => {
      const before = await templateSnapshot(fixture.org.id);
      expectProblem(await post(fixture.byRole[role].client, templatesPath(fixture.org.id), { name: `By ${role}` }), 403, 'forbidden');
      expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  const tooManySections = { sections: Array.from({ length: 51 }, (_, i) => ({ key: `s${i}`, title: 'S', items: [] })) };
  const tooManyItems = {
    sections: [
      { key: 'a', title: 'A', items: Array.from({ length: 250 }, (_, i) => textItem(`a${i}`)) },
      { key: 'b', title: 'B', items: Array.from({ length: 251 }, (_, i) => textItem(`b${i}`)) },
    ],
  };
  const choice = (extras: Record<string, unknown>) => oneItem({ key: 'c', kind: 'single_choice', label: 'C', options: ['A', 'B'], failing_options: [], ...extras });
  const badBodies: [string, unknown, string[]][] = [
    ['no name', {}, ['name']],
    ['a blank name', { name: '   ' }, ['name']],
    ['a name of 121 characters', { name: 'n'.repeat(121) }, ['name']],
    ['an unknown field', { name: 'T', status: 'published' }, ['status']],
    ['a description of 2001 characters', { name: 'T', description: 'd'.repeat(2001) }, ['description']],
    ['a definition that is not an object', { name: 'T', definition: [] }, ['definition']],
    ['an unknown field in the definition', { name: 'T', definition: { sections: [], title: 'x' } }, ['definition.title']],
    ['51 sections', { name: 'T', definition: tooManySections }, ['definition.sections']],
    ['501 items', { name: 'T', definition: tooManyItems }, ['definition.sections']],
    ['a section key in capitals', { name: 'T', definition: { sections: [{ key: 'Kitchen', title: 'K', items: [] }] } }, ['definition.sections.0.key']],
    ['two sections with one key', { name: 'T', definition: { sections: [{ key: 's', title: 'A', items: [] }, { key: 's', title: 'B', items: [] }] } }, ['definition.sections.1.key']],
    ['two items with one key', { name: 'T', definition: { sections: [{ key: 'a', title: 'A', items: [textItem('x')] }, { key: 'b', title: 'B', items: [textItem('x')] }] } }, ['definition.sections.1.items.0.key']],
    ['an unknown kind', { name: 'T', definition: oneItem({ key: 'x', kind: 'checkbox', label: 'X' }) }, ['definition.sections.0.items.0.kind']],
    ['a setting of another kind', { name: 'T', definition: oneItem({ key: 'x', kind: 'text', label: 'X', max_photos: 2 }) }, ['definition.sections.0.items.0.max_photos']],
    ['an empty label', { name: 'T', definition: oneItem({ key: 'x', kind: 'text', label: ' ' }) }, ['definition.sections.0.items.0.label']],
    ['a weight above 100', { name: 'T', definition: oneItem({ key: 'x', kind: 'text', label: 'X', weight: 101 }) }, ['definition.sections.0.items.0.weight']],
    ['yes_no failing on maybe', { name: 'T', definition: oneItem({ key: 'x', kind: 'yes_no', label: 'X', fail_on: 'maybe' }) }, ['definition.sections.0.items.0.fail_on']],
    ['a number range with min above max', { name: 'T', definition: oneItem({ key: 'x', kind: 'number', label: 'X', min: 6, max: 5 }) }, ['definition.sections.0.items.0.max']],
    ['a unit of 21 characters', { name: 'T', definition: oneItem({ key: 'x', kind: 'number', label: 'X', unit: 'u'.repeat(21) }) }, ['definition.sections.0.items.0.unit']],
    ['a choice without options', { name: 'T', definition: choice({ options: [] }) }, ['definition.sections.0.items.0.options']],
    ['51 options', { name: 'T', definition: choice({ options: Array.from({ length: 51 }, (_, i) => `o${i}`) }) }, ['definition.sections.0.items.0.options']],
    ['a repeated option', { name: 'T', definition: choice({ options: ['A', 'A'] }) }, ['definition.sections.0.items.0.options.1']],
    ['a failing option that is not an option', { name: 'T', definition: choice({ failing_options: ['C'] }) }, ['definition.sections.0.items.0.failing_options.0']],
    ['11 photos', { name: 'T', definition: oneItem({ key: 'x', kind: 'photo', label: 'X', max_photos: 11 }) }, ['definition.sections.0.items.0.max_photos']],
  ];
  for (const [what, body, fields] of badBodies) {
    it(`refuses ${what} with 422 on ${fields.join(', ')} and writes nothing`, async () => {
      const before = await templateSnapshot(fixture.org.id);
      const problem = expectProblem(await post(fixture.manager.client, templatesPath(fixture.org.id), body), 422, 'validation_failed', fields);
      for (const error of problem.errors) expect(error.message).toMatch(/^[A-Z].*\.$/);
      expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('words the definition errors so they say how to fix them', async () => {
    const problem = expectProblem(await post(fixture.manager.client, templatesPath(fixture.org.id), { name: 'T', definition: choice({ options: [] }) }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'definition.sections.0.items.0.options', message: 'Add at least one option.' }]);
  });
});

describe('GET /orgs/{org}/templates', () => {
  it('lists active templates by name for every role, archived ones only when asked, and searches names', async () => {
    const prefix = `List ${tag()}`;
    const names = [`${prefix} b`, `${prefix} a`, `${prefix} c`];
    const created = [];
    for (const name of names) created.push(await createTemplate(fixture.manager.client, fixture.org.id, { name, definition: EVERY_KIND_DEFINITION }));
    await publish(fixture.manager.client, fixture.org.id, created[1].id);
    expectStatus(await post(fixture.manager.client, `${templatePath(fixture.org.id, created[2].id)}/archive`, undefined), 200);

    for (const role of ['owner', 'admin', 'manager', 'inspector', 'viewer'] as const) {
      const page = expectStatus(await call(fixture.byRole[role].client, `${templatesPath(fixture.org.id)}?q=${encodeURIComponent(prefix)}`), 200);
      expect(page.data.map((t: any) => [t.name, t.status]), role).toEqual([[`${prefix} a`, 'published'], [`${prefix} b`, 'draft']]);
      expect(page.next_cursor).toBeNull();
    }
    const summary = expectStatus(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?q=${encodeURIComponent(`${prefix} a`)}`), 200).data[0];
    expect(summary).toEqual({
      id: created[1].id, org_id: fixture.org.id, name: `${prefix} a`, description: null, status: 'published', latest_version: 1,
      has_unpublished_changes: false, item_count: 9, revision: 1, archived_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP), updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const archived = expectStatus(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?status=archived&q=${encodeURIComponent(prefix)}`), 200);
    expect(archived.data.map((t: any) => t.name)).toEqual([`${prefix} c`]);
    const drafts = expectStatus(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?status=draft&q=${encodeURIComponent(prefix)}`), 200);
    expect(drafts.data.map((t: any) => t.name)).toEqual([`${prefix} b`]);
  });

  it('pages by name with a cursor, without repeats or gaps when templates are added between pages', async () => {
    const prefix = `Paged ${tag()}`;
    for (const n of [1, 3, 5, 7, 9]) await createTemplate(fixture.manager.client, fixture.org.id, { name: `${prefix} ${n}` });
    const pages = await allPages(fixture.viewer.client, `${templatesPath(fixture.org.id)}?q=${encodeURIComponent(prefix)}`, 2, async () => {
      await createTemplate(fixture.manager.client, fixture.org.id, { name: `${prefix} 0 added ${tag()}` });
    });
    const seen = pages.flat().map((t: any) => t.name);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((name) => !name.includes('added'))).toEqual([1, 3, 5, 7, 9].map((n) => `${prefix} ${n}`));
  });

  it('refuses a bad status, limit or cursor with 422 on the query field', async () => {
    expectProblem(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?status=deleted`), 422, 'validation_failed', ['query.status']);
    expectProblem(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?limit=0`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(fixture.viewer.client, `${templatesPath(fixture.org.id)}?sort=name`), 422, 'validation_failed', ['query.sort']);
    const cursors = forgedCursors();
    expect(await cursorOutcomes(fixture.viewer.client, templatesPath(fixture.org.id), cursors)).toEqual(refusedCursors(cursors));
  });
});

describe('GET·PATCH /orgs/{org}/templates/{id}', () => {
  it('reads a template for every role and 404s an unknown id', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Readable', definition: EVERY_KIND_DEFINITION });
    for (const role of ['owner', 'admin', 'manager', 'inspector', 'viewer'] as const) {
      expect(expectStatus(await call(fixture.byRole[role].client, templatePath(fixture.org.id, template.id)), 200), role).toEqual(template);
    }
    expectProblem(await call(fixture.viewer.client, templatePath(fixture.org.id, MISSING_ID)), 404, 'not_found');
    expectProblem(await call(fixture.viewer.client, templatePath(fixture.org.id, 'not-a-uuid')), 422, 'validation_failed', ['id']);
  });

  it('edits the draft, bumping the revision each time, for owners, admins and managers', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Editable' });
    const renamed = expectStatus(await patch(fixture.manager.client, templatePath(fixture.org.id, template.id), { name: 'Edited', base_revision: 1 }), 200);
    expect(renamed).toMatchObject({ name: 'Edited', revision: 2 });
    const described = expectStatus(await patch(fixture.admin.client, templatePath(fixture.org.id, template.id), { description: 'Weekly' }), 200);
    expect(described).toMatchObject({ description: 'Weekly', revision: 3 });
    const defined = expectStatus(await patch(fixture.owner.client, templatePath(fixture.org.id, template.id), { definition: EVERY_KIND_DEFINITION, base_revision: 3 }), 200);
    expect(defined).toMatchObject({ definition: EVERY_KIND_DEFINITION, item_count: 9, revision: 4, status: 'draft' });
    const cleared = expectStatus(await patch(fixture.owner.client, templatePath(fixture.org.id, template.id), { description: '' }), 200);
    expect(cleared).toMatchObject({ description: null, revision: 5 });
  });

  it('refuses a stale base_revision with 409 stale_version carrying the current template, and writes nothing', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Contested' });
    const first = expectStatus(await patch(fixture.manager.client, templatePath(fixture.org.id, template.id), { name: 'First editor', base_revision: 1 }), 200);
    const before = await templateSnapshot(fixture.org.id);
    const problem = expectProblem(await patch(fixture.admin.client, templatePath(fixture.org.id, template.id), { name: 'Second editor', base_revision: 1 }), 409, 'stale_version');
    expect(problem.current).toEqual([first]);
    expect(await templateSnapshot(fixture.org.id)).toEqual(before);
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} an edit with 403 and writes nothing`, async () => {
      const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: `Not for ${role}` });
      const before = await templateSnapshot(fixture.org.id);
      expectProblem(await patch(fixture.byRole[role].client, templatePath(fixture.org.id, template.id), { name: 'Mine now' }), 403, 'forbidden');
      expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  const badPatches: [string, unknown, string[]][] = [
    ['nothing to change', {}, ['body']],
    ['only a base revision', { base_revision: 1 }, ['body']],
    ['a base revision that is not a whole number', { name: 'X', base_revision: 1.5 }, ['base_revision']],
    ['an unknown field', { name: 'X', revision: 9 }, ['revision']],
    ['an empty name', { name: '' }, ['name']],
    ['a bad item', { definition: oneItem({ key: 'x', kind: 'photo', label: 'X', max_photos: 0 }) }, ['definition.sections.0.items.0.max_photos']],
  ];
  for (const [what, body, fields] of badPatches) {
    it(`refuses an edit with ${what} with 422 on ${fields.join(', ')} and writes nothing`, async () => {
      const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Patched badly' });
      const before = await templateSnapshot(fixture.org.id);
      expectProblem(await patch(fixture.manager.client, templatePath(fixture.org.id, template.id), body), 422, 'validation_failed', fields);
      expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    });
  }
});

describe('POST /orgs/{org}/templates/{id}/publish and GET …/versions/{n}', () => {
  it('publishes the draft as version 1, then an edit as version 2 while version 1 stays as it was', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Versioned', definition: EVERY_KIND_DEFINITION });
    const published = await publish(fixture.manager.client, fixture.org.id, template.id);
    expect(published).toMatchObject({ status: 'published', latest_version: 1, has_unpublished_changes: false, revision: 1 });
    const version1 = expectStatus(await call(fixture.viewer.client, `${templatePath(fixture.org.id, template.id)}/versions/1`), 200);
    expect(version1).toEqual({
      id: expect.stringMatching(UUID), template_id: template.id, org_id: fixture.org.id, version: 1, name: 'Versioned', description: null,
      definition: EVERY_KIND_DEFINITION, published_by: fixture.manager.userId, published_at: expect.stringMatching(ISO_TIMESTAMP),
    });

    const shorter = { sections: [EVERY_KIND_DEFINITION.sections[0]] };
    const edited = expectStatus(await patch(fixture.admin.client, templatePath(fixture.org.id, template.id), { definition: shorter, name: 'Versioned v2' }), 200);
    expect(edited).toMatchObject({ status: 'published', latest_version: 1, has_unpublished_changes: true, item_count: 4 });
    const republished = await publish(fixture.admin.client, fixture.org.id, template.id);
    expect(republished).toMatchObject({ latest_version: 2, has_unpublished_changes: false });
    const version2 = expectStatus(await call(fixture.inspector.client, `${templatePath(fixture.org.id, template.id)}/versions/2`), 200);
    expect(version2).toMatchObject({ version: 2, name: 'Versioned v2', definition: shorter, published_by: fixture.admin.userId });
    expect(expectStatus(await call(fixture.viewer.client, `${templatePath(fixture.org.id, template.id)}/versions/1`), 200)).toEqual(version1);
    expectProblem(await call(fixture.viewer.client, `${templatePath(fixture.org.id, template.id)}/versions/3`), 404, 'not_found');
  });

  it('returns the template unchanged when nothing changed since the newest version', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Unchanged', definition: EVERY_KIND_DEFINITION });
    const first = await publish(fixture.manager.client, fixture.org.id, template.id);
    const before = await templateSnapshot(fixture.org.id);
    expect(await publish(fixture.owner.client, fixture.org.id, template.id)).toEqual(first);
    expect(await templateSnapshot(fixture.org.id)).toEqual(before);
  });

  it('numbers versions 1, 2, 3 … without gaps when publishes race', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Raced', definition: EVERY_KIND_DEFINITION });
    // Eight publishes of one draft at once make one version.
    const racing = await Promise.all(Array.from({ length: 8 }, () => post(fixture.manager.client, `${templatePath(fixture.org.id, template.id)}/publish`, undefined)));
    expect(racing.map((outcome) => [outcome.status, outcome.body.latest_version])).toEqual(Array.from({ length: 8 }, () => [200, 1]));
    // Editors racing edit-then-publish make consecutive versions.
    await Promise.all(['owner', 'admin', 'manager'].map(async (role, i) => {
      const client = fixture.byRole[role as 'owner' | 'admin' | 'manager'].client;
      for (let round = 0; round < 3; round++) {
        expectStatus(await patch(client, templatePath(fixture.org.id, template.id), { name: `Raced ${i}-${round}` }), 200);
        await publish(client, fixture.org.id, template.id);
      }
    }));
    const versions = await db()`select version from public.template_versions where template_id = ${template.id} order by version`;
    const numbers = versions.map((v) => v.version);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.length).toBeGreaterThan(1);
    const current = expectStatus(await call(fixture.viewer.client, templatePath(fixture.org.id, template.id)), 200);
    expect(current.latest_version).toBe(numbers.length);
  });

  it('refuses to publish a template without items with 422 on definition, writing nothing', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Empty' });
    const before = await templateSnapshot(fixture.org.id);
    const problem = expectProblem(await post(fixture.manager.client, `${templatePath(fixture.org.id, template.id)}/publish`, undefined), 422, 'validation_failed', ['definition']);
    expect(problem.errors[0].message).toBe('Add at least one item before publishing.');
    expect(await templateSnapshot(fixture.org.id)).toEqual(before);
  });

  for (const role of ['inspector', 'viewer'] as const) {
    it(`refuses the ${role} publishing and archiving with 403, writing nothing`, async () => {
      const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: `Guarded from ${role}`, definition: EVERY_KIND_DEFINITION });
      const before = await templateSnapshot(fixture.org.id);
      expectProblem(await post(fixture.byRole[role].client, `${templatePath(fixture.org.id, template.id)}/publish`, undefined), 403, 'forbidden');
      expectProblem(await post(fixture.byRole[role].client, `${templatePath(fixture.org.id, template.id)}/archive`, undefined), 403, 'forbidden');
      expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    });
  }

  it('refuses a version number that is not a positive whole number with 422 on n', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Numbered' });
    for (const n of ['0', '-1', 'one', '1.5']) {
      expectProblem(await call(fixture.viewer.client, `${templatePath(fixture.org.id, template.id)}/versions/${n}`), 422, 'validation_failed', ['n']);
    }
  });

  it('refuses a body on publish with 422', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'No body', definition: EVERY_KIND_DEFINITION });
    expectProblem(await post(fixture.manager.client, `${templatePath(fixture.org.id, template.id)}/publish`, { version: 9 }), 422, 'validation_failed', ['body']);
  });
});

describe('POST /orgs/{org}/templates/{id}/archive', () => {
  it('archives a published template, after which it can be neither edited nor published', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Retired', definition: EVERY_KIND_DEFINITION });
    await publish(fixture.manager.client, fixture.org.id, template.id);
    const archived = expectStatus(await post(fixture.admin.client, `${templatePath(fixture.org.id, template.id)}/archive`, undefined), 200);
    expect(archived).toMatchObject({ status: 'archived', archived_at: expect.stringMatching(ISO_TIMESTAMP), latest_version: 1 });
    expect(expectStatus(await post(fixture.owner.client, `${templatePath(fixture.org.id, template.id)}/archive`, undefined), 200)).toEqual(archived);

    const before = await templateSnapshot(fixture.org.id);
    const edit = expectProblem(await patch(fixture.manager.client, templatePath(fixture.org.id, template.id), { name: 'Back' }), 409, 'invalid_transition');
    expect(edit.title).toBe("This template is archived, so it can't be edited.");
    const republish = expectProblem(await post(fixture.manager.client, `${templatePath(fixture.org.id, template.id)}/publish`, undefined), 409, 'invalid_transition');
    expect(republish.title).toBe("This template is archived, so it can't be published.");
    expect(await templateSnapshot(fixture.org.id)).toEqual(before);
    // Its versions stay readable: inspections pinned to them still show them.
    expect(expectStatus(await call(fixture.viewer.client, `${templatePath(fixture.org.id, template.id)}/versions/1`), 200).version).toBe(1);
  });

  it('archives a draft nobody published', async () => {
    const template = await createTemplate(fixture.manager.client, fixture.org.id, { name: 'Abandoned' });
    const archived = expectStatus(await post(fixture.manager.client, `${templatePath(fixture.org.id, template.id)}/archive`, undefined), 200);
    expect(archived).toMatchObject({ status: 'archived', latest_version: null });
  });
});
