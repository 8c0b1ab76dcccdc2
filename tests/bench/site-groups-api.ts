// The site-group routes at their worst (issue 27, the api's part; docs/site-groups.md, "The API"),
// side by side in one run on a private stack: an organization at both limits — 1,000 groups
// (10 regions × 9 areas × 10 sub-areas … and the regions' and areas' own) and 100,000 sites, 100 in
// each group.
// 1. GET /orgs/{org}/site-groups, the whole tree in one answer, for an org-wide owner and for a
//    manager limited to one region (its 100 groups), against the same statement run directly as
//    the owner, and against GET /orgs/{org}/sites?limit=50 (a hot list) for scale.
// 2. POST /orgs/{org}/sites/move with 500 sites (the most one request takes), back and forth
//    between two groups, against the same UPDATE run directly as the owner (the same triggers:
//    audit, realtime, webhook outbox).
// Sites are written with triggers off (`SET session_replication_role`), as the other benches do;
// the groups with theirs on, which keep the tree's closure table; what is measured runs with every
// trigger on.
import { rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { percentile, signUpBenchUser } from './measure.ts';

const SITES_PER_GROUP = 100;
const ROUNDS = 5;
const READS_PER_ROUND = 20;
const MOVES_PER_ROUND = 4;

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export async function benchSiteGroupsApi(): Promise<void> {
  const dir = privateStackFolder('bench-site-groups-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, scheduler: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: 4, prepare: false, onnotice: () => {} });
  try {
    const owner = await signUpBenchUser(stack, 'bench-groups-owner');
    const limited = await signUpBenchUser(stack, 'bench-groups-limited');
    const api = async (token: string, method: string, route: string, body?: unknown) => {
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/${route}`, {
        method,
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const org = (await api(owner.accessToken, 'POST', 'orgs', { name: 'Bench site groups' })).id as string;

    // 10 regions, 9 areas in each (90), 10 sub-areas in each area (900): 1,000 groups; 100 sites in each.
    // The groups with their triggers on: they keep the tree's closure table (private.site_group_tree).
    await sql`insert into public.site_groups (org_id, name) select ${org}, 'Region ' || r from generate_series(1, 10) r`;
    await sql`
      insert into public.site_groups (org_id, parent_id, name)
      select ${org}, g.id, 'Area ' || a from public.site_groups g, generate_series(1, 9) a where g.org_id = ${org} and g.parent_id is null`;
    await sql`
      insert into public.site_groups (org_id, parent_id, name)
      select ${org}, g.id, 'Sub-area ' || s from public.site_groups g, generate_series(1, 10) s where g.org_id = ${org} and g.depth = 2`;
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.sites (org_id, name, geofence_m, group_id)
        select ${org}, 'Site ' || g.name || ' ' || n, 200, g.id from public.site_groups g, generate_series(1, ${SITES_PER_GROUP}) n where g.org_id = ${org}`;
      const [region] = await tx`select id from public.site_groups where org_id = ${org} and depth = 1 order by name limit 1`;
      await tx`insert into public.memberships (org_id, user_id, role, site_access_limited) values (${org}, ${limited.claims.sub}, 'manager', true)`;
      await tx`insert into public.membership_site_groups (org_id, user_id, site_group_id) values (${org}, ${limited.claims.sub}, ${region.id})`;
    });
    await sql`analyze public.sites`;
    await sql`analyze public.site_groups`;
    const [{ groups, sites }] = await sql`
      select (select count(*)::int from public.site_groups where org_id = ${org}) as groups,
             (select count(*)::int from public.sites where org_id = ${org}) as sites`;

    // The list's statement, as the owner, straight to Postgres (what the api adds is the rest).
    const listDirect = () =>
      sql.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(owner.claims)}, true)`;
        await tx`
          select g.id, g.org_id, g.name, g.parent_id, g.depth, g.created_at, g.updated_at,
                 coalesce(n.active, 0)::int as site_count, coalesce(n.archived, 0)::int as archived_site_count,
                 coalesce(c.children, 0)::int as child_count,
                 (g.org_id in (select private.org_ids_with_every_site()) or g.id in (select private.limited_site_group_ids())) as full
          from public.site_groups g
          left join (
            select s.group_id, count(*) filter (where s.archived_at is null) as active, count(*) filter (where s.archived_at is not null) as archived
            from public.sites s where s.org_id = ${org} and s.group_id is not null group by s.group_id
          ) n on n.group_id = g.id
          left join (
            select c.parent_id, count(*) as children from public.site_groups c where c.org_id = ${org} and c.parent_id is not null group by c.parent_id
          ) c on c.parent_id = g.id
          where g.org_id = ${org} order by g.depth, g.name, g.id`;
      });
    const reads = {
      owner: () => api(owner.accessToken, 'GET', `orgs/${org}/site-groups`),
      limited: () => api(limited.accessToken, 'GET', `orgs/${org}/site-groups`),
      direct: listDirect,
      sites: () => api(owner.accessToken, 'GET', `orgs/${org}/sites?limit=50`),
    };
    const [ownerTree, limitedTree] = [await reads.owner(), await reads.limited()];
    for (const read of Object.values(reads)) for (let i = 0; i < 5; i++) await read(); // warm-up
    const readTimes: Record<keyof typeof reads, number[]> = { owner: [], limited: [], direct: [], sites: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, read] of Object.entries(reads) as Array<[keyof typeof reads, () => Promise<unknown>]>) {
        for (let i = 0; i < READS_PER_ROUND; i++) readTimes[name].push(await timed(read));
      }
    }

    // 2. Moving 500 sites, back and forth between two sub-areas.
    const [from, to] = await sql`select id from public.site_groups where org_id = ${org} and depth = 3 order by name, id limit 2`;
    const moving = (await sql`select id from public.sites where group_id = ${from.id} union all
      select id from public.sites where group_id = ${to.id} order by 1 limit 500`).map((row) => row.id as string);
    let target = to.id as string;
    const swap = () => (target = target === to.id ? from.id : to.id);
    const moveViaApi = async () => {
      await api(owner.accessToken, 'POST', `orgs/${org}/sites/move`, { site_ids: moving, group_id: target });
      swap();
    };
    const moveDirect = async () => {
      await sql.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(owner.claims)}, true)`;
        await tx`update public.sites set group_id = ${target} where org_id = ${org} and id = any(${moving}::uuid[]) and group_id is distinct from ${target}`;
      });
      swap();
    };
    // Every site in one group first, so each move after moves all 500.
    await sql`update public.sites set group_id = ${from.id} where id = any(${moving}::uuid[])`;
    target = to.id;
    await moveViaApi();
    await moveDirect();
    const moveTimes = { api: [] as number[], direct: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < MOVES_PER_ROUND; i++) moveTimes.api.push(await timed(moveViaApi));
      for (let i = 0; i < MOVES_PER_ROUND; i++) moveTimes.direct.push(await timed(moveDirect));
    }

    const m = Object.fromEntries(Object.entries(readTimes).map(([k, v]) => [k, median(v)])) as Record<keyof typeof reads, number>;
    console.log(`\nSite groups (issue 27, the api): ${groups} groups, ${sites.toLocaleString('en')} sites, ${ROUNDS} alternating rounds; medians`);
    console.log(`  GET …/site-groups, org-wide owner (${ownerTree.data.length} groups, ${Math.round(JSON.stringify(ownerTree).length / 1024)} KB): ${ms(m.owner)}`);
    console.log(`  GET …/site-groups, manager limited to a region (${limitedTree.data.length} groups): ${ms(m.limited)} (${(m.limited / m.owner).toFixed(2)}× the owner's)`);
    console.log(`  the list's statement alone, as the owner: ${ms(m.direct)} (the api's answer is ${(m.owner / m.direct).toFixed(2)}× it)`);
    console.log(`  GET …/sites?limit=50, for scale: ${ms(m.sites)} (the tree is ${(m.owner / m.sites).toFixed(2)}× it)`);
    const moveApi = median(moveTimes.api);
    const moveDb = median(moveTimes.direct);
    console.log(`  POST …/sites/move, 500 sites: ${ms(moveApi)}; the same UPDATE directly: ${ms(moveDb)} (${(moveApi / moveDb).toFixed(2)}×)`);
  } finally {
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
