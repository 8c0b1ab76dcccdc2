// Missed and compliance (issue 26 parts 4 and 6): occurrences made as the background run would
// have made them days ago (time passed in), some submitted before their due time, some after,
// some never, one canceled; missed announced once (inspection.missed); the inspections list's
// schedule_id, missed, outcome and due filters; compliance's figures by site, schedule and
// template, each equal to a count of the inspections list; the dashboard's week.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerEverythingRequired, inspectionPath, inspectionsPath, inspectionWorldAndStranger, startInspection } from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createSchedule, materialiseAt, occurrenceRows, today } from './support.ts';

const { world, stranger } = inspectionWorldAndStranger();
let scheduleId: string;
const from = () => `${today(-12)}T00:00:00Z`;
const to = () => `${today(12)}T00:00:00Z`;

/** Starts, answers and submits an inspection as the manager, now. */
async function submit(id: string) {
  await startInspection(world, id, world.manager);
  await answerEverythingRequired(world, id, world.manager);
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
}

/** How many inspections the list answers for `filters` (every page). */
async function listCount(filters: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: any = expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?limit=200&${filters}${cursor ? `&cursor=${cursor}` : ''}`), 200);
    count += page.data.length;
    cursor = page.next_cursor;
  } while (cursor);
  return count;
}

beforeAll(async () => {
  // Daily at 06:00 UTC since ten days ago, due an hour later, made as the run six days ago would have.
  const schedule = await createSchedule(world, [world.site.id], { name: 'Compliance', rrule: 'FREQ=DAILY', start_date: today(-10), time_of_day: '06:00', due_after: 'PT1H' });
  scheduleId = schedule.id;
  expect(await materialiseAt(scheduleId, new Date(Date.now() - 6 * 86_400_000))).toBeGreaterThan(0);
  const rows = await occurrenceRows(scheduleId);
  const past = rows.filter((r) => r.due_at < new Date());
  const future = rows.filter((r) => r.due_at > new Date() && r.status === 'scheduled');
  await submit(past[0].id); // late
  await submit(past[1].id); // late
  await submit(future[0].id); // on time (done early)
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, past[2].id)}/cancel`, undefined), 200);
  await startInspection(world, past[3].id, world.inspector); // started, never submitted: missed
});

