// Postgres after many sign-ins (issue 24): twice, right after ~256 sign-ins on a private stack,
// every simple-protocol query took ~8 ms (pgbench -S at 111–176 tps) while prepared statements
// stayed fast. That shape is what a stream of catalog invalidations does: every backend must
// drop and reload the catalog entries it plans with, and only a query planned anew pays. This
// part checks whether the stack makes such a stream. On a stack of its own, with pgbench's
// tables beside the product's:
//   1. pgbench -S, simple and prepared protocol, before;
//   2. N users each sign up, sign in, read /me and /orgs through the api function, and join a
//      private channel (realtime's RLS probe), as the app does after signing in;
//   3. the catalog rows written meanwhile (pg_stat_sys_tables: DDL, GRANTs, temp tables, roles
//      and functions would all write some; ANALYZE writes pg_statistic), and autovacuum's work on
//      the auth tables;
//   4. pgbench -S again, every few seconds for a minute;
//   5. for scale, pgbench -S while one connection makes a storm of each kind of invalidation.
//
//   npm run bench -- sign-ins               300 users
//   npm run bench -- sign-ins --users=50
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import postgres from 'postgres';
import { Agent, fetch as undiciFetch } from 'undici';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';

const CONCURRENCY = 8;

/** pgbench -S for `seconds` on one connection; transactions per second. */
function pgbench(dbUrl: string, protocol: 'simple' | 'prepared', seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('pgbench', ['-S', '-n', '-M', protocol, '-T', String(seconds), '-c', '1', dbUrl]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN)) : reject(new Error(out))));
  });
}

const perQuery = (tps: number) => `${tps.toFixed(0).padStart(6)} tps (${(1000 / tps).toFixed(2)} ms)`;

