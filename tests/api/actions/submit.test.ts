// Actions opened by submitting an inspection, through the api: one per failed item whatever the
// path — racing submits, a retried request with its Idempotency-Key, a resubmission after changes
// were requested, an item given an action by hand first — and an item that passes later keeps its
// action, marked "item now passes".
import { describe, expect, it } from 'vitest';
import {
  actionsOfInspection, actionPath, answeredWithFailures, FAILED_TITLES, FAILING_VALUES, openAction, submittedWithFailures,
} from './support.ts';
import { addConfirmedPhoto, answerItems, inspectionPath, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';

const { world } = inspectionWorldAndStranger();

const submitPath = (id: string) => `${inspectionPath(world.org.id, id)}/submit`;

describe('opening on submit', () => {
  it('titles each action from its item and answer for every kind that fails', async () => {
    const id = await answeredWithFailures(world, world.inspector, { ...FAILING_VALUES, fridge_locked: 'no', hazards: ['Wet floor', 'Blocked exit'] }, {
      assignee_id: world.inspector.userId,
    });
    expectStatus(await post(world.inspector.client, submitPath(id), undefined), 200);
    const rows = await actionsOfInspection(id);
    expect(Object.fromEntries(rows.map((r) => [r.item_key, r.title]))).toEqual({
      ...FAILED_TITLES,
      fridge_locked: 'Fridge is locked — No',
      hazards: 'Hazards seen — Wet floor, Blocked exit',
    });
    expect(new Set(rows.map((r) => r.origin))).toEqual(new Set(['submit']));
  });

  it('racing submits of one inspection open exactly one action per failed item', async () => {
    const id = await answeredWithFailures(world, world.inspector, FAILING_VALUES, { assignee_id: world.inspector.userId });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => post(world.inspector.client, submitPath(id), undefined)));
    const statuses = outcomes.map((o) => o.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status !== 200)) expectProblem(outcome, 409, 'invalid_transition');
    const rows = await actionsOfInspection(id);
    expect(rows.map((r) => r.item_key)).toEqual(['cleanliness', 'floor_clean', 'fridge_temp']);
  });

  it('a retried submit with the same Idempotency-Key is answered from the first and opens nothing more', async () => {
    const id = await answeredWithFailures(world, world.inspector, FAILING_VALUES, { assignee_id: world.inspector.userId });
    const key = crypto.randomUUID();
    const first = expectStatus(await post(world.inspector.client, submitPath(id), undefined, { 'Idempotency-Key': key }), 200);
    const again = await post(world.inspector.client, submitPath(id), undefined, { 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first);
    expect(await actionsOfInspection(id)).toHaveLength(3);
  });

  it('a resubmission after changes opens actions only for new failures; an item that now passes keeps its action, marked', async () => {
    const id = await submittedWithFailures(world);
    const before = await actionsOfInspection(id);
    expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, id)}/review`, { decision: 'request_changes', note: 'Look again.' }), 200);
    expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/start`, {}), 200);
    await answerItems(world, id, world.inspector, { floor_clean: 'pass', fridge_locked: 'no' });
    expectStatus(await post(world.inspector.client, submitPath(id), undefined), 200);

    const after = await actionsOfInspection(id);
    expect(after.map((r) => r.item_key)).toEqual(['cleanliness', 'floor_clean', 'fridge_locked', 'fridge_temp']);
    // The earlier ones are the same rows, not new ones.
    for (const row of before) expect(after.find((r) => r.item_key === row.item_key)?.id).toBe(row.id);
    const floor = after.find((r) => r.item_key === 'floor_clean')!;
    expect(floor.status).toBe('open');
    expect(floor.item_passed_at).not.toBeNull();
    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, floor.id)), 200);
    expect(detail.item_passed_at).toEqual(expect.any(String));
    expect(detail.events.map((e: any) => e.kind)).toEqual(['opened', 'item_passed']);
    expect(after.filter((r) => r.item_passed_at !== null).map((r) => r.item_key)).toEqual(['floor_clean']);
  });

  it('an item given an action by hand before submitting gets no second one', async () => {
    const id = await answeredWithFailures(world, world.inspector, FAILING_VALUES, { assignee_id: world.inspector.userId });
    const manual = await openAction(world, { inspection_id: id, item_key: 'floor_clean', title: 'Deep-clean the floor' }, world.inspector);
    expectStatus(await post(world.inspector.client, submitPath(id), undefined), 200);
    const rows = await actionsOfInspection(id);
    expect(rows.map((r) => [r.item_key, r.origin])).toEqual([['cleanliness', 'submit'], ['floor_clean', 'manual'], ['fridge_temp', 'submit']]);
    expect(rows.find((r) => r.item_key === 'floor_clean')!.id).toBe(manual.id);
  });

  it('an inspection with no failed item opens none; its actions go to the assignee even when a manager submits', async () => {
    const clean = await answeredWithFailures(world, world.inspector, {}, { assignee_id: world.inspector.userId });
    expectStatus(await post(world.inspector.client, submitPath(clean), undefined), 200);
    expect(await actionsOfInspection(clean)).toEqual([]);

    const id = await answeredWithFailures(world, world.manager, { floor_clean: 'fail' }, { assignee_id: world.inspector2.userId });
    expectStatus(await post(world.manager.client, submitPath(id), undefined), 200);
    const [row] = await actionsOfInspection(id);
    expect([row.assignee_id, row.created_by]).toEqual([world.inspector2.userId, world.manager.userId]);
  });

  it('a refused submit (required items missing) opens nothing', async () => {
    const id = await answeredWithFailures(world, world.inspector, FAILING_VALUES, { assignee_id: world.inspector.userId });
    await db()`delete from public.attachments where inspection_id = ${id}`;
    expectProblem(await post(world.inspector.client, submitPath(id), undefined), 422, 'required_items_missing');
    expect(await actionsOfInspection(id)).toEqual([]);
    await addConfirmedPhoto(world, id, 'photo', world.inspector);
    expectStatus(await post(world.inspector.client, submitPath(id), undefined), 200);
    expect(await actionsOfInspection(id)).toHaveLength(3);
  });
});
