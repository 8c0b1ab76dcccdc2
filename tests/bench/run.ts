// `npm run bench`: measurements, not tests. Figures on these shared machines are noisy, so
// each comparison is run side by side in one process and reported as a ratio.
//
// 1. Local stack start-up: cold (a new data folder: initdb, bootstrap, migrations, seed) and
//    warm (the same folder again), each to "gateway answering".
// 2. GET /me through the api function (gateway → Deno → one as-caller transaction) against
//    the same as-caller transaction run directly with postgres.js.
// 3. Realtime fan-out (realtime-fanout.ts): one database change delivered to 100 subscribers
//    against the same change delivered to one.
// 4. Answer saving (answer-save.ts): PUT …/answers through the api function against the same
//    statements run directly with postgres.js as the same user.
// 5. Webhooks (webhooks.ts): the outbox's cost per write, and deliveries per second from the
//    worker against signed POSTs sent straight to the same loopback receiver.
// 6. The web app (web.ts): initial JS, Lighthouse and CLS of sign-in, the dashboard, a 500-item
//    run page and the analytics page (with its own JS), and typing latency on the run page,
//    against the budgets of issue 12.
// 7. The request path (request-path.ts, issue 15): reads, search and near-me at 100k sites and
//    1M inspections against pgbench on the same cluster, the gateway's hop, RLS's own cost, and
//    the plans of the hot queries.
// 8. Reports (reports.ts, issue 16): 100k inspections as CSV and a 500-item, 50-photo PDF
//    through the api function, with the function's peak RSS.
// 9. Schedules (schedules.ts, issue 26): materialising one day for 10,000 sites across 100
//    schedules against the same inserts made directly and the 5-minute period, and compliance over
//    a year for 1,000 sites through the api function against the statement alone.
// 10. The soak (soak.ts, issue 24), only when named: an hour of one person's load on a stack of its
//    own, the resident memory of each of its processes every 30 s (`-- soak --minutes=10`,
//    `--npm-start` for what `npm start` runs; soak.ts lists the options).
// 11. Sign-ins (sign-ins.ts, issue 24), only when named: pgbench -S, simple and prepared, before
//    and after 300 users sign in, the catalog rows written meanwhile, and for scale the same
//    pgbench under a storm of catalog invalidations (`-- sign-ins --users=50`).
// 12. Site groups (site-groups.ts, issue 27): the inspections list and a site read at 100k sites in
//    1k groups, for a member limited to a region beside an org-wide member, through the api and in
//    SQL, with the plans; the list for narrower and worst-case limits; and what the list's table of
//    inspections by site group costs writes.
// 13. Site groups, the api's routes (site-groups-api.ts, issue 27): the whole tree of 1,000 groups
//    at 100,000 sites, org-wide and limited, against its statement alone and a sites page; moving
//    500 sites at once against the same UPDATE.
// 14. Analytics (analytics.ts, issue 28), only when named (it generates 1M inspections and 20M
//    answers first, which takes minutes): every measure for an organization of 100k inspections
//    through the api function (p50 / p95) against its statement run directly and against the same
//    figures computed from the base tables; the rebuild's time; the rollup triggers' cost to writes
//    (`-- analytics --scale=0.1` for a tenth of the data).
//
//   npm run bench             everything, as a readable table
//   npm run bench -- reads    one part (startup, me, realtime, answers, webhooks, web, reads, reports, schedules, site-groups, site-groups-api, soak, sign-ins, analytics)
//   npm run bench -- web --baseline=main --runs=5
//                             the web app beside another revision's build, in one run, medians and ratios
//                             (--pages=run,dashboard for some of the pages only)
//   npm run bench -- --json   the web, request-path, answer-save and realtime figures and their ratios as JSON, under stable names
//                             (with part names, only those parts)
import { rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { benchAnalytics } from './analytics.ts';
import { benchAnswerSave } from './answer-save.ts';
import { load, type LoadResult, signUpBenchUser } from './measure.ts';
import { benchRealtimeFanout } from './realtime-fanout.ts';
import { benchWeb, printWebFigures, WEB_BUDGETS, type WebFigures } from './web.ts';
import { benchWebhooks } from './webhooks.ts';
import { benchRequestPath } from './request-path.ts';
import { benchReports } from './reports.ts';
import { benchSchedules } from './schedules.ts';
import { benchSiteGroupsApi } from './site-groups-api.ts';
import { benchSignIns } from './sign-ins.ts';
import { benchSiteGroups } from './site-groups.ts';
import { benchSoak, soakOptionsFrom } from './soak.ts';

async function benchStartup(dir: string) {
  const runs = 3;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = path.join(dir, `startup-${i}`, 'data');
    const options = { dataDir, ports: await freeStackPorts(), fast: false, log: () => {} };
    let t = performance.now();
    let stack = await startStack(options);
    cold.push(performance.now() - t);
    await stack.stop();
    t = performance.now();
    stack = await startStack({ ...options, ports: await freeStackPorts() });
    warm.push(performance.now() - t);
    await stack.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nStack start-up (median of ${runs}, npm packages and Deno cache warm)`);
  console.log(`  cold (new data folder): ${(median(cold) / 1000).toFixed(2)} s   runs: ${cold.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
  console.log(`  warm (existing folder): ${(median(warm) / 1000).toFixed(2)} s   runs: ${warm.map((x) => (x / 1000).toFixed(2)).join(', ')}`);
}

async function benchMe(dir: string) {
  const stack = await startStack({ dataDir: path.join(dir, 'me', 'data'), ports: await freeStackPorts(), fast: false, log: () => {} });
  try {
    // Requests are spread over many users, as real traffic is: one user's 6 000 requests would
    // meet that user's rate limit (docs/api-keys.md), which is not what this measures.
    const users = await Promise.all(Array.from({ length: 30 }, (_, i) => signUpBenchUser(stack, `bench-${i}`)));
    const { claims } = users[0];
    let next = 0;
    const sql = postgres(stack.config.dbUrl, { max: 10, prepare: false, onnotice: () => {} });
    const viaFunction = async () => {
      const { accessToken } = users[next++ % users.length];
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/me`, {
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}` },
      });
      if (response.status !== 200) throw new Error(`GET /me answered ${response.status}`);
      await response.arrayBuffer();
    };
    const direct = async () => {
      // The function's rate-limit statement too (a bucket too big to refuse), so the two sides do the same work.
      await sql`select allowed from private.take_request_token('bench:direct', 1000000, 1000000)`;
      await sql.begin(async (tx) => {
        await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
        await tx`select user_id, display_name, created_at, updated_at from public.profiles where user_id = ${claims.sub}`;
      });
    };
    await load(200, 10, viaFunction); // warm-up
    await load(200, 10, direct);
    const rounds = 3;
    // The rate limit's own statement, alone: its share of a request (one bucket per caller, as the
    // function takes it, so rows do not queue on one lock).
    let bucket = 0;
    const limiter = async () => {
      await sql`select allowed from private.take_request_token(${`bench:${bucket++ % users.length}`}, 1000000, 1000000)`;
    };
    const results: Array<{ fn: LoadResult; db: LoadResult; limit: LoadResult }> = [];
    for (let i = 0; i < rounds; i++) {
      results.push({ fn: await load(2000, 10, viaFunction), db: await load(2000, 10, direct), limit: await load(2000, 10, limiter) });
    }
    await sql.end();
    console.log('\nGET /me, 2000 requests, 10 in flight, alternating rounds (function | direct SQL | ratio)');
    for (const [i, { fn, db }] of results.entries()) {
      console.log(
        `  round ${i + 1}: ${fn.rps.toFixed(0)} | ${db.rps.toFixed(0)} req/s (direct ${(db.rps / fn.rps).toFixed(1)}× faster); ` +
          `p50 ${fn.p50.toFixed(2)} | ${db.p50.toFixed(2)} ms; p99 ${fn.p99.toFixed(2)} | ${db.p99.toFixed(2)} ms`,
      );
    }
    console.log('The rate-limit statement alone, 2000 calls, 10 in flight (p50, and its share of the function\'s p50)');
    for (const [i, { fn, limit }] of results.entries()) {
      console.log(`  round ${i + 1}: p50 ${limit.p50.toFixed(2)} ms = ${((limit.p50 / fn.p50) * 100).toFixed(0)}% of GET /me's ${fn.p50.toFixed(2)} ms`);
    }
  } finally {
    await stack.stop();
  }
}

