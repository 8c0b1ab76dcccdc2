// Who may call each new route of issue 11 — actions, their transitions and photos, the audit log,
// the activity feed: a member of another organization gets 404 on every route (with A's
// organization id, or their own with A's ids) and nothing is written; roles without the right get
// 403 and write nothing; the same calls by an allowed role succeed.
import { beforeAll, describe, expect, it } from 'vitest';
import { actionPath, actionsPath, actionSnapshot, openAction } from './support.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { inspectionWorldAndStranger } from '../../support/fixtures.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();

let action: any;
let photo: any;
beforeAll(async () => {
  action = await openAction(world, { assignee_id: world.inspector.userId });
  photo = expectStatus(await post(world.inspector.client, `${actionPath(world.org.id, action.id)}/attachments`, { content_type: 'image/jpeg', byte_size: 10 }), 201).attachment;
});

/** Every route of issue 11 for an action of `orgId`, with a body each would accept. */
function routesOf(orgId: string, actionId: string, photoId: string, siteId: string) {
  const path = actionPath(orgId, actionId);
  return [
    { name: 'list', method: 'GET', path: actionsPath(orgId) },
    { name: 'create', method: 'POST', path: actionsPath(orgId), body: { title: 'Taken over', site_id: siteId } },
    { name: 'get', method: 'GET', path },
    { name: 'patch', method: 'PATCH', path, body: { title: 'Taken over' } },
    { name: 'transition', method: 'POST', path: `${path}/transition`, body: { to: 'in_progress' } },
    { name: 'photo check-in', method: 'POST', path: `${path}/attachments`, body: { content_type: 'image/jpeg', byte_size: 10 } },
    { name: 'photo confirm', method: 'POST', path: `${path}/attachments/${photoId}/confirm` },
    { name: 'photo url', method: 'GET', path: `${path}/attachments/${photoId}/url` },
    { name: 'photo delete', method: 'DELETE', path: `${path}/attachments/${photoId}` },
    { name: 'audit log', method: 'GET', path: `orgs/${orgId}/audit-log` },
    { name: 'activity', method: 'GET', path: `orgs/${orgId}/activity` },
  ] as const;
}

