// The corrective-action loop through the api function: submitting an inspection with failed items
// opens one action per failed item, assigned to the inspector; the inspector starts and resolves
// it with a note; the manager verifies it, or reopens it with a note; each step is stamped by the
// database, recorded as an event, audited, and refused once the action is past it.
import { describe, expect, it } from 'vitest';
import { actionIn, actionPath, actionsOfInspection, actionsPath, FAILED_TITLES, move, openAction, submittedWithFailures } from './support.ts';
import { call, expectProblem, expectStatus, ISO_TIMESTAMP, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionWorldAndStranger } from '../../support/fixtures.ts';

const { world } = inspectionWorldAndStranger();

describe('actions opened by submitting an inspection', () => {
  it('opens one action per failed item, titled from the item and its answer, assigned to the inspector', async () => {
    const inspectionId = await submittedWithFailures(world);
    const rows = await actionsOfInspection(inspectionId);
    expect(rows.map((r) => [r.item_key, r.title, r.origin, r.status, r.assignee_id, r.site_id])).toEqual(
      ['cleanliness', 'floor_clean', 'fridge_temp'].map((key) => [key, FAILED_TITLES[key], 'submit', 'open', world.inspector.userId, world.site.id]),
    );
    const list = expectStatus(await call(world.viewer.client, `${actionsPath(world.org.id)}?inspection_id=${inspectionId}`), 200);
    expect(list.data).toHaveLength(3);
    expect(list.data[0]).toMatchObject({
      id: expect.stringMatching(UUID),
      inspection_id: inspectionId,
      site_name: world.site.name,
      priority: 'medium',
      overdue: false,
      due_at: expect.stringMatching(ISO_TIMESTAMP),
    });
  });
});

describe('the action lifecycle', () => {
  it('open → in progress → resolved (with a note) → verified, stamped and recorded', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId, priority: 'high' });
    expect(action).toMatchObject({ status: 'open', priority: 'high', assignee_id: world.inspector.userId, origin: 'manual' });
    await move(world, action.id, world.inspector, 'in_progress');
    const resolved = await move(world, action.id, world.inspector, 'resolved', 'Replaced the tile and sealed the grout.');
    expect(resolved).toMatchObject({ status: 'resolved', resolution_note: 'Replaced the tile and sealed the grout.', resolved_by: world.inspector.userId });
    const verified = await move(world, action.id, world.manager, 'verified');
    expect(verified).toMatchObject({ status: 'verified', verified_by: world.manager.userId });

    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, action.id)), 200);
    expect(detail.events.map((e: any) => [e.kind, e.from_status, e.to_status, e.actor_id, e.note])).toEqual([
      ['opened', null, 'open', world.manager.userId, null],
      ['status_changed', 'open', 'in_progress', world.inspector.userId, null],
      ['status_changed', 'in_progress', 'resolved', world.inspector.userId, 'Replaced the tile and sealed the grout.'],
      ['status_changed', 'resolved', 'verified', world.manager.userId, null],
    ]);
    expect(detail.moves).toEqual([]);
  });

  it('refuses a skipped step with invalid_transition worded for actions, and changes nothing', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const outcome = await post(world.manager.client, `${actionPath(world.org.id, action.id)}/transition`, { to: 'verified' });
    const problem = expectProblem(outcome, 409, 'invalid_transition');
    expect(problem.title).toBe("This action is open, so it can't be verified.");
    const [row] = await db()`select status, version from public.actions where id = ${action.id}`;
    expect(row).toEqual({ status: 'open', version: 1 });
  });

  it('an inspector verifying gets 403', async () => {
    const action = await actionIn(world, 'resolved');
    expectProblem(await post(world.inspector.client, `${actionPath(world.org.id, action.id)}/transition`, { to: 'verified' }), 403, 'forbidden');
  });
});