export async function benchSignIns(options: { users: number }): Promise<void> {
  const dir = privateStackFolder('bench-sign-ins-');
  // Throwaway-cluster settings as the test runner's stack, where the slowdown was seen.
  const stack = await startStack({
    dataDir: path.join(dir, 'data'),
    ports: await freeStackPorts(),
    fast: true,
    rateLimits: { signInSignUps: options.users * 2 + 100 },
    log: () => {},
  });
  const dbUrl = stack.config.dbUrl;
  const admin = postgres(dbUrl.replace('//postgres:', '//supabase_admin:'), { max: 1, onnotice: () => {} });
  try {
    execFileSync('pgbench', ['-i', '-q', '-s', '1', dbUrl], { stdio: 'ignore' });
    const before = { simple: await pgbench(dbUrl, 'simple', 5), prepared: await pgbench(dbUrl, 'prepared', 5) };
    console.log(`\nPostgres after ${options.users} sign-ins (pgbench -S, one connection)`);
    console.log(`  before:          simple ${perQuery(before.simple)}, prepared ${perQuery(before.prepared)}`);

    // Statistics reach the shared counters within a second of a backend's work.
    await new Promise((r) => setTimeout(r, 2000));
    const catalogWrites = async () => {
      await admin`select pg_stat_clear_snapshot()`;
      const rows = await admin`
        select relname, n_tup_ins + n_tup_upd + n_tup_del as writes from pg_stat_sys_tables where schemaname = 'pg_catalog'`;
      return new Map(rows.map((r) => [r.relname as string, Number(r.writes)]));
    };
    const writesBefore = await catalogWrites();
    const [{ xact_commit: commitsBefore, xact_rollback: rollbacksBefore }] = await admin`
      select xact_commit, xact_rollback from pg_stat_database where datname = current_database()`;

    const started = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (next < options.users) {
        const n = next++;
        // Each user from an address of its own, as real users (and the api tests) come.
        const dispatcher = new Agent({ localAddress: `127.9.${worker}.${1 + (n % 250)}` });
        const client = createClient(stack.config.apiUrl, stack.config.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          global: { fetch: ((input: never, init: never) => undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch },
        });
        const email = `sign-in-${n}-${randomUUID()}@example.test`;
        const signUp = await client.auth.signUp({ email, password: 'bench-password-1' });
        if (signUp.error) throw signUp.error;
        const signIn = await client.auth.signInWithPassword({ email, password: 'bench-password-1' });
        if (signIn.error) throw signIn.error;
        await client.functions.invoke('api/me', { method: 'GET' });
        await client.functions.invoke('api/orgs', { method: 'GET' });
        await client.realtime.setAuth();
        await new Promise<void>((resolve) => {
          const channel = client.channel(`org:${randomUUID()}`, { config: { private: true } });
          channel.subscribe((status) => {
            if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') void client.removeAllChannels().then(() => resolve());
          });
        });
        client.realtime.disconnect();
        await dispatcher.close();
      }
    }));
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const writesAfter = await catalogWrites();
    const [{ xact_commit: commitsAfter, xact_rollback: rollbacksAfter }] = await admin`
      select xact_commit, xact_rollback from pg_stat_database where datname = current_database()`;
    const written = [...writesAfter].map(([name, n]) => [name, n - (writesBefore.get(name) ?? 0)] as const).filter(([, n]) => n !== 0);
    const autovacuum = await admin`
      select relname, autoanalyze_count, autovacuum_count from pg_stat_all_tables
      where schemaname = 'auth' and autoanalyze_count + autovacuum_count > 0 order by relname`;
    console.log(`  ${options.users} users signed up, signed in, read /me and /orgs and joined a private channel in ${seconds.toFixed(0)} s`);
    console.log(`  transactions meanwhile: ${Number(commitsAfter) - Number(commitsBefore)} committed, ${Number(rollbacksAfter) - Number(rollbacksBefore)} rolled back`);
    console.log(`  catalog rows written meanwhile: ${written.map(([name, n]) => `${name} ${n}`).join(', ') || 'none'}`);
    console.log(`  autovacuum on auth tables: ${autovacuum.map((r) => `${r.relname} analyzed ${r.autoanalyze_count}×, vacuumed ${r.autovacuum_count}×`).join('; ') || 'none'}`);
    const ended = started + seconds * 1000;
    for (let round = 0; round < 6; round++) {
      const at = (Date.now() - ended) / 1000;
      const simple = await pgbench(dbUrl, 'simple', 5);
      const prepared = await pgbench(dbUrl, 'prepared', 5);
      console.log(`  ${at.toFixed(0).padStart(3)} s after:   simple ${perQuery(simple)}, prepared ${perQuery(prepared)}`);
    }

    // For scale: what a continuous stream of invalidations does to the same pgbench.
    const storms: Array<[string, () => Promise<unknown>]> = [
      ['ANALYZE of the auth tables', () => admin.unsafe('analyze auth.users, auth.identities, auth.sessions, auth.refresh_tokens, auth.mfa_amr_claims')],
      ['a temp table created and dropped', () => admin.unsafe('create temp table bench_storm (a int); drop table bench_storm')],
      ['CREATE OR REPLACE FUNCTION', () => admin.unsafe('create or replace function public.bench_storm() returns int language sql as $$ select 1 $$')],
    ];
    console.log('  for scale, pgbench -S while one connection repeats, without pause:');
    for (const [name, step] of storms) {
      let running = true;
      let steps = 0;
      const loop = (async () => {
        while (running) {
          await step();
          steps++;
        }
      })();
      const t = Date.now();
      const simple = await pgbench(dbUrl, 'simple', 5);
      const prepared = await pgbench(dbUrl, 'prepared', 5);
      running = false;
      await loop;
      console.log(`    ${name.padEnd(33)} simple ${perQuery(simple)}, prepared ${perQuery(prepared)}; ${(steps / ((Date.now() - t) / 1000)).toFixed(0)} a second`);
    }
    await admin.unsafe('drop function if exists public.bench_storm()');
  } finally {
    await admin.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
