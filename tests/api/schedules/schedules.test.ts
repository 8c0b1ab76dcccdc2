// Schedules through the api (issue 26 parts 1, 3, 7, 9): the create contract, each site's next
// occurrence at 08:00 local at once, who may read and change them (both sides, keys in
// keys/role-matrix.test.ts), the per-field refusals that write nothing, edits, pause, resume,
// delete and their effect on the inspections, Idempotency-Key, and the occurrences route.
import { beforeAll, describe, expect, it } from 'vitest';
import { recurrenceProblem } from '../../../supabase/functions/_shared/schemas/recurrence.ts';
import { occurrenceTitle } from '../../../supabase/functions/_shared/schemas/schedules.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../supabase/functions/_shared/schemas/webhooks.ts';
import { call, del, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { createPublishedTemplate, inspectionsPath, inspectionWorldAndStranger, startInspection } from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';
import { createSchedule, localTime, materialiseAt, occurrenceRows, scheduleBody, schedulePath, schedulesPath, type ScheduleSites, today, zonedSites } from './support.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();
const sites = {} as ScheduleSites;

beforeAll(async () => {
  Object.assign(sites, await zonedSites(world));
});

const scheduleCount = async () => (await db()`select count(*)::int as n from public.schedules where org_id = ${world.org.id}`)[0].n as number;

describe('creating a schedule', () => {
  it('every Monday at 08:00, due Friday 17:00, at sites in two time zones: each site\'s next occurrence is made at once, at 08:00 local', async () => {
    const created = await createSchedule(world, [sites.seattle.id, sites.auckland.id]);
    expect(created).toMatchObject({
      rrule: 'FREQ=WEEKLY;BYDAY=MO', start_date: today(), end_date: null, time_of_day: '08:00', due_after: 'P4DT9H', assignee_id: null,
      rotation_user_ids: [], title_pattern: 'Weekly food-safety audit — {site} — {date}', site_count: 2, paused: false, version: 1,
      name: world.template.name, template_id: world.template.id, deleted_at: null,
    });
    expect(created.sites.map((s: any) => s.id).sort()).toEqual([sites.seattle.id, sites.auckland.id].sort());
    const list = expectStatus(await call(world.inspector.client, `${inspectionsPath(world.org.id)}?schedule_id=${created.id}&limit=200`), 200).data;
    for (const site of [sites.seattle, sites.auckland]) {
      const upcoming = list.filter((i: any) => i.site_id === site.id && Date.parse(i.due_at) > Date.now())
        .sort((a: any, b: any) => a.occurrence_at.localeCompare(b.occurrence_at));
      expect(upcoming.length, `${site.name} has its next occurrence`).toBeGreaterThan(0);
      const next = upcoming[0];
      expect(localTime(next.occurrence_at, site.timezone)).toMatchObject({ weekday: 'Mon' });
      expect(localTime(next.occurrence_at, site.timezone).local.slice(11)).toBe('08:00');
      expect(localTime(next.due_at, site.timezone)).toMatchObject({ weekday: 'Fri' });
      expect(localTime(next.due_at, site.timezone).local.slice(11)).toBe('17:00');
      expect(next).toMatchObject({ status: 'scheduled', schedule_id: created.id, missed: false, assignee_id: null, site_timezone: site.timezone });
      expect(next.title).toBe(`Weekly food-safety audit — ${site.name} — ${localTime(next.occurrence_at, site.timezone).local.slice(0, 10)}`);
      // Nothing beyond the 14 days ahead.
      expect(upcoming.every((i: any) => Date.parse(i.occurrence_at) < Date.now() + 14 * 86_400_000)).toBe(true);
    }
    // Seattle and Auckland each get their own 08:00: different instants.
    const seattleTimes = new Set(list.filter((i: any) => i.site_id === sites.seattle.id).map((i: any) => i.occurrence_at));
    expect(list.filter((i: any) => i.site_id === sites.auckland.id).some((i: any) => seattleTimes.has(i.occurrence_at))).toBe(false);
  });

  it('a rotation takes turns at each site, and the schedule reads back through GET and the list', async () => {
    const created = await createSchedule(world, [world.site.id], {
      name: 'Daily rotation', rrule: 'FREQ=DAILY', rotation_user_ids: [world.inspector.userId, world.inspector2.userId], due_after: 'PT9H',
    });
    expect(created.rotation_user_ids).toEqual([world.inspector.userId, world.inspector2.userId]);
    const rows = (await occurrenceRows(created.id)).filter((row) => row.status === 'scheduled');
    expect(rows.length).toBeGreaterThanOrEqual(13);
    const assignees = rows.map((row) => row.assignee_id);
    for (let i = 1; i < assignees.length; i++) expect(assignees[i]).not.toBe(assignees[i - 1]);
    expect(new Set(assignees)).toEqual(new Set([world.inspector.userId, world.inspector2.userId]));
    const got = expectStatus(await call(world.viewer.client, schedulePath(world.org.id, created.id)), 200);
    expect(got).toMatchObject({ id: created.id, name: 'Daily rotation', due_after: 'PT9H', next_occurrence_at: expect.any(String) });
    const listed = expectStatus(await call(world.inspector.client, `${schedulesPath(world.org.id)}?q=rotation`), 200);
    expect(listed.data.map((s: any) => s.id)).toEqual([created.id]);
    expect(listed.data[0]).not.toHaveProperty('sites');
  });

  it('titles occurrences as occurrenceTitle (the web\'s preview) says: placeholders filled once, cut to 120 characters', async () => {
    const longName = `{date} ${'Very long site name '.repeat(6).trim()}`.slice(0, 120);
    const site = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: longName }), 201);
    const pattern = '{template} at {site} on {date} {site}';
    const schedule = await createSchedule(world, [site.id], { rrule: 'FREQ=DAILY', due_after: 'PT12H', title_pattern: pattern });
    const rows = await occurrenceRows(schedule.id);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.title).toBe(occurrenceTitle(pattern, longName, world.template.name, row.occurrence_at.toISOString().slice(0, 10)));
      expect([...row.title].length).toBeLessThanOrEqual(120);
    }
    expect(rows[0].title.startsWith(`${world.template.name} at {date} Very`)).toBe(true);
  });

  it('refuses what the rules refuse, per field, in the words of the database\'s checks, and writes nothing', async () => {
    const before = await scheduleCount();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ rrule: 'FREQ=WEEKLY;BYDAY=1MO' }, 'rrule', recurrenceProblem('FREQ=WEEKLY;BYDAY=1MO')!],
      [{ rrule: 'FREQ=DAILY;COUNT=2;UNTIL=20270101' }, 'rrule', 'Use COUNT or UNTIL, not both.'],
      [{ rrule: 'FREQ=HOURLY' }, 'rrule', 'Say how often with FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.'],
      [{ due_after: 'P1M' }, 'due_after'],
      [{ due_after: 'P367D' }, 'due_after', 'Use a due window from one minute to 366 days.'],
      [{ time_of_day: '8:00' }, 'time_of_day'],
      [{ start_date: '2026-02-30' }, 'start_date'],
      [{ end_date: '2020-01-01', start_date: '2026-01-01' }, 'end_date', 'End on or after the start date.'],
      [{ title_pattern: '{site} on {weekday}' }, 'title_pattern', 'Use only the placeholders {site}, {date} and {template}.'],
      [{ assignee_id: world.inspector.userId, rotation_user_ids: [world.inspector2.userId] }, 'rotation_user_ids', 'Choose one assignee or a rotation, not both.'],
      [{ site_ids: [] }, 'site_ids', 'Choose at least one site.'],
      [{ site_ids: [world.site.id, world.site.id] }, 'site_ids', 'List each site once.'],
      [{ site_ids: [strangerWorld.site.id] }, 'site_ids', 'Choose sites of this organization.'],
      [{ site_ids: ['00000000-0000-4000-8000-000000000000'] }, 'site_ids', 'Choose sites of this organization.'],
      [{ template_id: strangerWorld.template.id }, 'template_id', 'Choose a template of this organization.'],
      [{ assignee_id: stranger.userId }, 'assignee_id', 'Choose a member of this organization who can fill in inspections.'],
      [{ rotation_user_ids: [world.viewer.userId] }, 'rotation_user_ids', 'Choose members of this organization who can fill in inspections.'],
      [{ every: 'week' }, 'every', 'This field is not allowed.'],
    ];
    for (const [changes, field, message] of cases) {
      const body = expectProblem(await post(world.manager.client, schedulesPath(world.org.id), scheduleBody(world, [world.site.id], changes)), 422,
        'validation_failed', [field]);
      if (message) expect(body.errors[0].message, JSON.stringify(changes)).toBe(message);
    }
    expect(await scheduleCount()).toBe(before);
  });

  it('inspectors, viewers and strangers cannot; strangers are told it does not exist', async () => {
    const before = await scheduleCount();
    expectProblem(await post(world.inspector.client, schedulesPath(world.org.id), scheduleBody(world, [world.site.id])), 403, 'forbidden');
    expectProblem(await post(world.viewer.client, schedulesPath(world.org.id), scheduleBody(world, [world.site.id])), 403, 'forbidden');
    expectProblem(await post(stranger.client, schedulesPath(world.org.id), scheduleBody(world, [world.site.id])), 404, 'not_found');
    expectProblem(await call(stranger.client, schedulesPath(world.org.id)), 404, 'not_found');
    expect(await scheduleCount()).toBe(before);
  });

  it('an Idempotency-Key makes a retry answer the same schedule, and a different body with it is refused', async () => {
    const key = `schedule-${crypto.randomUUID()}`;
    const body = scheduleBody(world, [world.site.id], { name: 'Once only', rrule: 'FREQ=MONTHLY;BYDAY=-1FR' });
    const first = await post(world.manager.client, schedulesPath(world.org.id), body, { 'idempotency-key': key });
    const again = await post(world.manager.client, schedulesPath(world.org.id), body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect((await db()`select count(*)::int as n from public.schedules where org_id = ${world.org.id} and name = 'Once only'`)[0].n).toBe(1);
    expectProblem(await post(world.manager.client, schedulesPath(world.org.id), { ...body, name: 'Twice' }, { 'idempotency-key': key }), 422,
      'idempotency_conflict');
  });

  it('the webhook event types of TypeScript and the database are the same list', async () => {
    const [row] = await db()`select private.webhook_event_types() as types`;
    expect(row.types).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});

describe('changing a schedule', () => {
  it('an edit changes the future only: not yet started occurrences updated in place or replaced, a started one untouched', async () => {
    const schedule = await createSchedule(world, [world.site.id, sites.seattle.id], { name: 'Edited', rrule: 'FREQ=DAILY', due_after: 'P1D' });
    const before = (await occurrenceRows(schedule.id)).filter((row) => row.status === 'scheduled' && row.occurrence_at > new Date());
    const started = before[0];
    await startInspection(world, started.id, world.manager);

    const retitled = expectStatus(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { title_pattern: '{site} ({date})' }), 200);
    expect(retitled.version).toBe(2);
    const afterTitle = await occurrenceRows(schedule.id);
    for (const row of before.slice(1)) expect(afterTitle.find((r) => r.id === row.id)!.title).toMatch(/^.+ \(\d{4}-\d\d-\d\d\)$/);
    expect(afterTitle.find((r) => r.id === started.id)!.title).toBe(started.title);

    const editedAt = new Date();
    expectStatus(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { time_of_day: '06:45' }), 200);
    const afterTime = await occurrenceRows(schedule.id);
    for (const row of before.slice(1)) {
      expect(afterTime.find((r) => r.id === row.id), 'replaced').toMatchObject({ status: 'canceled', canceled_reason: 'schedule changed' });
    }
    expect(afterTime.find((r) => r.id === started.id)).toMatchObject({ status: 'in_progress', occurrence_at: started.occurrence_at });
    // An occurrence open at the time of the edit (the test run between 08:00 and its due time at a
    // site) is not the future: it keeps its 08:00. The future ones are at 06:45.
    for (const row of afterTime.filter((r) => r.status === 'scheduled' && r.occurrence_at <= editedAt)) {
      expect(localTime(row.occurrence_at, row.site_id === sites.seattle.id ? 'America/Los_Angeles' : 'UTC').local.slice(11)).toBe('08:00');
    }
    const live = afterTime.filter((r) => r.status === 'scheduled' && r.occurrence_at > editedAt);
    expect(live.length).toBeGreaterThan(0);
    for (const row of live) {
      const zone = row.site_id === sites.seattle.id ? 'America/Los_Angeles' : 'UTC';
      expect(localTime(row.occurrence_at, zone).local.slice(11)).toBe('06:45');
    }
  });

  it('sites: the list replaced, added to and taken from, with the occurrences following', async () => {
    const schedule = await createSchedule(world, [world.site.id], { name: 'Sites move', rrule: 'FREQ=DAILY', due_after: 'PT12H' });
    const replaced = expectStatus(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { site_ids: [sites.auckland.id] }), 200);
    expect(replaced.sites.map((s: any) => s.id)).toEqual([sites.auckland.id]);
    expect(replaced.version).toBe(2);
    const rows = await occurrenceRows(schedule.id);
    expect(rows.filter((r) => r.site_id === world.site.id && r.status === 'scheduled' && r.occurrence_at > new Date())).toEqual([]);
    expect(rows.filter((r) => r.site_id === world.site.id && r.canceled_reason === 'schedule changed').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.site_id === sites.auckland.id && r.status === 'scheduled').length).toBeGreaterThan(0);
    const added = expectStatus(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { add_site_ids: [sites.seattle.id], remove_site_ids: [sites.auckland.id] }), 200);
    expect(added.sites.map((s: any) => s.id)).toEqual([sites.seattle.id]);
    expectProblem(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { site_ids: [world.site.id], add_site_ids: [sites.seattle.id] }), 422,
      'validation_failed', ['site_ids']);
    expectProblem(await patch(world.inspector.client, schedulePath(world.org.id, schedule.id), { name: 'Inspector' }), 403, 'forbidden');
    expectProblem(await patch(stranger.client, schedulePath(world.org.id, schedule.id), { name: 'Stranger' }), 404, 'not_found');
    expectProblem(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { end_date: '2000-01-01' }), 422, 'validation_failed', ['end_date']);
  });

  it('pause cancels the future occurrences not yet started; resume makes them again; both twice are fine', async () => {
    const schedule = await createSchedule(world, [world.site.id], { name: 'Paused', rrule: 'FREQ=DAILY', due_after: 'PT12H' });
    const paused = expectStatus(await post(world.manager.client, `${schedulePath(world.org.id, schedule.id)}/pause`, undefined), 200);
    expect(paused).toMatchObject({ paused: true, paused_at: expect.any(String), next_occurrence_at: null });
    const rows = await occurrenceRows(schedule.id);
    expect(rows.filter((r) => r.status === 'scheduled' && r.occurrence_at > new Date())).toEqual([]);
    expect(rows.filter((r) => r.canceled_reason === 'schedule paused').length).toBeGreaterThan(0);
    expect(expectStatus(await post(world.manager.client, `${schedulePath(world.org.id, schedule.id)}/pause`, undefined), 200).paused_at).toBe(paused.paused_at);
    expectProblem(await post(world.viewer.client, `${schedulePath(world.org.id, schedule.id)}/resume`, undefined), 403, 'forbidden');
    const resumed = expectStatus(await post(world.manager.client, `${schedulePath(world.org.id, schedule.id)}/resume`, undefined), 200);
    expect(resumed).toMatchObject({ paused: false, paused_at: null, next_occurrence_at: expect.any(String) });
    expect((await occurrenceRows(schedule.id)).filter((r) => r.status === 'scheduled').length).toBeGreaterThan(0);
    expectStatus(await post(world.manager.client, `${schedulePath(world.org.id, schedule.id)}/resume`, undefined), 200);
  });

  it('delete cancels the future occurrences and is final: read by id, gone from the list, and nothing more changes it', async () => {
    const schedule = await createSchedule(world, [world.site.id], { name: 'Deleted', rrule: 'FREQ=DAILY', due_after: 'PT12H' });
    expectProblem(await del(world.inspector.client, schedulePath(world.org.id, schedule.id)), 403, 'forbidden');
    expect((await del(world.manager.client, schedulePath(world.org.id, schedule.id))).status).toBe(204);
    expect((await del(world.manager.client, schedulePath(world.org.id, schedule.id))).status).toBe(204);
    const rows = await occurrenceRows(schedule.id);
    expect(rows.filter((r) => r.status === 'scheduled' && r.occurrence_at > new Date())).toEqual([]);
    expect(rows.filter((r) => r.canceled_reason === 'schedule deleted').length).toBeGreaterThan(0);
    expect(expectStatus(await call(world.viewer.client, schedulePath(world.org.id, schedule.id)), 200).deleted_at).toEqual(expect.any(String));
    const listed = expectStatus(await call(world.manager.client, `${schedulesPath(world.org.id)}?limit=200`), 200).data;
    expect(listed.map((s: any) => s.id)).not.toContain(schedule.id);
    const refused = expectProblem(await patch(world.manager.client, schedulePath(world.org.id, schedule.id), { name: 'Back' }), 409, 'invalid_transition');
    expect(refused.title).toBe("This schedule is deleted, so it can't be edited.");
    expectProblem(await post(world.manager.client, `${schedulePath(world.org.id, schedule.id)}/resume`, undefined), 409, 'invalid_transition');
    expectProblem(await call(world.manager.client, schedulePath(world.org.id, '00000000-0000-4000-8000-000000000000')), 404, 'not_found');
  });

  it('a schedule whose template is archived later makes nothing more', async () => {
    const template = await createPublishedTemplate(world.manager, world.org.id);
    const schedule = await createSchedule(world, [world.site.id], { template_id: template.id, rrule: 'FREQ=DAILY', due_after: 'PT1H' });
    await db()`update public.templates set status = 'archived' where id = ${template.id}`;
    expect(await materialiseAt(schedule.id, new Date(Date.now() + 30 * 86_400_000), new Date(Date.now() + 20 * 86_400_000), false)).toBe(0);
  });
});

