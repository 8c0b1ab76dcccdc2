// The inspection lifecycle through the api function: schedule (pinning the latest published
// version), start inside and outside the geofence, answer, submit (refused while required items
// are missing), review both ways, continue, submit again, approve; cancel. Each move is stamped
// by the database, audited and refused once the inspection is past it.
import { describe, expect, it } from 'vitest';
import {
  answerEverythingRequired, answerItems, INSIDE_GEOFENCE, inspectionPath, inspectionWorldAndStranger, OUTSIDE_GEOFENCE, REQUIRED_ITEM_KEYS,
  scheduleInspection, SITE_GEOFENCE_M, startInspection, VALID_VALUES,
} from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, ISO_TIMESTAMP, patch, post, UUID } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionSnapshot } from '../../support/snapshots.ts';

const { world } = inspectionWorldAndStranger();

const action = (id: string, verb: string) => `${inspectionPath(world.org.id, id)}/${verb}`;

describe('scheduling', () => {
  it('creates a scheduled inspection pinned to the latest published version, titled "<template> — <site>"', async () => {
    const due = '2030-06-01T09:00:00.000Z';
    const inspection = await scheduleInspection(world, { assignee_id: world.inspector.userId, due_at: '2030-06-01T10:00:00+01:00' });
    expect(inspection).toEqual({
      id: expect.stringMatching(UUID),
      org_id: world.org.id,
      site_id: world.site.id,
      site_name: world.site.name,
      site_timezone: world.site.timezone,
      template_id: world.template.id,
      template_version: world.template.version,
      template_name: world.template.name,
      title: `${world.template.name} — ${world.site.name}`,
      assignee_id: world.inspector.userId,
      assignee_name: world.inspector.displayName,
      due_at: due,
      status: 'scheduled',
      overdue: false,
      score: 0,
      max_score: 0,
      failed_count: 0,
      item_count: 9,
      answered_count: 0,
      hidden_item_keys: [],
      started_at: null,
      started_by: null,
      start_latitude: null,
      start_longitude: null,
      start_accuracy_m: null,
      start_distance_m: null,
      start_outside_geofence: null,
      submitted_at: null,
      submitted_by: null,
      reviewed_at: null,
      reviewed_by: null,
      review_note: null,
      canceled_at: null,
      canceled_reason: null,
      schedule_id: null,
      occurrence_at: null,
      first_submitted_at: null,
      missed: false,
      external_ref: null,
      version: 1,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const [row] = await db()`select template_version_id, created_by from public.inspections where id = ${inspection.id}`;
    expect(row).toEqual({ template_version_id: world.template.versionId, created_by: world.manager.userId });
    const [entry] = await db()`
      select action, actor_user_id from public.audit_log where entity = 'inspections' and entity_id = ${inspection.id}
    `;
    expect(entry).toEqual({ action: 'insert', actor_user_id: world.manager.userId });
  });

  it('keeps a given title and external reference', async () => {
    const inspection = await scheduleInspection(world, { title: '  Morning walk  ', external_ref: `WO-${Date.now()}` });
    expect(inspection.title).toBe('Morning walk');
    expect(inspection.external_ref).toMatch(/^WO-/);
  });

  it('derives overdue from a past due date while the inspection is open', async () => {
    const inspection = await scheduleInspection(world, { due_at: '2020-01-01T00:00:00Z' });
    expect(inspection.overdue).toBe(true);
  });
});

describe('start', () => {
  it('inside the geofence: records the position, its distance and who started, without assigning anyone', async () => {
    const scheduled = await scheduleInspection(world);
    const started = await startInspection(world, scheduled.id, world.inspector, INSIDE_GEOFENCE);
    expect(started).toMatchObject({
      status: 'in_progress',
      started_by: world.inspector.userId,
      started_at: expect.stringMatching(ISO_TIMESTAMP),
      start_latitude: INSIDE_GEOFENCE.latitude,
      start_longitude: INSIDE_GEOFENCE.longitude,
      start_accuracy_m: INSIDE_GEOFENCE.accuracy_m,
      start_outside_geofence: false,
      assignee_id: null,
      version: 2,
    });
    expect(started.start_distance_m).toBeGreaterThan(40);
    expect(started.start_distance_m).toBeLessThan(60);
    expect(Number.isInteger(started.start_distance_m)).toBe(true);
  });

  it('outside the geofence: allowed and flagged', async () => {
    const scheduled = await scheduleInspection(world);
    const started = await startInspection(world, scheduled.id, world.manager, OUTSIDE_GEOFENCE);
    expect(started.start_outside_geofence).toBe(true);
    expect(started.start_distance_m).toBeGreaterThan(SITE_GEOFENCE_M);
    expect(started.start_distance_m).toBeGreaterThan(1000);
  });

  it('without a location: allowed, distance and flag unknown', async () => {
    const scheduled = await scheduleInspection(world);
    const started = await startInspection(world, scheduled.id, world.inspector, { latitude: null, longitude: null, accuracy_m: null });
    expect(started).toMatchObject({ status: 'in_progress', start_latitude: null, start_distance_m: null, start_outside_geofence: null });
    const again = await startInspection(world, (await scheduleInspection(world)).id, world.inspector, {});
    expect(again.start_latitude).toBeNull();
  });

  it('refuses a second start with 409 invalid_transition', async () => {
    const scheduled = await scheduleInspection(world);
    await startInspection(world, scheduled.id, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await post(world.inspector.client, action(scheduled.id, 'start'), INSIDE_GEOFENCE), 409, 'invalid_transition');
    expect(problem.title).toBe("This inspection is in progress, so it can't be started.");
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });
});

describe('submit and review', () => {
  it('refuses a submission with unanswered required items with 422 required_items_missing, listing them', async () => {
    const scheduled = await scheduleInspection(world);
    await startInspection(world, scheduled.id, world.inspector);
    await answerItems(world, scheduled.id, world.inspector, { floor_clean: 'pass', remarks: 'Nothing else.' });
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await post(world.inspector.client, action(scheduled.id, 'submit'), undefined), 422, 'required_items_missing');
    const missing = REQUIRED_ITEM_KEYS.filter((key) => key !== 'floor_clean');
    expect(problem.missing).toEqual(missing);
    expect(problem.title).toBe(`Answer all required items before submitting (${missing.length} left).`);
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('runs the whole way: start → submit → changes requested → continue → submit → approved', async () => {
    const scheduled = await scheduleInspection(world, { assignee_id: world.inspector.userId });
    const started = await startInspection(world, scheduled.id, world.inspector, OUTSIDE_GEOFENCE);
    await answerEverythingRequired(world, scheduled.id, world.inspector);

    const submitted = expectStatus(await post(world.inspector.client, action(scheduled.id, 'submit'), undefined), 200);
    expect(submitted).toMatchObject({ status: 'submitted', submitted_by: world.inspector.userId, submitted_at: expect.stringMatching(ISO_TIMESTAMP) });

    const sentBack = expectStatus(
      await post(world.manager.client, action(scheduled.id, 'review'), { decision: 'request_changes', note: 'Retake the fridge reading.' }),
      200,
    );
    expect(sentBack).toMatchObject({ status: 'changes_requested', reviewed_by: world.manager.userId, review_note: 'Retake the fridge reading.' });

    // Continuing keeps the first start: its time, who and where.
    const continued = await startInspection(world, scheduled.id, world.inspector, INSIDE_GEOFENCE);
    expect(continued).toMatchObject({
      status: 'in_progress',
      started_at: started.started_at,
      started_by: world.inspector.userId,
      start_latitude: OUTSIDE_GEOFENCE.latitude,
      start_outside_geofence: true,
    });
    await answerItems(world, scheduled.id, world.inspector, { fridge_temp: VALID_VALUES.fridge_temp });

    expectStatus(await post(world.inspector.client, action(scheduled.id, 'submit'), undefined), 200);
    const approved = expectStatus(await post(world.admin.client, action(scheduled.id, 'review'), { decision: 'approve' }), 200);
    expect(approved).toMatchObject({ status: 'approved', reviewed_by: world.admin.userId, review_note: null });
    expect(approved.version).toBeGreaterThan(continued.version);

    const audit = await db()`
      select after ->> 'status' as status, actor_user_id from public.audit_log
      where entity = 'inspections' and entity_id = ${scheduled.id} order by id
    `;
    expect(audit.map((e) => e.status)).toEqual(['scheduled', 'in_progress', 'submitted', 'changes_requested', 'in_progress', 'submitted', 'approved']);

    // Final: nothing moves it any more, and its details are frozen.
    for (const [verb, body, by] of [
      ['start', INSIDE_GEOFENCE, world.inspector],
      ['submit', undefined, world.inspector],
      ['review', { decision: 'request_changes' }, world.manager],
      ['cancel', undefined, world.manager],
    ] as const) {
      expectProblem(await post(by.client, action(scheduled.id, verb), body), 409, 'invalid_transition');
    }
    const frozen = expectProblem(await patch(world.manager.client, inspectionPath(world.org.id, scheduled.id), { title: 'Renamed' }), 409, 'invalid_transition');
    expect(frozen.title).toBe("This inspection is approved, so it can't be edited.");
  });

  it('refuses a review of an inspection that is not submitted', async () => {
    const scheduled = await scheduleInspection(world);
    const problem = expectProblem(await post(world.manager.client, action(scheduled.id, 'review'), { decision: 'approve' }), 409, 'invalid_transition');
    expect(problem.title).toBe("This inspection is scheduled, so it can't be approved.");
  });
});

describe('cancel', () => {
  it('cancels a scheduled and an in-progress inspection, stamping who and when; then nothing moves it', async () => {
    const scheduled = await scheduleInspection(world);
    const canceled = expectStatus(await post(world.manager.client, action(scheduled.id, 'cancel'), undefined), 200);
    expect(canceled).toMatchObject({ status: 'canceled', canceled_at: expect.stringMatching(ISO_TIMESTAMP), overdue: false });
    const [row] = await db()`select canceled_by from public.inspections where id = ${scheduled.id}`;
    expect(row.canceled_by).toBe(world.manager.userId);

    const running = await scheduleInspection(world);
    await startInspection(world, running.id, world.inspector);
    expect(expectStatus(await post(world.owner.client, action(running.id, 'cancel'), undefined), 200).status).toBe('canceled');

    const problem = expectProblem(await post(world.inspector.client, action(scheduled.id, 'start'), INSIDE_GEOFENCE), 409, 'invalid_transition');
    expect(problem.title).toBe("This inspection is canceled, so it can't be started.");
  });

  it('refuses to cancel a submitted inspection', async () => {
    const scheduled = await scheduleInspection(world);
    await startInspection(world, scheduled.id, world.inspector);
    await answerEverythingRequired(world, scheduled.id, world.inspector);
    expectStatus(await post(world.inspector.client, action(scheduled.id, 'submit'), undefined), 200);
    const problem = expectProblem(await post(world.manager.client, action(scheduled.id, 'cancel'), undefined), 409, 'invalid_transition');
    expect(problem.title).toBe("This inspection is submitted, so it can't be canceled.");
  });
});

describe('GET /orgs/{org}/inspections/{id}', () => {
  it('returns the inspection with its pinned template version, answers and attachments', async () => {
    const scheduled = await scheduleInspection(world);
    await startInspection(world, scheduled.id, world.inspector);
    await answerEverythingRequired(world, scheduled.id, world.inspector);
    const detail = expectStatus(await call(world.viewer.client, inspectionPath(world.org.id, scheduled.id)), 200);
    expect(detail.id).toBe(scheduled.id);
    expect(detail.template).toMatchObject({
      id: world.template.versionId,
      template_id: world.template.id,
      version: world.template.version,
      definition: world.template.definition,
      published_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(detail.answers.map((a: { item_key: string }) => a.item_key).sort()).toEqual(['cleanliness', 'floor_clean', 'fridge_locked', 'fridge_temp']);
    expect(detail.answers.find((a: { item_key: string }) => a.item_key === 'floor_clean')).toMatchObject({
      value: 'pass',
      answered_by: world.inspector.userId,
      answered_by_name: world.inspector.displayName,
      answered_at: expect.stringMatching(ISO_TIMESTAMP),
      version: expect.any(Number),
    });
    expect(detail.attachments).toEqual([
      expect.objectContaining({ item_key: 'photo', status: 'confirmed', content_type: 'image/jpeg', byte_size: 1024, inspection_id: scheduled.id }),
    ]);
  });
});
