// Site groups (issue 27): what access by site group costs on the hot reads, a member limited to
// site groups beside an org-wide member of the same organization, side by side in one run.
//
// Data (written with triggers off, as the request-path bench does; the group tree's closure rows
// and private.inspections_by_site_group's are written the way their triggers would): one
// organization with 1,000 site groups on three levels (10 regions, 100 areas, 890 sub-areas),
// 100,000 sites spread over the sub-areas, 2 inspections per site (200,000, their creation times
// interleaved across the regions) with 5 answers each, a published 5-item template, and two groups
// of idle sites (10 and 2,000 sites without any inspection). Members: org-wide inspectors, and
// inspectors limited to one region (10 % of the sites), each signed up from its own loopback address.
//
// Measured, each side alternately in the same run:
//   1. GET /orgs/{org}/inspections?limit=50 and GET /orgs/{org}/sites/{id} (a site of the region,
//      so both sides read the same rows) through the gateway: requests/s, p50, and the CPU per
//      request of the function processes and of Postgres; the ratio limited ÷ org-wide of the
//      time per request (goal ≤ 1.3×).
//   2. The same statements in SQL as the member (`set role authenticated` and the claims, as the
//      api runs them): the Postgres CPU per statement (its backend's, from /proc), the list's
//      statements of before issue 27's "Hot paths" work beside those of now, alternately; EXPLAIN
//      ANALYZE execution time, median of several; and the plans.
//   3. Narrower and worst cases, as latency of the list alone: a member limited to one sub-area
//      (0.1 % of the sites), one limited to a group of 10 sites without inspections, and one to a
//      group of 2,000 such sites (too many to read site by site: the list walks the whole
//      organization to find none); and in SQL, the first page's ids read by walking the
//      organization's index, site by site, and by private.inspections_by_site_group.
//   4. What private.inspections_by_site_group costs writes: moving sites to another group and
//      adding inspections, with its triggers beside the same without them.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { Agent, fetch as undiciFetch } from 'undici';
import { startStack } from '../../stack/server.ts';
import { callerSettingsStatement } from '../../supabase/functions/_shared/sql-literal.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { descendantCpuSeconds, load, percentile, signUpBenchUser } from './measure.ts';

const SITES = 100_000;
const REGIONS = 10;
const AREAS = 100;
const SUB_AREAS = 890;
const INSPECTIONS_PER_SITE = 2;
const ANSWERS_PER_INSPECTION = 5;
const USERS_PER_SIDE = 20;
const REQUESTS = 1500;
const CONCURRENCY = 8;
const ROUNDS = 3;
const IDLE_REGION_SITES = 2_000;
const BUSY_SITE_INSPECTIONS = 2_000;

export type Figures = Record<string, number>;

