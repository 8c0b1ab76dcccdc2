// Reminder emails on the stack (issue 26 part 5; docs/schedules.md, "Reminders"): the schedules'
// run writes them with "now" passed in (no test sleeps), the reminder-mails function sends them
// through the same SMTP path as invitations to the stack's mail catcher, and each arrives once,
// however often the run and the worker go; the managers' digest lists each occurrence at its own
// site's time, the zone named. Two connections at once (as two runs, or pg_cron beside a late
// run, would be): the second run waits on the first's rows and writes none again; two claims take
// disjoint rows without waiting for each other. (The rules in detail: tests/db/222-reminders.)
//
// The test stack runs neither the schedules' run nor the reminder worker on its own (tests/run.ts):
// every run and wake here is the test's.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMail, waitForMail } from '../../support/mail.ts';
import { stack } from '../../support/stack.ts';
import { createGeofencedSite, inspectionWorldAndStranger, tag } from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';
import { createSchedule, localTime, today, zonedSites } from './support.ts';

const { world } = inspectionWorldAndStranger();
const first = postgres(stack.DB_URL, { max: 1, onnotice: () => {} });
const second = postgres(stack.DB_URL, { max: 1, onnotice: () => {} });

afterAll(async () => {
  await Promise.all([first.end(), second.end()]);
});

/** The instant of a UTC wall-clock time `days` from today. */
const utc = (days: number, hhmm: string) => new Date(`${today(days)}T${hhmm}:00Z`);

/** One wake of the reminder worker, as the scheduler (and pg_cron) make it. */
async function wakeWorker() {
  const response = await fetch(`${stack.FUNCTIONS_URL}/reminder-mails`, { method: 'POST', headers: { authorization: `Bearer ${stack.SERVICE_ROLE_KEY}` } });
  expect(response.status).toBe(200);
  return await response.json();
}

const queue = async (at: Date) => (await db()`select private.queue_reminders(${at}, ${world.org.id}) as counts`)[0].counts;
const mailsTo = async (email: string, subject: RegExp) => (await listMail()).filter((m) => m.to.includes(email.toLowerCase()) && subject.test(m.subject));