describe('missed', () => {
  it('each inspection answers its schedule, occurrence and whether it is missed; the list filters them', async () => {
    const page = expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?schedule_id=${scheduleId}&limit=200`), 200);
    expect(page.data.length).toBe((await occurrenceRows(scheduleId)).length);
    for (const inspection of page.data) {
      expect(inspection).toMatchObject({ schedule_id: scheduleId, occurrence_at: expect.any(String), missed: expect.any(Boolean) });
      expect(inspection.missed).toBe(inspection.status !== 'canceled' && inspection.first_submitted_at === null && Date.parse(inspection.due_at) <= Date.now());
    }
    const missed = expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?schedule_id=${scheduleId}&missed=true&limit=200`), 200).data;
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.every((i: any) => i.missed)).toBe(true);
    expect(missed.some((i: any) => i.status === 'in_progress')).toBe(true);
    expectProblem(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?missed=yes`), 422, 'validation_failed', ['query.missed']);
  });

  it('a missed occurrence is announced once: stamped, and one inspection.missed webhook event each, however often the run goes', async () => {
    expectStatus(await post(world.owner.client, `orgs/${world.org.id}/webhooks`, { url: 'http://127.0.0.1:9/never-answered', event_types: ['inspection.missed'] }), 201);
    await db()`select private.note_missed_occurrences(now())`;
    await db()`select private.note_missed_occurrences(now())`;
    const counts = await db()`
      select i.id, i.missed_noted_at, (select count(*)::int from public.webhook_events e where e.type = 'inspection.missed' and e.entity_id = i.id) as events
      from public.inspections i
      where i.schedule_id = ${scheduleId} and private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now())
    `;
    expect(counts.length).toBeGreaterThan(0);
    for (const row of counts) {
      expect(row.missed_noted_at).not.toBeNull();
      expect(row.events).toBe(1);
    }
    const [event] = await db()`select payload from public.webhook_events where type = 'inspection.missed' and entity_id = ${counts[0].id}`;
    expect(event.payload).toMatchObject({ type: 'inspection.missed', data: { id: counts[0].id, schedule_id: scheduleId } });
  });

  it('a missed occurrence can still be started and submitted, and then counts as late', async () => {
    const [missed] = await db()`
      select id from public.inspections where schedule_id = ${scheduleId} and status = 'scheduled' and due_at < now() order by due_at limit 1
    `;
    await submit(missed.id);
    const inspection = expectStatus(await call(world.viewer.client, inspectionPath(world.org.id, missed.id)), 200);
    expect(inspection.missed).toBe(false);
    expect(Date.parse(inspection.first_submitted_at)).toBeGreaterThan(Date.parse(inspection.due_at));
  });
});

describe('compliance', () => {
  it('counts due, on time, late and missed per site, schedule and template, each figure a count of the inspections list', async () => {
    const filters = `schedule_id=${scheduleId}&due_from=${from()}&due_to=${to()}`;
    const expected = {
      on_time: await listCount(`${filters}&outcome=on_time`),
      late: await listCount(`${filters}&outcome=late`),
      missed: await listCount(`${filters}&missed=true`),
    };
    expect(await listCount(`${filters}&outcome=missed`)).toBe(expected.missed);
    expect(expected).toMatchObject({ on_time: 1, late: 3 });
    expect(expected.missed).toBeGreaterThan(0);
    const due = expected.on_time + expected.late + expected.missed;
    const rate = Math.round((expected.on_time / due) * 10_000) / 10_000;
    for (const groupBy of ['site', 'schedule', 'template'] as const) {
      const answer = expectStatus(await call(world.inspector.client,
        `orgs/${world.org.id}/compliance?from=${from()}&to=${to()}&group_by=${groupBy}&schedule_id=${scheduleId}`), 200);
      expect(answer.group_by).toBe(groupBy);
      expect(answer.groups).toEqual([{
        id: groupBy === 'site' ? world.site.id : groupBy === 'schedule' ? scheduleId : world.template.id,
        name: groupBy === 'site' ? world.site.name : groupBy === 'schedule' ? 'Compliance' : world.template.name,
        due, ...expected, on_time_rate: rate,
      }]);
      expect(answer.total).toEqual({ due, ...expected, on_time_rate: rate });
    }
  });

  it('a range with nothing due has no rate; bad ranges and groupings are refused; strangers are told it does not exist', async () => {
    const empty = expectStatus(await call(world.viewer.client, `orgs/${world.org.id}/compliance?from=2001-01-01T00:00:00Z&to=2001-02-01T00:00:00Z&group_by=site`), 200);
    expect(empty).toMatchObject({ groups: [], total: { due: 0, on_time: 0, late: 0, missed: 0, on_time_rate: null } });
    expectProblem(await call(world.viewer.client, `orgs/${world.org.id}/compliance?from=${from()}&to=${to()}`), 422, 'validation_failed', ['query.group_by']);
    expectProblem(await call(world.viewer.client, `orgs/${world.org.id}/compliance?from=2025-01-01T00:00:00Z&to=2026-06-01T00:00:00Z&group_by=site`), 422,
      'validation_failed', ['query.to']);
    expectProblem(await call(world.viewer.client, `orgs/${world.org.id}/compliance?from=${to()}&to=${from()}&group_by=site`), 422, 'validation_failed', ['query.to']);
    expectProblem(await call(stranger.client, `orgs/${world.org.id}/compliance?from=${from()}&to=${to()}&group_by=site`), 404, 'not_found');
  });

  it('the dashboard has the last seven days\' figures, equal to compliance over the same week', async () => {
    const dashboard = expectStatus(await call(world.manager.client, `orgs/${world.org.id}/dashboard`), 200);
    const [week] = await db()`select now() - interval '7 days' as from, now() as to`;
    const answer = expectStatus(await call(world.manager.client,
      `orgs/${world.org.id}/compliance?from=${week.from.toISOString()}&to=${week.to.toISOString()}&group_by=schedule`), 200);
    expect(dashboard.occurrences_this_week.due).toBeGreaterThan(0);
    // The requests read "now" milliseconds apart; the occurrences fall due at 07:00 UTC, never in between.
    expect(dashboard.occurrences_this_week).toEqual(answer.total);
    expect(dashboard.occurrences_this_week.late).toBeGreaterThan(0);
  });
});
