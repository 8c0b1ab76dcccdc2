// Bad input on every new route of issue 11: a 422 (or the catalogue's own status) naming the
// field, in the catalogue's words, with no database text, and nothing written.
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectionWorldAndStranger, scheduleInspection } from '../../support/fixtures.ts';
import { expectNoRawDatabaseText, call, expectProblem, expectStatus, MISSING_ID, post } from '../../support/api.ts';
import { forgedCursors, refusedCursors, cursorOutcomes } from '../../support/paging.ts';
import { actionIn, actionPath, actionsPath, actionSnapshot, openAction } from './support.ts';

const { world } = inspectionWorldAndStranger();

let action: any;
let archivedSite: any;
beforeAll(async () => {
  action = await openAction(world, { assignee_id: world.inspector.userId });
  archivedSite = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: `Closed ${Date.now()}` }), 201);
  expectStatus(await call(world.manager.client, `orgs/${world.org.id}/sites/${archivedSite.id}`, { method: 'DELETE' }), 200);
});

/** Sends `body` to `path` as the manager and expects a refusal on `field`, with nothing written. */
async function refused(method: 'POST' | 'PATCH', path: string, body: unknown, field: string, status = 422, code = 'validation_failed') {
  const before = await actionSnapshot(world.org.id);
  const outcome = await call(world.manager.client, path, { method, body });
  const problem = expectProblem(outcome, status, code, status === 422 && code === 'validation_failed' ? [field] : undefined);
  expectNoRawDatabaseText(problem);
  expect(await actionSnapshot(world.org.id)).toEqual(before);
  return problem;
}

describe('POST /orgs/{org}/actions', () => {
  const valid = () => ({ title: 'Fix the tap', site_id: world.site.id });
  const cases: Array<[string, () => Record<string, unknown>, string, string?]> = [
    ['no title', () => ({ site_id: world.site.id }), 'title', 'Enter a title.'],
    ['an empty title', () => ({ ...valid(), title: '   ' }), 'title', 'Enter a title.'],
    ['a title of 201 characters', () => ({ ...valid(), title: 'x'.repeat(201) }), 'title', 'Use at most 200 characters.'],
    ['a title with a control character', () => ({ ...valid(), title: 'Fix\u0007 it' }), 'title', 'Remove the control characters.'],
    ['a description of 4001 characters', () => ({ ...valid(), description: 'x'.repeat(4001) }), 'description', 'Use at most 4000 characters.'],
    ['no site and no inspection', () => ({ title: 'Where?' }), 'site_id', 'Choose a site.'],
    ['a site id that is not a uuid', () => ({ ...valid(), site_id: 'kitchen' }), 'site_id', 'Use a valid id.'],
    ['a site that does not exist', () => ({ ...valid(), site_id: MISSING_ID }), 'site_id', 'Choose a site of this organization.'],
    ['an archived site', () => ({ ...valid(), site_id: archivedSite.id }), 'site_id', 'This site is archived. Choose an active site.'],
    ['an unknown priority', () => ({ ...valid(), priority: 'urgent' }), 'priority', 'Choose low, medium, high or critical.'],
    ['a due date that is not one', () => ({ ...valid(), due_at: 'tomorrow' }), 'due_at'],
    ['an assignee who is a viewer', () => ({ ...valid(), assignee_id: world.viewer.userId }), 'assignee_id', 'Choose a member of this organization who can work on actions.'],
    ['an assignee who is nobody', () => ({ ...valid(), assignee_id: MISSING_ID }), 'assignee_id', 'Choose a member of this organization who can work on actions.'],
    ['an item without its inspection', () => ({ ...valid(), item_key: 'floor_clean' }), 'inspection_id', 'Name the inspection the item belongs to.'],
    ['an unknown field', () => ({ ...valid(), status: 'verified' }), 'status', 'This field is not allowed.'],
  ];
  for (const [name, body, field, message] of cases) {
    it(`refuses ${name} on ${field}`, async () => {
      const problem = await refused('POST', actionsPath(world.org.id), body(), field);
      if (message) expect(problem.errors.find((e: any) => e.field === field)?.message).toBe(message);
    });
  }

  it('refuses an item that is not in the inspection, and a site other than the inspection\'s', async () => {
    const inspection = await scheduleInspection(world);
    const other = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: `Other ${Date.now()}` }), 201);
    await refused('POST', actionsPath(world.org.id), { title: 'Ghost', inspection_id: inspection.id, item_key: 'ghost' }, 'item_key');
    await refused('POST', actionsPath(world.org.id), { title: 'Elsewhere', inspection_id: inspection.id, site_id: other.id }, 'site_id');
  });

  it('refuses a body that is not JSON or not an object', async () => {
    await refused('POST', actionsPath(world.org.id), 'just text', 'body');
    await refused('POST', actionsPath(world.org.id), [valid()], 'body');
  });
});