/** A `fetch` whose connections leave from `address` (loopback only). */
function fetchFrom(address: string): typeof fetch {
  const dispatcher = new Agent({ localAddress: address });
  return ((input: string, init?: Record<string, unknown>) => undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Postgres's CPU per run of `query` (µs), as the api sends it: the caller's settings (the api's own
 * callerSettingsStatement) and the statement in one simple-protocol message, signed by each of
 * `claims` in turn, `runs` times on one connection, read from its backend's /proc entry (Linux;
 * 10 ms ticks, so runs × the statement's time should be a second or more).
 */
async function statementCpuUs(sql: postgres.Sql, claims: Record<string, unknown>[], query: string, runs: number): Promise<number> {
  const connection = await sql.reserve();
  try {
    const [{ pid }] = await connection`select pg_backend_pid() as pid`;
    const ticks = () => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const messages = claims.map((c) => `${callerSettingsStatement({ role: 'authenticated', claims: c })};\n${query}`);
    const before = ticks();
    for (let i = 0; i < runs; i++) await connection.unsafe(messages[i % messages.length]);
    return ((ticks() - before) * 10_000) / runs;
  } finally {
    connection.release();
  }
}

/**
 * The api's inspections list statements, first page without filters (supabase/functions/api/
 * inspections.ts): INSPECTION_COLUMNS with `answered_count` from `answeredCount`, walked by the
 * organization's index (an org-wide caller's, walkedPageSql) or by private.inspections_by_site_group
 * (a limited caller's who sees more than 1,000 sites, groupWalkedPageSql).
 */
const listColumns = (answeredCount: string) => `
  i.*, s.name as site_name, s.timezone as site_timezone, v.version as template_version, v.name as template_name,
  p.display_name as assignee_name,
  v.item_count - cardinality(i.hidden_item_keys) as item_count,
  ${answeredCount} as answered_count,
  (i.status in ('scheduled', 'in_progress') and i.due_at is not null and i.due_at < now()) as overdue,
  private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now()) as missed,
  to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_key`;
const LIST_JOINS = `
  join public.sites s on s.id = i.site_id
  join public.template_versions v on v.id = i.template_version_id
  left join public.profiles p on p.user_id = i.assignee_id`;
const ANSWERED_COUNT = '(select c.answered_count from private.answered_count_of_inspection c where c.inspection_id = i.id)';
const listSql = (org: string) => `
  select ${listColumns(ANSWERED_COUNT)}
  from public.inspections i ${LIST_JOINS}
  where i.org_id = '${org}'
  order by i.created_at desc, i.id desc
  limit 51`;
const groupWalkListSql = (org: string) => `
  select ${listColumns(ANSWERED_COUNT)}
  from private.inspections_by_site_group w
  join public.inspections i on i.id = w.inspection_id ${LIST_JOINS}
  where w.org_id = '${org}' and i.org_id = '${org}'
  order by w.created_at desc, w.inspection_id desc
  limit 51`;
/** What the api sends before the limited caller's unfiltered page: the joins in the order written (JOINS_IN_WRITTEN_ORDER). */
const GROUP_WALK_SETTINGS = `select set_config('join_collapse_limit', '1', true)`;
/**
 * The list statement every caller ran before (issue 27 as first merged): the answers and photos
 * counted under their own policies, the organization's index walked; kept here to measure the
 * change side by side in one run.
 */
const listSqlBefore = (org: string) => `
  select ${listColumns(`(select count(*)::int from public.answers x where x.inspection_id = i.id and x.value is not null and x.item_key <> all (i.hidden_item_keys))
    + (select count(distinct t.item_key)::int from public.attachments t
       where t.inspection_id = i.id and t.confirmed_at is not null and t.item_key <> all (i.hidden_item_keys))`)}
  from public.inspections i ${LIST_JOINS}
  where i.org_id = '${org}'
  order by i.created_at desc, i.id desc
  limit 51`;
const siteSql = (org: string, site: string) => `select * from public.sites where org_id = '${org}' and id = '${site}'`;

/**
 * The bench's organization (see the header): 1,000 groups, 100,000 sites, 200,000 inspections with
 * 5 answers each, and its members, on a started stack.
 */
async function siteGroupsWorld(stack: Awaited<ReturnType<typeof startStack>>, sql: postgres.Sql, log: (line: string) => void) {
  log(`\nSite groups (issue 27): generating ${SITES.toLocaleString()} sites in ${REGIONS + AREAS + SUB_AREAS} groups, ` +
    `${(SITES * INSPECTIONS_PER_SITE).toLocaleString()} inspections, ${(SITES * INSPECTIONS_PER_SITE * ANSWERS_PER_INSPECTION).toLocaleString()} answers …`);
  const users: Awaited<ReturnType<typeof signUpBenchUser>>[] = [];
  const total = 2 * USERS_PER_SIDE + 4;
  for (let i = 0; i < total; i += 10) {
    users.push(...await Promise.all(Array.from({ length: Math.min(10, total - i) }, (_, j) =>
      signUpBenchUser(stack, `bench-groups-${i + j}`, fetchFrom(`127.78.${Math.floor((i + j) / 250)}.${1 + ((i + j) % 250)}`)))));
  }
  const [owner, narrow, empty, idle] = users;
  const orgWide = users.slice(4, 4 + USERS_PER_SIDE);
  const limited = users.slice(4 + USERS_PER_SIDE);
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/${route}`, {
      method,
      headers: { apikey: stack.config.anonKey, authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(data)}`);
    return data;
  };
  const org = (await api('POST', 'orgs', { name: 'Bench site groups' })).id as string;
  const items = Array.from({ length: ANSWERS_PER_INSPECTION }, (_, k) => ({
    key: `item-${k}`, kind: 'pass_fail', label: `Check ${k}`, help: null, required: true, weight: 1,
  }));
  const template = await api('POST', `orgs/${org}/templates`, { name: 'Bench audit', definition: { sections: [{ key: 'main', title: 'Main', items }] } });
  await api('POST', `orgs/${org}/templates/${template.id}/publish`);
  const [version] = await sql`select id from public.template_versions where template_id = ${template.id}`;

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    const regions = ids(await tx`
      insert into public.site_groups (org_id, name, depth) select ${org}, 'Region ' || r, 1 from generate_series(1, ${REGIONS}) r returning id`);
    const areas = ids(await tx`
      insert into public.site_groups (org_id, parent_id, name, depth)
      select ${org}, (${regions}::uuid[])[1 + a % ${REGIONS}], 'Area ' || a, 2 from generate_series(0, ${AREAS - 1}) a returning id`);
    await tx`
      insert into public.site_groups (org_id, parent_id, name, depth)
      select ${org}, (${areas}::uuid[])[1 + x % ${AREAS}], 'Sub-area ' || x, 3 from generate_series(0, ${SUB_AREAS - 1}) x`;
    // The closure rows the group triggers would have written.
    await tx`
      insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance)
      select g.id, g.id, g.org_id, 0 from public.site_groups g where g.org_id = ${org}
      union all
      select g.parent_id, g.id, g.org_id, 1 from public.site_groups g where g.org_id = ${org} and g.parent_id is not null
      union all
      select p.parent_id, g.id, g.org_id, 2 from public.site_groups g join public.site_groups p on p.id = g.parent_id
      where g.org_id = ${org} and p.parent_id is not null`;
    await tx`
      insert into public.sites (org_id, name, address, latitude, longitude, geofence_m, group_id)
      select ${org}, 'Site ' || i, i || ' High Street', 36 + (i::bigint * 7919 % 10000) / 500.0, -9 + (i::bigint * 104729 % 10000) / 300.0, 150,
             (select array_agg(id order by name) from public.site_groups where org_id = ${org} and depth = 3)[1 + i % ${SUB_AREAS}]
      from generate_series(1, ${SITES}) i`;
    // An empty group for the worst case: sites with no inspection at all.
    const [emptyGroup] = await tx`insert into public.site_groups (org_id, name, depth) values (${org}, 'No work here', 1) returning id`;
    await tx`insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance) values (${emptyGroup.id}, ${emptyGroup.id}, ${org}, 0)`;
    await tx`insert into public.sites (org_id, name, geofence_m, group_id) select ${org}, 'Idle site ' || i, 150, ${emptyGroup.id} from generate_series(1, 10) i`;
    // And one with too many such sites to read the list site by site.
    const [idleGroup] = await tx`insert into public.site_groups (org_id, name, depth) values (${org}, 'Idle region', 1) returning id`;
    await tx`insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance) values (${idleGroup.id}, ${idleGroup.id}, ${org}, 0)`;
    await tx`insert into public.sites (org_id, name, geofence_m, group_id) select ${org}, 'Idle region site ' || i, 150, ${idleGroup.id} from generate_series(1, ${IDLE_REGION_SITES}) i`;
    // Creation times shuffled across sites (a multiplicative step), so every page mixes regions.
    await tx`
      insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, due_at, created_at)
      select ${org}, s.id, ${template.id}, ${version.id}, 'Inspection ' || n,
             (array['scheduled', 'in_progress', 'submitted', 'approved']::public.inspection_status[])[1 + n % 4],
             now() + (n % 500 || ' hours')::interval, now() - ((n::bigint * 7919) % 1000003 || ' seconds')::interval
      from (select id, row_number() over (order by id) as r from public.sites where org_id = ${org} and name like 'Site %') s,
           generate_series(1, ${INSPECTIONS_PER_SITE}) k,
           lateral (select (s.r - 1) * ${INSPECTIONS_PER_SITE} + k as n) numbered`;
    // The rows the inspections' insert trigger would have written.
    await tx`
      insert into private.inspections_by_site_group (inspection_id, org_id, created_at, group_id)
      select i.id, i.org_id, i.created_at, s.group_id from public.inspections i join public.sites s on s.id = i.site_id where i.org_id = ${org}`;
    await tx`
      insert into public.answers (org_id, inspection_id, item_key, value, failed, weight)
      select ${org}, i.id, 'item-' || k, '"pass"', false, 1
      from public.inspections i, generate_series(0, ${ANSWERS_PER_INSPECTION - 1}) k
      where i.org_id = ${org}`;
    // Members: org-wide inspectors; inspectors limited to the first region; one limited to a
    // sub-area; one limited to each group without work.
    const [firstRegion] = await tx`select id from public.site_groups where org_id = ${org} and name = 'Region 1'`;
    const [firstSubArea] = await tx`
      select g.id from public.site_groups g where g.org_id = ${org} and g.depth = 3
        and g.id in (select t.descendant_id from private.site_group_tree t where t.ancestor_id = ${firstRegion.id}) limit 1`;
    await tx`insert into public.memberships (org_id, user_id, role, site_access_limited)
      select ${org}, unnest(${orgWide.map((u) => u.claims.sub as string)}::uuid[]), 'inspector', false`;
    await tx`insert into public.memberships (org_id, user_id, role, site_access_limited)
      select ${org}, unnest(${[...limited, narrow, empty, idle].map((u) => u.claims.sub as string)}::uuid[]), 'inspector', true`;
    await tx`insert into public.membership_site_groups (org_id, user_id, site_group_id)
      select ${org}, unnest(${limited.map((u) => u.claims.sub as string)}::uuid[]), ${firstRegion.id}`;
    await tx`insert into public.membership_site_groups (org_id, user_id, site_group_id) values
      (${org}, ${narrow.claims.sub as string}, ${firstSubArea.id}), (${org}, ${empty.claims.sub as string}, ${emptyGroup.id}),
      (${org}, ${idle.claims.sub as string}, ${idleGroup.id})`;
  });
  await sql`vacuum analyze public.sites, public.site_groups, public.inspections, public.answers, public.memberships, public.membership_site_groups,
    private.site_group_tree, private.inspections_by_site_group`;
  const [{ n: seen }] = await sql`
    select count(*)::int as n from public.sites s
    where s.group_id in (select t.descendant_id from private.site_group_tree t join public.site_groups g on g.id = t.ancestor_id
                         where g.org_id = ${org} and g.name = 'Region 1')`;
  log(`  the limited members see ${seen.toLocaleString()} of the ${SITES.toLocaleString()} sites (${((seen / SITES) * 100).toFixed(1)} %)`);

  return { org, owner, narrow, empty, idle, orgWide, limited, users, template: template.id as string, version: version.id as string };
}

