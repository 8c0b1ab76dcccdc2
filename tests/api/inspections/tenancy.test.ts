// Who may call each inspection route: a member of another organization gets 404 on every route
// (with their own organization's id or A's), roles without the right get 403, and neither writes
// anything. Both sides: the same calls by an allowed role succeed.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, expectStatus, MISSING_ID, patch, post } from '../../support/api.ts';
import {
  INSIDE_GEOFENCE, inspectionPath, inspectionsPath, inspectionWorldAndStranger, type Role, scheduleInspection, startInspection,
} from '../../support/fixtures.ts';
import { inspectionSnapshot } from '../../support/snapshots.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();

/** Every route of an inspection, with a body each would accept. */
function routesOf(orgId: string, id: string, siteId: string, templateId: string) {
  return [
    { name: 'list', method: 'GET', path: inspectionsPath(orgId) },
    { name: 'create', method: 'POST', path: inspectionsPath(orgId), body: { site_id: siteId, template_id: templateId } },
    { name: 'get', method: 'GET', path: inspectionPath(orgId, id) },
    { name: 'patch', method: 'PATCH', path: inspectionPath(orgId, id), body: { title: 'Taken over' } },
    { name: 'start', method: 'POST', path: `${inspectionPath(orgId, id)}/start`, body: INSIDE_GEOFENCE },
    { name: 'submit', method: 'POST', path: `${inspectionPath(orgId, id)}/submit` },
    { name: 'review', method: 'POST', path: `${inspectionPath(orgId, id)}/review`, body: { decision: 'approve' } },
    { name: 'cancel', method: 'POST', path: `${inspectionPath(orgId, id)}/cancel` },
    { name: 'dashboard', method: 'GET', path: `orgs/${orgId}/dashboard` },
  ] as const;
}

let scheduled: any;
beforeAll(async () => {
  scheduled = await scheduleInspection(world, { assignee_id: world.inspector.userId });
});

describe('cross-tenant', () => {
  it('a member of another organization gets 404 on every route of A and writes nothing', async () => {
    const before = await inspectionSnapshot(world.org.id);
    for (const route of routesOf(world.org.id, scheduled.id, world.site.id, world.template.id)) {
      const outcome = await call(stranger.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
      expectProblem(outcome, 404, 'not_found');
      expect(outcome.body.title, route.name).toBe("We couldn't find that organization.");
    }
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('with their own organization\'s id, A\'s inspection, site and template are not found either', async () => {
    const before = await inspectionSnapshot(world.org.id);
    const strangerBefore = await inspectionSnapshot(strangerWorld.orgId);
    for (const route of routesOf(strangerWorld.orgId, scheduled.id, world.site.id, world.template.id)) {
      if (route.name === 'list' || route.name === 'dashboard') continue;
      const outcome = await call(stranger.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
      if (route.name === 'create') {
        // A's site and template do not exist in the stranger's organization.
        expectProblem(outcome, 422, 'validation_failed', ['site_id']);
      } else {
        expectProblem(outcome, 404, 'not_found');
        expect(outcome.body.title, route.name).toBe("We couldn't find that inspection.");
      }
    }
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
    expect(await inspectionSnapshot(strangerWorld.orgId)).toEqual(strangerBefore);
    // Their list and dashboard show only their own organization.
    expect(expectStatus(await call(stranger.client, inspectionsPath(strangerWorld.orgId)), 200).data).toEqual([]);
  });

  it('A\'s own members cannot use B\'s template or site in A', async () => {
    const before = await inspectionSnapshot(world.org.id);
    expectProblem(
      await post(world.manager.client, inspectionsPath(world.org.id), { site_id: world.site.id, template_id: strangerWorld.template.id }),
      422, 'validation_failed', ['template_id'],
    );
    expectProblem(
      await post(world.manager.client, inspectionsPath(world.org.id), { site_id: strangerWorld.site.id, template_id: world.template.id }),
      422, 'validation_failed', ['site_id'],
    );
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('an inspection id that exists nowhere is a 404 for a member', async () => {
    for (const route of routesOf(world.org.id, MISSING_ID, world.site.id, world.template.id)) {
      if (route.name === 'list' || route.name === 'create' || route.name === 'dashboard') continue;
      const by = route.name === 'start' || route.name === 'submit' ? world.inspector : world.manager;
      expectProblem(await call(by.client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined }), 404, 'not_found');
    }
  });
});

describe('roles', () => {
  const managerOnly = ['create', 'patch', 'review', 'cancel'] as const;

  for (const role of ['inspector', 'viewer'] as const satisfies readonly Role[]) {
    it(`the ${role} gets 403 on schedule, edit, review and cancel, and writes nothing`, async () => {
      const before = await inspectionSnapshot(world.org.id);
      for (const route of routesOf(world.org.id, scheduled.id, world.site.id, world.template.id)) {
        if (!(managerOnly as readonly string[]).includes(route.name)) continue;
        const outcome = await call(world.byRole[role].client, route.path, { method: route.method, body: 'body' in route ? route.body : undefined });
        expectProblem(outcome, 403, 'forbidden');
      }
      expect(await inspectionSnapshot(world.org.id)).toEqual(before);
    });
  }

  it('a viewer reads but cannot start or submit (403)', async () => {
    const before = await inspectionSnapshot(world.org.id);
    expectStatus(await call(world.viewer.client, inspectionPath(world.org.id, scheduled.id)), 200);
    expectStatus(await call(world.viewer.client, inspectionsPath(world.org.id)), 200);
    expectStatus(await call(world.viewer.client, `orgs/${world.org.id}/dashboard`), 200);
    expectProblem(await post(world.viewer.client, `${inspectionPath(world.org.id, scheduled.id)}/start`, INSIDE_GEOFENCE), 403, 'forbidden');
    expectProblem(await post(world.viewer.client, `${inspectionPath(world.org.id, scheduled.id)}/submit`, undefined), 403, 'forbidden');
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('an inspector cannot start someone else\'s inspection (403) but the assignee can, and anyone may start an unassigned one', async () => {
    const before = await inspectionSnapshot(world.org.id);
    expectProblem(await post(world.inspector2.client, `${inspectionPath(world.org.id, scheduled.id)}/start`, INSIDE_GEOFENCE), 403, 'forbidden');
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
    expect((await startInspection(world, scheduled.id, world.inspector)).status).toBe('in_progress');
    const open = await scheduleInspection(world);
    expect((await startInspection(world, open.id, world.inspector2)).assignee_id).toBeNull();
  });

  for (const role of ['owner', 'admin', 'manager'] as const satisfies readonly Role[]) {
    it(`the ${role} schedules, edits and cancels`, async () => {
      const inspection = await scheduleInspection(world, {}, world.byRole[role]);
      const edited = expectStatus(await patch(world.byRole[role].client, inspectionPath(world.org.id, inspection.id), { title: `By ${role}` }), 200);
      expect(edited.title).toBe(`By ${role}`);
      expect(expectStatus(await post(world.byRole[role].client, `${inspectionPath(world.org.id, inspection.id)}/cancel`, undefined), 200).status)
        .toBe('canceled');
    });
  }
});