describe('PATCH /orgs/{org}/actions/{id}', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['nothing to change', {}, 'body'],
    ['an empty title', { title: '' }, 'title'],
    ['a due date cleared', { due_at: null }, 'due_at'],
    ['an unknown priority', { priority: 'asap' }, 'priority'],
    ['an assignee who is nobody', { assignee_id: MISSING_ID }, 'assignee_id'],
    ['a status (moves go through /transition)', { title: 'Retitled', status: 'resolved' }, 'status'],
    ['the site', { title: 'Retitled', site_id: MISSING_ID }, 'site_id'],
  ];
  for (const [name, body, field] of cases) {
    it(`refuses ${name} on ${field}`, async () => {
      await refused('PATCH', actionPath(world.org.id, action.id), body, field);
    });
  }

  it('refuses editing a verified action with 409, worded for actions', async () => {
    const verified = await actionIn(world, 'verified');
    const problem = await refused('PATCH', actionPath(world.org.id, verified.id), { title: 'Too late' }, 'title', 409, 'invalid_transition');
    expect(problem.title).toBe("This action is verified, so it can't be edited.");
  });

  it('answers 404 for an action that does not exist', async () => {
    await refused('PATCH', actionPath(world.org.id, MISSING_ID), { title: 'Nobody' }, 'id', 404, 'not_found');
  });
});

describe('POST …/actions/{id}/transition', () => {
  it('refuses an unknown target, a missing one, an overlong note and unknown fields on their fields', async () => {
    const path = `${actionPath(world.org.id, action.id)}/transition`;
    await refused('POST', path, { to: 'done' }, 'to');
    await refused('POST', path, {}, 'to');
    await refused('POST', path, { to: 'in_progress', note: 'x'.repeat(2001) }, 'note');
    await refused('POST', path, { to: 'in_progress', by: world.owner.userId }, 'by');
  });

  it('refuses resolving without a note on the note, reopening without one too, and skipping a step with 409', async () => {
    const started = await actionIn(world, 'in_progress');
    const path = `${actionPath(world.org.id, started.id)}/transition`;
    const noNote = await refused('POST', path, { to: 'resolved' }, 'note');
    expect(noNote.errors[0].message).toBe('Say what was done to fix it.');
    const resolved = await actionIn(world, 'resolved');
    const reopen = await refused('POST', `${actionPath(world.org.id, resolved.id)}/transition`, { to: 'open', note: '   ' }, 'note');
    expect(reopen.errors[0].message).toBe('Say why the fix is not good enough.');
    const skipped = await refused('POST', `${actionPath(world.org.id, action.id)}/transition`, { to: 'resolved', note: 'Done' }, 'to', 409, 'invalid_transition');
    expect(skipped.title).toBe("This action is open, so it can't be resolved.");
    const again = await refused('POST', `${actionPath(world.org.id, resolved.id)}/transition`, { to: 'resolved', note: 'Again' }, 'to', 409, 'invalid_transition');
    expect(again.title).toBe("This action is resolved, so it can't be resolved.");
  });
});

describe('photos', () => {
  it('refuses a missing or wrong type (415), a size too large (413), an empty file and unknown fields (422)', async () => {
    const path = `${actionPath(world.org.id, action.id)}/attachments`;
    await refused('POST', path, { content_type: 'image/gif', byte_size: 10 }, 'content_type', 415, 'unsupported_media_type');
    await refused('POST', path, { content_type: 'image/jpeg', byte_size: 10 * 1024 * 1024 + 1 }, 'byte_size', 413, 'payload_too_large');
    await refused('POST', path, { content_type: 'image/jpeg', byte_size: 0 }, 'byte_size');
    await refused('POST', path, { content_type: 'image/jpeg' }, 'byte_size');
    await refused('POST', path, { content_type: 'image/jpeg', byte_size: 10, item_key: 'photo' }, 'item_key');
  });

  it('answers 404 for a photo that is not the action\'s, on confirm, url and delete', async () => {
    const path = `${actionPath(world.org.id, action.id)}/attachments/${MISSING_ID}`;
    await refused('POST', `${path}/confirm`, undefined, 'att', 404, 'not_found');
    expectProblem(await call(world.manager.client, `${path}/url`), 404, 'not_found');
    expectProblem(await call(world.manager.client, path, { method: 'DELETE' }), 404, 'not_found');
  });
});

describe('queries', () => {
  const badQueries: Array<[string, string, string]> = [
    ['actions', 'status=done', 'query.status'],
    ['actions', 'status=open,', 'query.status'],
    ['actions', 'priority=urgent', 'query.priority'],
    ['actions', 'assignee_id=me', 'query.assignee_id'],
    ['actions', 'site_id=1', 'query.site_id'],
    ['actions', 'inspection_id=x', 'query.inspection_id'],
    ['actions', 'overdue=yes', 'query.overdue'],
    ['actions', 'updated_since=yesterday', 'query.updated_since'],
    ['actions', 'limit=201', 'query.limit'],
    ['actions', 'sort=title', 'query.sort'],
    ['audit-log', 'entity=passwords', 'query.entity'],
    ['audit-log', 'entity_id=1', 'query.entity_id'],
    ['audit-log', 'actor_id=me', 'query.actor_id'],
    ['audit-log', 'since=last-week', 'query.since'],
    ['audit-log', 'limit=0', 'query.limit'],
    ['activity', 'limit=abc', 'query.limit'],
    ['activity', 'entity=sites', 'query.entity'],
  ];
  for (const [route, query, field] of badQueries) {
    it(`refuses /${route}?${query} with 422 on ${field}`, async () => {
      expectProblem(await call(world.manager.client, `orgs/${world.org.id}/${route}?${query}`), 422, 'validation_failed', [field]);
    });
  }

  for (const route of ['actions', 'audit-log', 'activity']) {
    it(`refuses forged cursors on /${route} with 422`, async () => {
      const cursors = forgedCursors();
      expect(await cursorOutcomes(world.manager.client, `orgs/${world.org.id}/${route}`, cursors)).toEqual(refusedCursors(cursors));
    });
  }
});