/** The web figures as JSON, under names that stay the same from run to run, each with its ratio to the budget. */
function webJson(figures: WebFigures) {
  const slug = (name: string) => name.split(' ')[0].replace(/-/g, '_');
  const out: Record<string, number | null> = {};
  for (const page of figures.pages) {
    out[`web.${slug(page.name)}.initial_js_kb`] = Math.round(page.initialJsKb);
    out[`web.${slug(page.name)}.initial_js_ratio`] = Number((page.initialJsKb / WEB_BUDGETS.initialJsKb).toFixed(3));
    out[`web.${slug(page.name)}.lighthouse`] = page.lighthouse;
    out[`web.${slug(page.name)}.cls`] = page.cls === null ? null : Number(page.cls.toFixed(3));
    if (page.ownJs) out[`web.${slug(page.name)}.own_js_kb`] = Number(page.ownJs.kb.toFixed(1));
  }
  out['web.run.usable_ms'] = figures.usableMs;
  out['web.run.usable_ratio'] = Number((figures.usableMs / WEB_BUDGETS.usableMs).toFixed(3));
  out['web.run.input_delay_p98_ms'] = Math.round(figures.inputDelayP98Ms);
  out['web.run.input_delay_ratio'] = Number((figures.inputDelayP98Ms / WEB_BUDGETS.inputDelayMs).toFixed(3));
  return out;
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((arg) => !arg.startsWith('--'));
// JSON covers the parts with figures under stable names.
// The soak (an hour), the sign-ins (a diagnosis) and analytics (minutes of data generation) run only when named.
const onlyWhenNamed = ['soak', 'sign-ins', 'analytics'];
const wanted = (part: string) => (only.length ? only.includes(part) : !onlyWhenNamed.includes(part) && (!json || ['web', 'reads', 'realtime', 'answers'].includes(part)));
const dir = privateStackFolder('bench-');
const out: Record<string, number | null> = {};
try {
  if (wanted('startup')) await benchStartup(dir);
  if (wanted('me')) await benchMe(dir);
  if (wanted('realtime')) Object.assign(out, await benchRealtimeFanout({ json }));
  if (wanted('answers')) Object.assign(out, await benchAnswerSave({ json }));
  if (wanted('webhooks')) await benchWebhooks();
  if (wanted('reads')) Object.assign(out, await benchRequestPath({ json }));
  if (wanted('reports') && !json) await benchReports();
  if (wanted('schedules') && !json) await benchSchedules();
  if (wanted('site-groups')) Object.assign(out, await benchSiteGroups({ json }));
  if (wanted('site-groups-api') && !json) await benchSiteGroupsApi();
  if (wanted('soak') && !json) await benchSoak(soakOptionsFrom(args));
  if (wanted('analytics') && !json) await benchAnalytics({ scale: Number(args.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1) });
  if (wanted('sign-ins') && !json) await benchSignIns({ users: Number(args.find((a) => a.startsWith('--users='))?.slice(8) ?? 300) });
  if (wanted('web')) {
    const figures = await benchWeb({
      baseline: args.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length),
      runs: Number(args.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? 1),
      pages: args.find((arg) => arg.startsWith('--pages='))?.slice('--pages='.length).split(','),
    });
    if (json) Object.assign(out, webJson(figures));
    else printWebFigures(figures);
  }
  if (json) console.log(JSON.stringify(out, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