describe('occurrences', () => {
  it('lists past and future occurrences, made or not, with their inspection and where each stands', async () => {
    // Daily at 06:00 UTC for the last ten days, due an hour later.
    const schedule = await createSchedule(world, [world.site.id], { name: 'History', rrule: 'FREQ=DAILY', start_date: today(-10), time_of_day: '06:00', due_after: 'PT1H' });
    // Made as the background run would have made them four days ago (time passed in, no sleeping).
    expect(await materialiseAt(schedule.id, new Date(Date.now() - 4 * 86_400_000))).toBeGreaterThan(0);
    const from = `${today(-7)}T00:00:00Z`;
    const to = `${today(16)}T00:00:00Z`;
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = expectStatus(await call(world.viewer.client,
        `${schedulePath(world.org.id, schedule.id)}/occurrences?from=${from}&to=${to}&limit=5${cursor ? `&cursor=${cursor}` : ''}`), 200);
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(all.map((o) => o.occurrence_at)).toEqual([...all.map((o) => o.occurrence_at)].sort());
    expect(all.length).toBe(23);
    expect(all.every((o) => o.local_start.endsWith('T06:00') && o.site_id === world.site.id)).toBe(true);
    expect(all.map((o) => o.n)).toEqual(all.map((_, i) => i + 4));
    const states = new Set(all.map((o) => o.state));
    // Not made before the run four days ago; missed since (due, never submitted); made and upcoming ahead.
    expect(states.has('not_scheduled')).toBe(true);
    expect(states.has('missed')).toBe(true);
    expect(all.filter((o) => o.state === 'missed').every((o) => o.inspection && o.inspection.missed && Date.parse(o.due_at) < Date.now())).toBe(true);
    expect(all.filter((o) => o.state === 'not_scheduled').every((o) => o.inspection === null)).toBe(true);
    const last = all[all.length - 1];
    expect(last).toMatchObject({ state: 'upcoming', inspection: null });
    expectProblem(await call(world.viewer.client, `${schedulePath(world.org.id, schedule.id)}/occurrences?from=${from}&to=${today(200)}T00:00:00Z`), 422,
      'validation_failed', ['query.to']);
    expectProblem(await call(stranger.client, `${schedulePath(world.org.id, schedule.id)}/occurrences?from=${from}&to=${to}`), 404, 'not_found');
  });
});
