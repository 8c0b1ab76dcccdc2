// Two materialisers at once make nothing twice (issue 26 part 3), on two connections to the
// stack's database, as two workers (or pg_cron and an edit) would be:
//   1. the same schedule materialised by both: the second waits on the first's inserts
//      (inspections_schedule_occurrence_key) and, once the first commits, makes nothing;
//   2. two background runs: the second skips the schedule the first holds (skip locked) and makes
//      nothing for it, without waiting. (Runs of this file's organization only: a run with a "now"
//      weeks ahead would make other files' schedules' occurrences too.)
// Each waits for the other at a point the test can see (pg_locks), so no timing is guessed.
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { createGeofencedSite, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';
import { createSchedule, today } from './support.ts';

const { world } = inspectionWorldAndStranger();
const first = postgres(stack.DB_URL, { max: 1, onnotice: () => {} });
const second = postgres(stack.DB_URL, { max: 1, onnotice: () => {} });
let siteIds: string[];

beforeAll(async () => {
  siteIds = (await Promise.all(Array.from({ length: 12 }, () => createGeofencedSite(world.manager, world.org.id)))).map((site) => site.id);
});

afterAll(async () => {
  await Promise.all([first.end(), second.end()]);
});

/** Waits until the backend `pid` waits for a lock another transaction holds. */
async function untilWaiting(pid: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await db()`select exists (select 1 from pg_locks where pid = ${pid} and not granted) as waiting`;
    if (row.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

const duplicates = async (scheduleId: string) =>
  (await db()`
    select count(*)::int as n from (
      select site_id, occurrence_at from public.inspections where schedule_id = ${scheduleId} and canceled_reason is null
      group by 1, 2 having count(*) > 1
    ) twice
  `)[0].n;

it('the same schedule materialised by two transactions at once: the second waits, then makes nothing', async () => {
  // Starts beyond the horizon: creating it makes nothing; "now" three weeks on makes 14 days of 12 sites.
  // At noon UTC: between 08:00 and 10:00 that day's occurrence would still be open, a fifteenth.
  const schedule = await createSchedule(world, siteIds, { rrule: 'FREQ=DAILY', start_date: today(20), due_after: 'PT2H' });
  const at = new Date(`${today(21)}T12:00:00Z`);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let made = -1;
  const firstRun = first.begin(async (tx) => {
    made = (await tx`select made from private.materialise_schedule(${schedule.id}, ${at}, null, true)`)[0].made;
    await held;
  });
  const [{ pid }] = await second`select pg_backend_pid() as pid`;
  // The first has made its inspections, uncommitted, once its statement has answered.
  for (let i = 0; i < 400 && made < 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  const secondRun = second.begin(async (tx) => (await tx`select made from private.materialise_schedule(${schedule.id}, ${at}, null, true)`)[0].made as number);
  await untilWaiting(pid);
  release();
  const [, madeAgain] = await Promise.all([firstRun, secondRun]);
  expect(made).toBe(14 * 12);
  expect(madeAgain).toBe(0);
  expect(await duplicates(schedule.id)).toBe(0);
});

it('two background runs at once: the second skips the schedule the first holds, and nothing is made twice', async () => {
  const schedule = await createSchedule(world, siteIds, { rrule: 'FREQ=DAILY', start_date: today(40), due_after: 'PT2H' });
  const at = new Date(Date.now() + 41 * 86_400_000);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let firstMade = -1;
  const firstRun = first.begin(async (tx) => {
    firstMade = (await tx`select private.materialise_schedules(${at}, ${world.org.id}) as made`)[0].made;
    await held;
  });
  // The first holds the schedule's row once its run has returned (its transaction still open).
  for (let i = 0; i < 400 && firstMade < 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  // Every occurrence from its start to three weeks after that "now", at 12 sites.
  const [{ expected }] = await db()`
    select count(*)::int as expected from private.schedule_occurrences(${schedule.id}, now(), ${at}::timestamptz + interval '14 days')
  `;
  expect(expected).toBeGreaterThanOrEqual(14 * 12);
  expect(firstMade).toBeGreaterThanOrEqual(expected);
  const countBefore = (await db()`select count(*)::int as n from public.inspections where schedule_id = ${schedule.id}`)[0].n;
  const secondMade = await second.begin(async (tx) => {
    await tx`select private.materialise_schedules(${at}, ${world.org.id})`;
    return (await tx`select count(*)::int as n from public.inspections where schedule_id = ${schedule.id}`)[0].n;
  });
  // The second saw none of the first's uncommitted rows and made none for this schedule.
  expect(secondMade).toBe(countBefore);
  release();
  await firstRun;
  expect((await db()`select count(*)::int as n from public.inspections where schedule_id = ${schedule.id}`)[0].n).toBe(expected);
  expect(await duplicates(schedule.id)).toBe(0);
});
