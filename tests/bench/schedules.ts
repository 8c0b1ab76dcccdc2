// Schedules (issue 26 part 10), side by side in one run, on a private stack whose scheduler is off
// (the bench runs the background run itself, with the "now" it needs):
// 1. Materialising one day for 10,000 sites across 100 schedules (100 sites each, in three time
//    zones, daily at 08:00 local): the background run (private.materialise_schedules, triggers and
//    all: audit, realtime, webhook outbox) against inserting the same 10,000 inspections directly
//    with one INSERT (the same triggers), and as a share of the run's 5-minute period; then the run
//    with nothing new (what most 5-minute runs are), and the missed run when those 10,000 fall missed. The EXPLAIN ANALYZE of the run's plan function is printed first.
//    Then the reminder emails those occurrences give (private.queue_reminders, issue 26 part 5):
//    unassigned, each opening goes to every one of the organization's 10 inspectors — the run
//    that writes the openings, the run after it (nothing new), and the run that writes the 10,000
//    missed ones to the 10 inspectors and the owner's digest.
// 2. Compliance over a year for 1,000 sites (one daily schedule: 365,000 occurrences, on time, late
//    and missed): GET /orgs/{org}/compliance through the api function, by site and by template,
//    against the same statement run directly.
// Setup data is written with triggers off (`SET session_replication_role`), as the request-path
// bench does; what is measured runs with every trigger on.
import { rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { load, signUpBenchUser } from './measure.ts';

const SITES = 10_000;
const SCHEDULES = 100;
const ZONES = ['America/Los_Angeles', 'Europe/London', 'Pacific/Auckland'];
const COMPLIANCE_SITES = 1_000;
const INSPECTORS = 10;
const PERIOD_S = 300;
const DEFINITION = {
  sections: [{
    key: 'checks', title: 'Checks', items: [
      { key: 'clean', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
      { key: 'cold', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 1, min: 0, max: 5, unit: '°C' },
    ],
  }],
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const shareOfPeriod = (ms: number) => `${((ms / 1000 / PERIOD_S) * 100).toFixed(2)} % of the 5-minute period`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
}

export async function benchSchedules(): Promise<void> {
  const dir = privateStackFolder('bench-schedules-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, scheduler: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: 4, prepare: false, onnotice: () => {} });
  try {
    const { accessToken } = await signUpBenchUser(stack, 'bench-schedules');
    const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/orgs`, {
      method: 'POST',
      headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench schedules' }),
    });
    const org = ((await response.json()) as { id: string }).id;
    // An endpoint for every event: the run pays for its webhook events, as a real organization's would.
    await sql`insert into public.webhook_endpoints (org_id, url, secret) values (${org}, 'http://127.0.0.1:9/never', ${`whsec_${'B'.repeat(43)}=`})`;
    const [template] = await sql`insert into public.templates (org_id, name, definition) values (${org}, 'Bench audit', ${sql.json(DEFINITION)}) returning id`;
    await sql`insert into public.template_versions (template_id) values (${template.id})`;

    // 1. 10,000 sites, 100 daily schedules of 100 sites each, starting in a month: made up to now
    //    + 14 days when they were created (nothing yet), as the schedule_progress rows say.
    const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.sites (org_id, name, geofence_m, timezone)
        select ${org}, 'Bench site ' || i, 200, (${ZONES}::text[])[1 + i % 3] from generate_series(1, ${SITES}) i`;
      await tx`
        insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
        select ${org}, 'Bench schedule ' || i, ${template.id}, 'FREQ=DAILY', ${start}::date, '08:00', 'PT9H' from generate_series(1, ${SCHEDULES}) i`;
      await tx`
        insert into public.schedule_sites (schedule_id, site_id, org_id)
        select s.id, st.id, ${org}
        from (select id, row_number() over (order by id) - 1 as k from public.schedules where org_id = ${org}) s
        join (select id, row_number() over (order by id) - 1 as k from public.sites where org_id = ${org}) st on st.k / ${SITES / SCHEDULES} = s.k`;
      await tx`insert into private.schedule_progress select id, now() + interval '14 days' from public.schedules where org_id = ${org}`;
    });
    // "Now" such that the 14 days ahead end at 18:00 UTC of the start day: its 08:00 in Los Angeles
    // (15:00 or 16:00 UTC), London and Auckland (19:00 or 20:00 UTC the day before) are in, Auckland's
    // next day is not. Exactly one day at every site.
    const at = new Date(Date.parse(`${start}T18:00:00Z`) - 14 * 86_400_000);
    await sql`vacuum analyze public.sites`;
    await sql`vacuum analyze public.schedule_sites`;

    const [schedule] = await sql`select id from public.schedules where org_id = ${org} order by id limit 1`;
    const plan = await sql.unsafe(
      `explain (analyze, buffers off) select * from private.schedule_occurrence_plan('${schedule.id}', '${at.toISOString()}'::timestamptz - interval '1 day', '${at.toISOString()}'::timestamptz + interval '14 days')`,
    );
    console.log(`\nSchedules: the plan of one schedule's occurrences (100 sites, one day): ${plan.map((row: any) => row['QUERY PLAN']).filter((line: string) => /Execution Time/.test(line)).join('')}`);

    const [[{ made }], runMs] = await timed(() => sql`select private.materialise_schedules(${at}) as made`);
    // The same 10,000 inspections, inserted directly in one statement (the same triggers), in another organization's copy.
    const [directMs] = await (async () => {
      const [, ms] = await timed(() => sql`
        insert into public.inspections (org_id, site_id, template_id, title, due_at, schedule_id, occurrence_at)
        select i.org_id, i.site_id, i.template_id, i.title || ' (direct)', i.due_at + interval '7 days', i.schedule_id, i.occurrence_at + interval '7 days'
        from public.inspections i where i.org_id = ${org} and i.schedule_id is not null`);
      return [ms];
    })();
    const [[{ made: nothing }], idleMs] = await timed(() => sql`select private.materialise_schedules(${at}) as made`);
    // The openings' reminders: at 16:01 UTC on the start day, 08:00 has come in Los Angeles and London
    // (still open there; Auckland's were due at 04:00 UTC): two thirds of the sites, each mailed to
    // every inspector (unassigned).
    await sql`
      with people as (
        insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
        select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'bench-inspector-' || i || '@example.test', '', now(),
               '{"provider":"email","providers":["email"]}', '{}', now(), now()
        from generate_series(1, ${INSPECTORS}) i
        returning id
      )
      insert into public.memberships (org_id, user_id, role) select ${org}, id, 'inspector' from people`;
    const openedAt = new Date(`${start}T16:01:00Z`);
    const [[{ counts: openedCounts }], openedMs] = await timed(() => sql`select private.queue_reminders(${openedAt}) as counts`);
    const [[{ counts: againCounts }], againMs] = await timed(() => sql`select private.queue_reminders(${new Date(openedAt.getTime() + 5 * 60_000)}) as counts`);
    // By 01:01 UTC the next day all 10,000 are due (Los Angeles's last, at 01:00), none more than a day ago.
    const missedAt = new Date(Date.parse(`${start}T01:01:00Z`) + 86_400_000);
    const [[{ missed }], missedMs] = await timed(() => sql`select private.note_missed_occurrences(${missedAt}) as missed`);
    const [[{ counts: missedCounts }], missedQueueMs] = await timed(() => sql`select private.queue_reminders(${missedAt}) as counts`);
    // The owner's digest of the start day: ready at 06:00 the next day in Los Angeles (14:00 UTC).
    const [[{ counts: digestCounts }], digestMs] = await timed(() => sql`select private.queue_reminders(${new Date(Date.parse(`${start}T14:01:00Z`) + 86_400_000)}) as counts`);

    console.log(`Materialising one day: ${SITES.toLocaleString('en')} sites across ${SCHEDULES} schedules (daily at 08:00 local, three time zones)`);
    console.log(`  the background run: ${made} inspections in ${seconds(runMs)} (${(runMs / made).toFixed(2)} ms each) = ${shareOfPeriod(runMs)}`);
    console.log(`  the same inspections inserted directly in one statement: ${seconds(directMs)}; the run takes ${(runMs / directMs).toFixed(2)}× that`);
    console.log(`  the run again, nothing new (most 5-minute runs): ${nothing} made in ${idleMs.toFixed(0)} ms = ${shareOfPeriod(idleMs)}`);
    console.log(`  the missed run when they fall missed: ${missed} announced in ${seconds(missedMs)} = ${shareOfPeriod(missedMs)}`);
    console.log(`Reminder emails of those occurrences (unassigned: to each of ${INSPECTORS} inspectors), the run's queue_reminders`);
    console.log(`  the openings at 16:01 UTC: ${openedCounts.opened} rows in ${seconds(openedMs)} (${(openedMs / Math.max(1, openedCounts.opened)).toFixed(3)} ms each) = ${shareOfPeriod(openedMs)}`);
    console.log(`  the next run, nothing new: ${againCounts.opened} rows in ${againMs.toFixed(0)} ms = ${shareOfPeriod(againMs)}`);
    console.log(`  when they fall missed: ${missedCounts.missed} rows in ${seconds(missedQueueMs)} (${(missedQueueMs / Math.max(1, missedCounts.missed)).toFixed(3)} ms each) = ${shareOfPeriod(missedQueueMs)}`);
    console.log(`  the digest of the day's ${missed} missed, the next morning: ${digestCounts.digests} row in ${digestMs.toFixed(0)} ms = ${shareOfPeriod(digestMs)}`);

    // 2. A year of daily occurrences at 1,000 sites: 60 % on time, 25 % late, 15 % missed.
    const [year] = await sql`
      insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
      values (${org}, 'Bench year', ${template.id}, 'FREQ=DAILY', current_date - 366, '08:00', 'PT9H') returning id`;
    const [version] = await sql`select id from public.template_versions where template_id = ${template.id}`;
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, due_at, schedule_id, occurrence_at,
                                        submitted_at, first_submitted_at)
        select ${org}, st.id, ${template.id}, ${version.id}, 'Year ' || d::date, case when r < 0.85 then 'approved' else 'scheduled' end::public.inspection_status,
               d + interval '17 hours', ${year.id}, d + interval '8 hours',
               case when r < 0.6 then d + interval '12 hours' when r < 0.85 then d + interval '30 hours' end,
               case when r < 0.6 then d + interval '12 hours' when r < 0.85 then d + interval '30 hours' end
        from (select id from public.sites where org_id = ${org} order by id limit ${COMPLIANCE_SITES}) st,
             generate_series(current_date - 365, current_date - 1, interval '1 day') d,
             lateral (select random() + 0 * extract(epoch from d) as r) x`;
    });
    await sql`vacuum analyze public.inspections`;
    const [{ occurrences }] = await sql`select count(*)::int as occurrences from public.inspections where schedule_id = ${year.id}`;
    const from = new Date(Date.now() - 366 * 86_400_000).toISOString();
    const to = new Date().toISOString();
    const headers = { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}` };
    const viaApi = (groupBy: string) => async () => {
      const answer = await fetch(`${stack.config.apiUrl}/functions/v1/api/orgs/${org}/compliance?from=${from}&to=${to}&group_by=${groupBy}&schedule_id=${year.id}`, { headers });
      if (answer.status !== 200) throw new Error(`compliance answered ${answer.status}: ${await answer.text()}`);
      await answer.arrayBuffer();
    };
    const direct = (groupBy: string) => async () => {
      const key = groupBy === 'site' ? 'i.site_id' : 'i.template_id';
      await sql.unsafe(`
        select ${key} as id, count(*)::int as due,
               count(*) filter (where i.first_submitted_at <= i.due_at)::int as on_time,
               count(*) filter (where i.first_submitted_at > i.due_at)::int as late,
               count(*) filter (where private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now()))::int as missed
        from public.inspections i
        where i.org_id = '${org}' and i.schedule_id is not null and i.status <> 'canceled' and (i.due_at <= now() or i.first_submitted_at is not null)
          and i.due_at >= '${from}' and i.due_at < '${to}' and i.schedule_id = '${year.id}'
        group by 1`);
    };
    const explained = await sql.unsafe(`
      explain (analyze) select i.site_id, count(*) from public.inspections i
      where i.org_id = '${org}' and i.schedule_id is not null and i.status <> 'canceled' and (i.due_at <= now() or i.first_submitted_at is not null)
        and i.due_at >= '${from}' and i.due_at < '${to}' and i.schedule_id = '${year.id}' group by 1`);
    console.log(`\nCompliance over a year for ${COMPLIANCE_SITES.toLocaleString('en')} sites (${occurrences.toLocaleString('en')} occurrences), 20 requests each, 2 in flight (api | direct SQL | ratio)`);
    console.log(`  plan: ${explained.map((row: any) => row['QUERY PLAN']).filter((line: string) => /Scan|Execution Time/.test(line)).map((line: string) => line.trim()).join('; ')}`);
    for (const groupBy of ['site', 'template']) {
      await load(2, 1, viaApi(groupBy)); // warm-up
      const api = await load(20, 2, viaApi(groupBy));
      const sqlOnly = await load(20, 2, direct(groupBy));
      console.log(`  group_by=${groupBy}: p50 ${api.p50.toFixed(0)} | ${sqlOnly.p50.toFixed(0)} ms (${(api.p50 / sqlOnly.p50).toFixed(2)}×); p99 ${api.p99.toFixed(0)} | ${sqlOnly.p99.toFixed(0)} ms`);
    }
  } finally {
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