/** Waits until the backend `pid` waits for a lock another transaction holds. */
async function untilWaiting(pid: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await db()`select exists (select 1 from pg_locks where pid = ${pid} and not granted) as waiting`;
    if (row.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

describe('through the mail path', () => {
  let auckland: any;
  let seattle: any;
  let scheduleId: string;
  beforeAll(async () => {
    ({ auckland, seattle } = await zonedSites(world));
    // Daily at 08:00 local from 30 days ahead, due two days later, the inspector's.
    const name = `Opening check ${tag()}`;
    scheduleId = (await createSchedule(world, [auckland.id], {
      name, title_pattern: `${name} — {site} — {date}`, rrule: 'FREQ=DAILY', start_date: today(30), due_after: 'P2D',
      assignee_id: world.inspector.userId,
    })).id;
    await db()`select private.materialise_schedules(${utc(28, '00:00')}, ${world.org.id})`;
  });

  it('an occurrence opening is mailed to its assignee through the stack\'s SMTP, once, however often the run and the worker go', async () => {
    // 08:00 on day 30 in Auckland (the evening before in UTC).
    const [occurrence] = await db()`
      select id, title, occurrence_at from public.inspections where schedule_id = ${scheduleId} order by occurrence_at limit 1
    `;
    expect(localTime(occurrence.occurrence_at, 'Pacific/Auckland').local).toBe(`${today(30)}T08:00`);
    const opened = new Date(occurrence.occurrence_at.getTime() + 60_000);
    expect((await queue(opened)).opened).toBe(1);
    await wakeWorker();
    const mail = await waitForMail({ to: world.inspector.email, subject: new RegExp(`^Open now: ${occurrence.title}$`) });
    const due = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Pacific/Auckland' })
      .format(new Date(occurrence.occurrence_at.getTime() + 2 * 86_400_000)).replace(/^(\w+),/, '$1');
    expect(mail.text).toContain(`${occurrence.title} is open now and due ${due}, 08:00 (Pacific/Auckland).`);
    expect(mail.text).toContain(`/o/${world.org.slug}/inspections/${occurrence.id}`);
    expect(mail.html).toContain(`/o/${world.org.slug}/inspections/${occurrence.id}`);
    expect(mail.text).toContain('/account');

    expect(await queue(opened)).toMatchObject({ opened: 0 });
    expect(await queue(new Date(opened.getTime() + 5 * 60_000))).toMatchObject({ opened: 0 });
    await wakeWorker();
    await wakeWorker();
    const [row] = await db()`select status, sent_at from private.reminder_outbox where inspection_id = ${occurrence.id} and kind = 'occurrence_opened'`;
    expect(row.status).toBe('sent');
    expect(await mailsTo(world.inspector.email, new RegExp(`^Open now: ${occurrence.title}$`))).toHaveLength(1);
    // Nobody else was told: it is the inspector's.
    for (const other of [world.owner, world.admin, world.manager, world.inspector2, world.viewer]) {
      expect(await mailsTo(other.email, new RegExp(occurrence.title))).toHaveLength(0);
    }
  });

  it('the managers\' digest lists the day\'s missed occurrences, each at its own site\'s time with the zone named, once', async () => {
    const utcSite = await createGeofencedSite(world.manager, world.org.id, { name: `Dockside ${tag()}`, timezone: 'UTC' });
    const name = `Closing check ${tag()}`;
    const schedule = await createSchedule(world, [seattle.id, auckland.id, utcSite.id], {
      name, title_pattern: `${name} — {site} — {date}`, rrule: 'FREQ=DAILY', start_date: today(40), time_of_day: '07:00', due_after: 'PT1H',
    });
    await db()`select private.materialise_schedules(${utc(38, '00:00')}, ${world.org.id})`;
    // Day 40's occurrences, each on its own site's calendar, missed: stamped as the run stamps them
    // (the run itself is for every organization, and a "now" weeks ahead would stamp other files' too).
    const missed = await db()`
      update public.inspections i set missed_noted_at = i.due_at + interval '5 minutes'
      from public.sites s
      where s.id = i.site_id and i.schedule_id = ${schedule.id} and (i.due_at at time zone s.timezone)::date = ${today(40)}::date
      returning i.id
    `;
    expect(missed).toHaveLength(3);
    // Ready at 06:00 on day 41 at the last site to reach it: Seattle (13:00 or 14:00 UTC).
    const [{ ready }] = await db()`select private.instant_of_local_time(${today(41)}::date + time '06:00', 'America/Los_Angeles') as ready`;
    const minutes = (n: number) => new Date(ready.getTime() + n * 60_000);
    expect((await queue(minutes(-1))).digests).toBe(0);
    expect((await queue(minutes(1))).digests).toBe(3);
    expect((await queue(minutes(6))).digests).toBe(0);
    await wakeWorker();
    const subject = /^Missed on \w{3} \d+ \w{3} \d{4}: 3 inspections in /;
    const mail = await waitForMail({ to: world.manager.email, subject });
    expect(mail.subject).toContain(world.org.name);
    for (const zone of ['America/Los_Angeles', 'Pacific/Auckland', 'UTC']) {
      expect(mail.text).toMatch(new RegExp(`was due \\w{3} \\d+ \\w{3} \\d{4}, 08:00 \\(${zone.replace('/', '\\/')}\\) · for anyone`));
    }
    expect(mail.text).toContain('because you are a manager of');
    await waitForMail({ to: world.owner.email, subject });
    await waitForMail({ to: world.admin.email, subject });
    await wakeWorker();
    for (const person of [world.owner, world.admin, world.manager]) expect(await mailsTo(person.email, subject)).toHaveLength(1);
    for (const person of [world.inspector, world.inspector2, world.viewer]) expect(await mailsTo(person.email, subject)).toHaveLength(0);
  });
});

describe('two connections at once', () => {
  let scheduleId: string;
  beforeAll(async () => {
    const sites = await Promise.all(Array.from({ length: 6 }, () => createGeofencedSite(world.manager, world.org.id, { timezone: 'UTC' })));
    // Unassigned, daily at 09:00 UTC from 50 days ahead, due 4 hours later: each opening goes to both inspectors.
    scheduleId = (await createSchedule(world, sites.map((s) => s.id), { rrule: 'FREQ=DAILY', start_date: today(50), time_of_day: '09:00', due_after: 'PT4H' })).id;
    await db()`select private.materialise_schedules(${utc(48, '00:00')}, ${world.org.id})`;
  });

  const rowsOf = async (days: number) =>
    (await db()`
      select count(*)::int as n, count(distinct (o.user_id, o.inspection_id, o.kind))::int as distinct_keys
      from private.reminder_outbox o join public.inspections i on i.id = o.inspection_id
      where i.schedule_id = ${scheduleId} and i.occurrence_at = ${utc(days, '09:00')}
    `)[0];

  it('two runs at once: the second waits on the first\'s rows, then writes none of them again', async () => {
    const at = utc(50, '09:01');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstCounts: any;
    const firstRun = first.begin(async (tx) => {
      firstCounts = (await tx`select private.queue_reminders(${at}, ${world.org.id}) as counts`)[0].counts;
      await held;
    });
    const [{ pid }] = await second`select pg_backend_pid() as pid`;
    for (let i = 0; i < 400 && !firstCounts; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const secondRun = second.begin(async (tx) => (await tx`select private.queue_reminders(${at}, ${world.org.id}) as counts`)[0].counts);
    await untilWaiting(pid);
    release();
    const [, secondCounts] = await Promise.all([firstRun, secondRun]);
    // (The run is the organization's: the first file's schedule may have opened an occurrence too.)
    expect(firstCounts.opened).toBeGreaterThanOrEqual(6 * 2);
    expect(secondCounts.opened).toBe(0);
    expect(await rowsOf(50)).toEqual({ n: 12, distinct_keys: 12 });
  });

  it('two claims at once take no row twice, and the second does not wait for the first', async () => {
    await queue(utc(51, '09:01'));
    const claimed = await first.begin(async (tx) => {
      const mine = await tx`select id from private.claim_reminder_mails(1000, '5 minutes', ${world.org.id}) where skipped_because is null`;
      // The first holds its rows (transaction open); the second claims beside it.
      const theirs = await second`select id from private.claim_reminder_mails(1000, '5 minutes', ${world.org.id})`;
      return { mine: mine.map((r) => r.id as string), theirs: theirs.map((r) => r.id as string) };
    });
    expect(claimed.mine.length).toBeGreaterThan(0);
    expect(claimed.theirs.filter((id) => claimed.mine.includes(id))).toEqual([]);
    // Committed, the first's rows are held by its lease: a claim now takes none of them either.
    const after = await second`select id from private.claim_reminder_mails(1000, '5 minutes', ${world.org.id})`;
    expect(after.filter((r) => claimed.mine.includes(r.id))).toEqual([]);
  });
});