describe('cross-tenant', () => {
  it('a member of another organization gets 404 on every route of A and writes nothing', async () => {
    const before = await actionSnapshot(world.org.id);
    for (const route of routesOf(world.org.id, action.id, photo.id, world.site.id)) {
      const outcome = await call(stranger.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
      expectProblem(outcome, 404, 'not_found');
      expect(outcome.body.title, route.name).toBe("We couldn't find that organization.");
    }
    expect(await actionSnapshot(world.org.id)).toEqual(before);
  });

  it("with their own organization's id, A's action, photo and site are not found either", async () => {
    const before = await actionSnapshot(world.org.id);
    const strangerBefore = await actionSnapshot(strangerWorld.orgId);
    for (const route of routesOf(strangerWorld.orgId, action.id, photo.id, world.site.id)) {
      if (['list', 'audit log', 'activity'].includes(route.name)) continue;
      const outcome = await call(stranger.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
      if (route.name === 'create') {
        expectProblem(outcome, 422, 'validation_failed', ['site_id']);
        expect(outcome.body.errors[0].message).toBe('Choose a site of this organization.');
      } else {
        expectProblem(outcome, 404, 'not_found');
        // The download URL is looked up by its photo; the other routes by the action first.
        expect(outcome.body.title, route.name).toBe(`We couldn't find that ${route.name === 'photo url' ? 'photo' : 'action'}.`);
      }
    }
    expect(await actionSnapshot(world.org.id)).toEqual(before);
    expect(await actionSnapshot(strangerWorld.orgId)).toEqual(strangerBefore);
    // Their own lists show only their own organization.
    expect(expectStatus(await call(stranger.client, actionsPath(strangerWorld.orgId)), 200).data).toEqual([]);
    const feed = expectStatus(await call(stranger.client, `orgs/${strangerWorld.orgId}/activity`), 200).data;
    expect(feed.every((entry: any) => entry.entity_id !== action.id)).toBe(true);
  });

  it("another organization's inspection cannot be named for an action", async () => {
    const before = await actionSnapshot(world.org.id);
    const { id: foreignInspection } = expectStatus(
      await post(stranger.client, `orgs/${strangerWorld.orgId}/inspections`, { site_id: strangerWorld.site.id, template_id: strangerWorld.template.id }),
      201,
    );
    const outcome = await post(world.manager.client, actionsPath(world.org.id), { title: 'Borrowed', inspection_id: foreignInspection });
    expectProblem(outcome, 422, 'validation_failed', ['inspection_id']);
    expect(outcome.body.errors[0].message).toBe('Choose an inspection of this organization.');
    expect(await actionSnapshot(world.org.id)).toEqual(before);
  });
});

describe('roles', () => {
  it('a viewer reads actions, the history and the feed but opens, changes, moves and photographs nothing (403)', async () => {
    const before = await actionSnapshot(world.org.id);
    for (const route of routesOf(world.org.id, action.id, photo.id, world.site.id)) {
      const outcome = await call(world.viewer.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
      if (['list', 'get', 'activity'].includes(route.name)) {
        expect(outcome.status, route.name).toBe(200);
      } else if (route.name === 'photo url') {
        // Members may look at evidence; a pending photo is not evidence yet.
        expectProblem(outcome, 404, 'not_found');
      } else {
        expectProblem(outcome, 403, 'forbidden');
      }
    }
    expect(await actionSnapshot(world.org.id)).toEqual(before);
  });

  it('an inspector works the actions assigned to them only: another inspector gets 403 on each change', async () => {
    const before = await actionSnapshot(world.org.id);
    const path = actionPath(world.org.id, action.id);
    expectProblem(await post(world.inspector2.client, `${path}/transition`, { to: 'in_progress' }), 403, 'forbidden');
    expectProblem(await post(world.inspector2.client, `${path}/attachments`, { content_type: 'image/jpeg', byte_size: 10 }), 403, 'forbidden');
    expectProblem(await call(world.inspector2.client, path, { method: 'PATCH', body: { title: 'Mine' } }), 403, 'forbidden');
    expectProblem(await call(world.inspector.client, path, { method: 'PATCH', body: { title: 'Mine' } }), 403, 'forbidden');
    expect(await actionSnapshot(world.org.id)).toEqual(before);
    // The assigned inspector starts it.
    expect(expectStatus(await post(world.inspector.client, `${path}/transition`, { to: 'in_progress' }), 200).status).toBe('in_progress');
  });

  it('an inspector opening an action for someone else gets 403; for themselves it is theirs', async () => {
    const before = await actionSnapshot(world.org.id);
    expectProblem(
      await post(world.inspector.client, actionsPath(world.org.id), { title: 'For the manager', site_id: world.site.id, assignee_id: world.manager.userId }),
      403,
      'forbidden',
    );
    expect(await actionSnapshot(world.org.id)).toEqual(before);
    const mine = expectStatus(await post(world.inspector.client, actionsPath(world.org.id), { title: 'Mine', site_id: world.site.id }), 201);
    expect(mine.assignee_id).toBe(world.inspector.userId);
  });

  it('the audit log is for owners, admins and managers (403 for inspectors and viewers); the feed for every member', async () => {
    for (const user of [world.owner, world.admin, world.manager]) {
      expectStatus(await call(user.client, `orgs/${world.org.id}/audit-log`), 200);
    }
    for (const user of [world.inspector, world.viewer]) {
      expectProblem(await call(user.client, `orgs/${world.org.id}/audit-log`), 403, 'forbidden');
      expectStatus(await call(user.client, `orgs/${world.org.id}/activity`), 200);
    }
  });
});