export async function benchSiteGroups(options: { json: boolean }): Promise<Figures> {
  const log = (line: string) => !options.json && console.log(line);
  const dir = privateStackFolder('bench-site-groups-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, log: () => {}, scheduler: false });
  const sql = postgres(stack.config.dbUrl, { max: 4, onnotice: () => {} });
  const figures: Figures = {};
  try {
    const { org, narrow, empty, idle, orgWide, limited, users, template, version } = await siteGroupsWorld(stack, sql, log);
    // 1. Through the api, alternately.
    const regionSites = (await sql`
      select s.id from public.sites s
      where s.group_id in (select t.descendant_id from private.site_group_tree t join public.site_groups g on g.id = t.ancestor_id
                           where g.org_id = ${org} and g.name = 'Region 1')
      order by random() limit 500`).map((r) => r.id as string);
    const base = `${stack.config.apiUrl}/functions/v1/api/orgs/${org}`;
    const round = async (who: typeof users, urls: string[]) => {
      let next = 0;
      const before = descendantCpuSeconds();
      const result = await load(REQUESTS, CONCURRENCY, async () => {
        const n = next++;
        const response = await fetch(urls[n % urls.length], {
          headers: { apikey: stack.config.anonKey, authorization: `Bearer ${who[n % who.length].accessToken}` },
        });
        if (response.status !== 200) throw new Error(`GET ${urls[n % urls.length]} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      });
      const after = descendantCpuSeconds();
      return {
        ...result,
        functionCpuUs: ((after.functions - before.functions) * 1e6) / REQUESTS,
        postgresCpuUs: ((after.postgres - before.postgres) * 1e6) / REQUESTS,
      };
    };
    type Round = Awaited<ReturnType<typeof round>>;
    const reads: Record<'list' | 'site', { orgWide: Round[]; limited: Round[] }> = { list: { orgWide: [], limited: [] }, site: { orgWide: [], limited: [] } };
    const urls = { list: [`${base}/inspections?limit=50`], site: regionSites.map((id) => `${base}/sites/${id}`) };
    for (const kind of ['list', 'site'] as const) {
      await round(orgWide, urls[kind]); // warm-up, both sides
      await round(limited, urls[kind]);
      for (let r = 0; r < ROUNDS; r++) {
        reads[kind].orgWide.push(await round(orgWide, urls[kind]));
        reads[kind].limited.push(await round(limited, urls[kind]));
      }
    }
    for (const kind of ['list', 'site'] as const) {
      const { orgWide: a, limited: b } = reads[kind];
      const ratio = median(a.map((x) => x.rps)) / median(b.map((x) => x.rps));
      const name = kind === 'list' ? 'inspections_list' : 'site_read';
      figures[`site_groups.${name}_org_wide_rps`] = Math.round(median(a.map((x) => x.rps)));
      figures[`site_groups.${name}_limited_rps`] = Math.round(median(b.map((x) => x.rps)));
      figures[`site_groups.${name}_ratio`] = Number(ratio.toFixed(3));
      figures[`site_groups.${name}_cpu_ratio`] = Number(
        ((median(b.map((x) => x.functionCpuUs + x.postgresCpuUs))) / median(a.map((x) => x.functionCpuUs + x.postgresCpuUs))).toFixed(3));
      log(`  ${kind === 'list' ? 'GET inspections?limit=50' : 'GET sites/{id}'}, ${REQUESTS} requests × ${ROUNDS} rounds, ${CONCURRENCY} in flight, org-wide | limited:`);
      for (let r = 0; r < ROUNDS; r++) {
        log(`    round ${r + 1}: ${a[r].rps.toFixed(0)} | ${b[r].rps.toFixed(0)} req/s; p50 ${a[r].p50.toFixed(1)} | ${b[r].p50.toFixed(1)} ms; ` +
          `CPU per request function ${a[r].functionCpuUs.toFixed(0)} | ${b[r].functionCpuUs.toFixed(0)} µs, Postgres ${a[r].postgresCpuUs.toFixed(0)} | ${b[r].postgresCpuUs.toFixed(0)} µs`);
      }
      log(`    limited ÷ org-wide, time per request (medians): ${ratio.toFixed(2)}× (goal ≤ 1.3×); CPU per request: ${figures[`site_groups.${name}_cpu_ratio`].toFixed(2)}×`);
    }

    // 2. The statements in SQL, as the api runs them (the member's role and claims).
    const as = async <T>(claims: Record<string, unknown>, work: (tx: postgres.TransactionSql) => Promise<T>) =>
      (await sql.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
        return work(tx);
      })) as T;
    const executionMs = async (tx: postgres.TransactionSql, query: string, runs = 9) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const rows = await tx.unsafe(`explain (analyze, format json) ${query}`);
        times.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
      }
      times.sort((x, y) => x - y);
      return percentile(times, 50);
    };
    const plan = async (tx: postgres.TransactionSql, query: string) =>
      (await tx.unsafe(`explain (analyze, costs off, timing off, summary off) ${query}`)).map((r: Record<string, string>) => `      ${r['QUERY PLAN']}`).join('\n');
    const site = regionSites[0];
    // The list statement each side's api request runs: an org-wide member's walks the organization's
    // index, a limited one's (10,000 sites seen: more than reading site by site allows) walks
    // private.inspections_by_site_group.
    const listOf = { org_wide: listSql(org), limited: groupWalkListSql(org) };
    const listSettings = { org_wide: 'select 1', limited: GROUP_WALK_SETTINGS };
    const sqlTimes: Record<string, number> = {};
    for (let r = 0; r < 3; r++) {
      for (const [who, claims] of [['org_wide', orgWide[0].claims], ['limited', limited[0].claims]] as const) {
        sqlTimes[`${who}_list_${r}`] = await as(claims, async (tx) => {
          await tx.unsafe(listSettings[who]);
          return executionMs(tx, listOf[who]);
        });
        sqlTimes[`${who}_site_${r}`] = await as(claims, (tx) => executionMs(tx, siteSql(org, site)));
      }
    }
    const sqlMedian = (who: string, what: string) => median([0, 1, 2].map((r) => sqlTimes[`${who}_${what}_${r}`]));
    for (const what of ['list', 'site']) {
      const a = sqlMedian('org_wide', what);
      const b = sqlMedian('limited', what);
      figures[`site_groups.sql_${what}_org_wide_ms`] = Number(a.toFixed(3));
      figures[`site_groups.sql_${what}_limited_ms`] = Number(b.toFixed(3));
      figures[`site_groups.sql_${what}_ratio`] = Number((b / a).toFixed(3));
      log(`  SQL of the ${what === 'list' ? 'inspections list' : 'site read'} (EXPLAIN ANALYZE, median): org-wide ${a.toFixed(3)} ms, limited ${b.toFixed(3)} ms (${(b / a).toFixed(2)}×)`);
    }

    // Postgres's CPU per list statement, as the api sends it (the caller's settings and the
    // statement in one message), the statement of before beside that of now, the four in turn.
    const cpuRounds: Record<string, number[]> = {};
    const cpuCases = [
      ['org_wide_before', orgWide, listSqlBefore(org)],
      ['org_wide_now', orgWide, listOf.org_wide],
      ['limited_before', limited, listSqlBefore(org)],
      ['limited_now', limited, `${GROUP_WALK_SETTINGS};\n${listOf.limited}`],
    ] as const;
    for (let r = 0; r < 5; r++) {
      for (const [name, who, query] of cpuCases) (cpuRounds[name] ??= []).push(await statementCpuUs(sql, who.map((u) => u.claims), query, 200));
    }
    const cpu = Object.fromEntries(Object.entries(cpuRounds).map(([name, xs]) => [name, median(xs)]));
    for (const [name, value] of Object.entries(cpu)) figures[`site_groups.sql_list_cpu_${name}_us`] = Math.round(value);
    figures['site_groups.sql_list_cpu_ratio_before'] = Number((cpu.limited_before / cpu.org_wide_before).toFixed(3));
    figures['site_groups.sql_list_cpu_ratio_now'] = Number((cpu.limited_now / cpu.org_wide_now).toFixed(3));
    log(`  Postgres CPU per list statement (medians of 5 rounds of 200), before | now: org-wide ${cpu.org_wide_before.toFixed(0)} | ` +
      `${cpu.org_wide_now.toFixed(0)} µs, limited ${cpu.limited_before.toFixed(0)} | ${cpu.limited_now.toFixed(0)} µs; limited ÷ org-wide ` +
      `${figures['site_groups.sql_list_cpu_ratio_before'].toFixed(2)}× | ${figures['site_groups.sql_list_cpu_ratio_now'].toFixed(2)}×`);

    // 3. Narrower and worst cases: the list's latency alone (20 requests, one at a time).
    const latency = async (who: (typeof users)[number]) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        const response = await fetch(`${base}/inspections?limit=50`, {
          headers: { apikey: stack.config.anonKey, authorization: `Bearer ${who.accessToken}` },
        });
        await response.arrayBuffer();
        times.push(performance.now() - t);
      }
      return median(times);
    };
    const wide = await latency(orgWide[0]);
    const region = await latency(limited[0]);
    const subArea = await latency(narrow);
    const none = await latency(empty);
    const idleMany = await latency(idle);
    figures['site_groups.list_p50_org_wide_ms'] = Number(wide.toFixed(1));
    figures['site_groups.list_p50_region_ms'] = Number(region.toFixed(1));
    figures['site_groups.list_p50_sub_area_ms'] = Number(subArea.toFixed(1));
    figures['site_groups.list_p50_no_work_ms'] = Number(none.toFixed(1));
    figures['site_groups.list_p50_no_work_many_sites_ms'] = Number(idleMany.toFixed(1));
    log(`  GET inspections?limit=50 one at a time, median of 20: org-wide ${wide.toFixed(1)} ms, a region (10 %) ${region.toFixed(1)} ms, ` +
      `a sub-area (0.1 %) ${subArea.toFixed(1)} ms, a group of 10 sites without inspections ${none.toFixed(1)} ms, ` +
      `a group of ${IDLE_REGION_SITES.toLocaleString()} such sites ${idleMany.toFixed(1)} ms`);

    // The same first page read site by site (docs/site-groups.md, "Hot paths"): each seen site's
    // newest inspections by inspections_site_id_created_at_idx, then the newest of those; and by
    // private.inspections_by_site_group; ids only, beside the walk's ids, in SQL as each member.
    const walkIds = `select i.id from public.inspections i where i.org_id = '${org}' order by i.created_at desc, i.id desc limit 51`;
    const bySiteIds = `
      select p.id
      from (select x.id from public.sites x where x.org_id = '${org}' and x.group_id in (select private.limited_site_group_ids())) seen
      cross join lateral (
        select i.id, i.created_at from public.inspections i
        where i.site_id = seen.id and i.org_id = '${org}'
        order by i.created_at desc, i.id desc limit 51) p
      order by p.created_at desc, p.id desc limit 51`;
    const groupWalkIds = `select w.inspection_id from private.inspections_by_site_group w where w.org_id = '${org}'
      order by w.created_at desc, w.inspection_id desc limit 51`;
    const pageCases = [['region', limited[0]], ['sub_area', narrow], ['no_work', empty], ['no_work_many_sites', idle]] as const;
    for (const [name, who] of pageCases) {
      const count = await as(who.claims, async (tx) => (await tx`select private.limited_site_count(${org}) as n`)[0].n as number);
      const walk = await as(who.claims, (tx) => executionMs(tx, walkIds, 3));
      const bySite = await as(who.claims, (tx) => executionMs(tx, bySiteIds, 3));
      const byGroup = await as(who.claims, (tx) => executionMs(tx, groupWalkIds, 3));
      figures[`site_groups.sql_page_walk_${name}_ms`] = Number(walk.toFixed(2));
      figures[`site_groups.sql_page_by_site_${name}_ms`] = Number(bySite.toFixed(2));
      figures[`site_groups.sql_page_by_group_${name}_ms`] = Number(byGroup.toFixed(2));
      log(`  the first page's ids in SQL, limited to ${name.replaceAll('_', ' ')} (${count} sites seen): walking the organization's index ` +
        `${walk.toFixed(2)} ms, site by site ${bySite.toFixed(2)} ms, by private.inspections_by_site_group ${byGroup.toFixed(2)} ms`);
    }
    // A count over the whole organization, as the dashboard's first figures are: every row checked.
    const statusCounts = `select status, count(*) from public.inspections where org_id = '${org}' group by status`;
    const seenStatusCounts = `select status, count(*) from public.inspections where org_id = '${org}'
      and site_id in (select x.id from public.sites x where x.org_id = '${org}' and x.group_id in (select private.limited_site_group_ids()))
      group by status`;
    const countsWide = await as(orgWide[0].claims, (tx) => executionMs(tx, statusCounts, 3));
    const countsLimited = await as(limited[0].claims, (tx) => executionMs(tx, statusCounts, 3));
    const countsLimitedBySite = await as(limited[0].claims, (tx) => executionMs(tx, seenStatusCounts, 3));
    figures['site_groups.sql_status_counts_org_wide_ms'] = Number(countsWide.toFixed(1));
    figures['site_groups.sql_status_counts_limited_ms'] = Number(countsLimited.toFixed(1));
    figures['site_groups.sql_status_counts_limited_by_site_ms'] = Number(countsLimitedBySite.toFixed(1));
    log(`  inspections counted by status over the organization (the dashboard's first figure), SQL: org-wide ${countsWide.toFixed(1)} ms, ` +
      `limited to a region ${countsLimited.toFixed(1)} ms, the same with the seen sites named in the query ${countsLimitedBySite.toFixed(1)} ms`);
    const wideWalk = await as(orgWide[0].claims, (tx) => executionMs(tx, walkIds, 3));
    figures['site_groups.sql_page_walk_org_wide_ms'] = Number(wideWalk.toFixed(2));
    log(`  ... and org-wide, walking: ${wideWalk.toFixed(2)} ms`);

    if (!options.json) {
      console.log('  Plans (EXPLAIN ANALYZE, as the member):');
      for (const [who, claims] of [['org-wide', orgWide[0].claims], ['limited to a region', limited[0].claims]] as const) {
        const side = who === 'org-wide' ? 'org_wide' : 'limited';
        console.log(`    inspections list, ${who}:\n${await as(claims, async (tx) => {
          await tx.unsafe(listSettings[side]);
          return plan(tx, listOf[side]);
        })}`);
        console.log(`    site read, ${who}:\n${await as(claims, (tx) => plan(tx, siteSql(org, site)))}`);
      }
    }

    // 4. What keeping private.inspections_by_site_group costs writes: each write with its triggers
    // beside the same write with them disabled (in the measured transaction, rolled back), in
    // turn; the Postgres CPU of the transaction (its backend's, from /proc) and its time. Last:
    // the rolled-back rows leave dead index entries at the head of the list's indexes.
    const busySite = regionSites[1];
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, created_at)
        select ${org}, ${busySite}, ${template}, ${version}, 'Daily check ' || d, 'approved', now() - (d || ' days')::interval
        from generate_series(1, ${BUSY_SITE_INSPECTIONS}) d`;
      await tx`
        insert into private.inspections_by_site_group (inspection_id, org_id, created_at, group_id)
        select i.id, i.org_id, i.created_at, s.group_id from public.inspections i join public.sites s on s.id = i.site_id
        where i.site_id = ${busySite} and i.title like 'Daily check %'`;
    });
    const [{ id: elsewhere }] = await sql`
      select g.id from public.site_groups g where g.org_id = ${org} and g.depth = 3
        and g.id not in (select t.descendant_id from private.site_group_tree t join public.site_groups r on r.id = t.ancestor_id where r.name = 'Region 1')
      limit 1`;
    const movedSites = (await sql`
      select s.id from public.sites s
      where s.id <> ${busySite} and s.group_id in (select t.descendant_id from private.site_group_tree t join public.site_groups g on g.id = t.ancestor_id
                                                   where g.org_id = ${org} and g.name = 'Region 1')
      limit 500`).map((r) => r.id as string);
    const [{ id: someSite }] = await sql`select id from public.sites where org_id = ${org} and name = 'Site 1'`;
    class RolledBack extends Error {}
    const measuredWrite = async (table: string, trigger: string, on: boolean, work: (tx: postgres.TransactionSql) => Promise<unknown>) => {
      let result = { cpuMs: 0, ms: 0 };
      await sql.begin(async (tx) => {
        if (!on) await tx.unsafe(`alter table ${table} disable trigger ${trigger}`);
        const [{ pid }] = await tx`select pg_backend_pid() as pid`;
        const ticks = () => {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return Number(fields[11]) + Number(fields[12]);
        };
        const [c0, t0] = [ticks(), performance.now()];
        await work(tx);
        result = { cpuMs: (ticks() - c0) * 10, ms: performance.now() - t0 };
        throw new RolledBack();
      }).catch((error) => {
        if (!(error instanceof RolledBack)) throw error;
      });
      return result;
    };
    const writeCases = [
      ['move_500_sites', `moving 500 sites (${500 * INSPECTIONS_PER_SITE} inspections) to another group`, 'public.sites', 'sites_move_inspections_by_site_group',
        (tx: postgres.TransactionSql) => tx`update public.sites set group_id = ${elsewhere} where id in ${tx(movedSites)}`],
      ['move_busy_site', `moving a site with ${BUSY_SITE_INSPECTIONS.toLocaleString()} inspections`, 'public.sites', 'sites_move_inspections_by_site_group',
        (tx: postgres.TransactionSql) => tx`update public.sites set group_id = ${elsewhere} where id = ${busySite}`],
      ['insert_1000', 'adding 1,000 inspections in one statement (a schedules run)', 'public.inspections', 'inspections_add_by_site_group',
        (tx: postgres.TransactionSql) => tx`
          insert into public.inspections (org_id, site_id, template_id, title)
          select ${org}, s.id, ${template}, 'Added ' || s.name from public.sites s where s.org_id = ${org} and s.name like 'Site %' limit 1000`],
      ['insert_1_x200', 'adding an inspection, 200 statements', 'public.inspections', 'inspections_add_by_site_group',
        async (tx: postgres.TransactionSql) => {
          for (let i = 0; i < 200; i++) await tx`insert into public.inspections (org_id, site_id, template_id, title) values (${org}, ${someSite}, ${template}, ${`Added ${i}`})`;
        }],
    ] as const;
    for (const [name, label, table, trigger, work] of writeCases) {
      const runs: Record<'on' | 'off', { cpuMs: number; ms: number }[]> = { on: [], off: [] };
      for (let r = 0; r < 5; r++) {
        runs.on.push(await measuredWrite(table, trigger, true, work));
        runs.off.push(await measuredWrite(table, trigger, false, work));
      }
      const [onCpu, offCpu] = [median(runs.on.map((x) => x.cpuMs)), median(runs.off.map((x) => x.cpuMs))];
      const [onMs, offMs] = [median(runs.on.map((x) => x.ms)), median(runs.off.map((x) => x.ms))];
      figures[`site_groups.write_${name}_cpu_ms`] = onCpu;
      figures[`site_groups.write_${name}_cpu_without_ms`] = offCpu;
      figures[`site_groups.write_${name}_ms`] = Number(onMs.toFixed(1));
      figures[`site_groups.write_${name}_without_ms`] = Number(offMs.toFixed(1));
      log(`  ${label}, with | without private.inspections_by_site_group's trigger (medians of 5): Postgres CPU ${onCpu} | ${offCpu} ms, ` +
        `time ${onMs.toFixed(1)} | ${offMs.toFixed(1)} ms`);
    }
    return figures;
  } finally {
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
