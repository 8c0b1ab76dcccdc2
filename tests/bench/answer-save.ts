// Answer saving: PUT /orgs/{org}/inspections/{id}/answers through the api function (gateway →
// Deno → zod → one as-caller transaction) against the same statements run directly with
// postgres.js as the same user with the same claims, side by side in one run, in alternating
// rounds so drift on a shared machine affects both alike. Each of the in-flight workers fills an
// inspection of its own (batches on one inspection serialize on its lock by design) and sends
// the versions it was last given, so no batch is stale.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { currentAnswersStatement, lockInspectionStatement, saveStatements } from '../../supabase/functions/api/answer-statements.ts';
import { load, type LoadResult, signUpBenchUser } from './measure.ts';

const CONCURRENCY = 10;
const REQUESTS_PER_ROUND = 500;
const ROUNDS = 3;

const DEFINITION = {
  sections: [{
    key: 'main',
    title: 'Main',
    items: [
      { key: 'floor', kind: 'pass_fail', label: 'Floor clean', help: null, required: true, weight: 2 },
      { key: 'locked', kind: 'yes_no', label: 'Fridge locked', help: null, required: true, weight: 1, fail_on: 'no' },
      { key: 'temp', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 3, min: 0, max: 5, unit: '°C' },
      { key: 'clean', kind: 'single_choice', label: 'Cleanliness', help: null, required: false, weight: 2, options: ['Good', 'Poor'], failing_options: ['Poor'] },
      { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
    ],
  }],
};

/** One autosave batch: all five items, values varying with n. */
function batchValues(n: number): Array<{ item_key: string; value: unknown; note: string | null }> {
  return [
    { item_key: 'floor', value: n % 3 === 0 ? 'fail' : 'pass', note: null },
    { item_key: 'locked', value: n % 2 === 0 ? 'yes' : 'no', note: null },
    { item_key: 'temp', value: (n % 9) - 1, note: 'Read from the display' },
    { item_key: 'clean', value: n % 4 === 0 ? 'Poor' : 'Good', note: null },
    { item_key: 'remarks', value: `Visit ${n}`, note: null },
  ];
}

/** A template of 20 pass/fail items, for batches of 20 (issue 15: ≥ 0.5× of pgbench -N per answer). */
const TWENTY_ITEMS = {
  sections: [{
    key: 'main',
    title: 'Main',
    items: Array.from({ length: 20 }, (_, i) => ({ key: `check_${i + 1}`, kind: 'pass_fail', label: `Check ${i + 1}`, help: null, required: false, weight: 1 })),
  }],
};

/**
 * The answer-save rows of issue 15's table, under stable names for `npm run bench -- --json`:
 * medians over the rounds of each figure against the pgbench -N run beside it.
 */
function answerFigures(results: Array<{ fn: LoadResult; one: LoadResult; twenty: LoadResult; pgbench: number }>): Record<string, number> {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = (x: number) => Number(x.toFixed(4));
  return {
    'writes.answers_pgbench_simple_update_tps': Math.round(median(results.map((r) => r.pgbench))),
    'writes.one_answer_ratio': ratio(median(results.map((r) => r.one.rps / r.pgbench))),
    'writes.one_answer_p99_ms': Number(median(results.map((r) => r.one.p99)).toFixed(1)),
    'writes.batch5_per_answer_ratio': ratio(median(results.map((r) => (r.fn.rps * 5) / r.pgbench))),
    'writes.batch20_per_answer_ratio': ratio(median(results.map((r) => (r.twenty.rps * 20) / r.pgbench))),
    'writes.batch20_p99_ms': Number(median(results.map((r) => r.twenty.p99)).toFixed(1)),
  };
}

export async function benchAnswerSave(options: { json: boolean } = { json: false }): Promise<Record<string, number>> {
  const dir = privateStackFolder('bench-answers-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: CONCURRENCY, prepare: false, onnotice: () => {} });
  try {
    const { accessToken, claims } = await signUpBenchUser(stack, 'bench-answers');
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/${route}`, {
        method,
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data = await response.json();
      if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(data)}`);
      return data;
    };

    const org = await api('POST', 'orgs', { name: 'Bench answers' });
    // One user per worker, managers of the organization: a single user's 1 600 saves in a few
    // seconds would meet that user's rate limit (docs/api-keys.md), which is not what this measures.
    const workers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => signUpBenchUser(stack, `bench-answers-${i}`)));
    for (const worker of workers) {
      await sql`insert into public.memberships (org_id, user_id, role) values (${org.id}, ${worker.claims.sub}, 'manager')`;
    }
    const workerApi = async (worker: number, method: string, route: string, body: unknown) => {
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/${route}`, {
        method,
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${workers[worker].accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const data = await response.json();
      if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(data)}`);
      return data;
    };
    const site = await api('POST', `orgs/${org.id}/sites`, { name: 'Bench kitchen' });
    const template = await api('POST', `orgs/${org.id}/templates`, { name: 'Bench audit', definition: DEFINITION });
    await api('POST', `orgs/${org.id}/templates/${template.id}/publish`);
    /** One started inspection per worker and side, with the versions that worker last saw. */
    const inspections = async () =>
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        const inspection = await api('POST', `orgs/${org.id}/inspections`, { site_id: site.id, template_id: template.id });
        await api('POST', `orgs/${org.id}/inspections/${inspection.id}/start`, { latitude: null, longitude: null, accuracy_m: null });
        return { id: inspection.id as string, versions: new Map<string, number>() };
      }));
    const viaFunctionState = await inspections();
    const directState = await inspections();
    const twenty = await api('POST', `orgs/${org.id}/templates`, { name: 'Bench twenty', definition: TWENTY_ITEMS });
    await api('POST', `orgs/${org.id}/templates/${twenty.id}/publish`);
    const twentyState = await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      const inspection = await api('POST', `orgs/${org.id}/inspections`, { site_id: site.id, template_id: twenty.id });
      await api('POST', `orgs/${org.id}/inspections/${inspection.id}/start`, { latitude: null, longitude: null, accuracy_m: null });
      return { id: inspection.id as string, versions: new Map<string, number>() };
    }));
    // A whole page of 20 items saved at once, as a phone replays its queue after being offline.
    const batchOfTwenty = async (worker: number, n: number) => {
      const state = twentyState[worker];
      const answers = TWENTY_ITEMS.sections[0].items.map((item, i) => ({
        item_key: item.key,
        value: (n + i) % 5 === 0 ? 'fail' : 'pass',
        note: null,
        base_version: state.versions.get(item.key) ?? null,
      }));
      const body = await workerApi(worker, 'PUT', `orgs/${org.id}/inspections/${state.id}/answers`, { answers });
      for (const answer of body.answers) state.versions.set(answer.item_key, answer.version);
    };

    const viaFunction = async (worker: number, n: number) => {
      const state = viaFunctionState[worker];
      const answers = batchValues(n).map((a) => ({ ...a, base_version: state.versions.get(a.item_key) ?? null }));
      const body = await workerApi(worker, 'PUT', `orgs/${org.id}/inspections/${state.id}/answers`, { answers });
      for (const answer of body.answers) state.versions.set(answer.item_key, answer.version);
    };

    // The statements of api/answers.ts's careful path (under the lock), imported from the function
    // (api/answer-statements.ts), as the same caller: a direct-SQL reference for the function's
    // own two round trips.
    const direct = async (worker: number, n: number) => {
      const state = directState[worker];
      const batch = batchValues(n);
      const keys = batch.map((a) => a.item_key);
      // The function's rate-limit statement too (a bucket too big to refuse), so the two sides do the same work.
      await sql`select allowed from private.take_request_token('bench:direct', 1000000, 1000000)`;
      await sql.begin(async (tx) => {
        await tx`
          select set_config('role', 'authenticated', true),
                 set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
                 set_config('request.jwt.claim.sub', ${claims.sub}, true),
                 set_config('request.jwt.claim.role', 'authenticated', true)
        `;
        await tx`select private.current_org_role(${org.id}::uuid) as role`;
        await tx.unsafe(lockInspectionStatement(org.id, state.id).text);
        const current = await tx.unsafe<Array<{ item_key: string; version: number }>>(currentAnswersStatement(state.id, keys).text);
        for (const row of current) {
          if (row.version !== state.versions.get(row.item_key)) throw new Error('The direct side lost track of its versions');
        }
        const versions = new Map(current.map((row) => [row.item_key, row.version]));
        const [save, totals] = saveStatements(
          { org: org.id, id: state.id },
          batch.map((a) => ({ ...a, version: versions.get(a.item_key) ?? null })),
        );
        const saved = await tx.unsafe<Array<{ item_key: string; version: number }>>(save.text);
        await tx.unsafe(totals.text);
        for (const row of saved) state.versions.set(row.item_key, row.version);
      });
    };

    // One answer a request, as a person answering item by item autosaves (issue 15's measure).
    const single = async (worker: number, n: number) => {
      const state = viaFunctionState[worker];
      const [answer] = batchValues(n);
      const body = await workerApi(worker, 'PUT', `orgs/${org.id}/inspections/${state.id}/answers`, {
        answers: [{ ...answer, base_version: state.versions.get(answer.item_key) ?? null }],
      });
      state.versions.set(body.answers[0].item_key, body.answers[0].version);
    };

    // The Postgres ceiling on this cluster: pgbench's simple-update transactions (-N), 16 clients.
    await sql`create database pgbench`;
    const pgbenchUrl = stack.config.dbUrl.replace(/\/postgres$/, '/pgbench');
    execFileSync('pgbench', ['-i', '-s', '10', '-q', pgbenchUrl], { stdio: 'ignore' });
    const pgbenchN = () => Number(/tps = ([\d.]+)/.exec(execFileSync('pgbench', ['-N', '-c', '16', '-j', '2', '-T', '5', '-n', pgbenchUrl], { encoding: 'utf8' }))![1]);

    await load(100, CONCURRENCY, viaFunction); // warm-up
    await load(100, CONCURRENCY, direct);
    await load(50, CONCURRENCY, batchOfTwenty);
    const results: Array<{ fn: LoadResult; db: LoadResult; one: LoadResult; twenty: LoadResult; pgbench: number }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      results.push({
        fn: await load(REQUESTS_PER_ROUND, CONCURRENCY, viaFunction),
        db: await load(REQUESTS_PER_ROUND, CONCURRENCY, direct),
        one: await load(REQUESTS_PER_ROUND, CONCURRENCY, single),
        twenty: await load(REQUESTS_PER_ROUND / 5, CONCURRENCY, batchOfTwenty),
        pgbench: pgbenchN(),
      });
    }

    // Where a batch's SQL time goes: EXPLAIN ANALYZE of the save as the caller, per trigger, the
    // median of 9, each in a transaction thrown away so the versions the workers hold stay true.
    type Analyzed = { 'Execution Time': number; Triggers: Array<{ 'Trigger Name': string; Time: number; Calls: number }> };
    const profiles: Analyzed[] = [];
    const discard = new Error('discard the profiled transaction');
    for (let run = 0; run < 9; run++) {
      await sql.begin(async (tx) => {
        await tx`
          select set_config('role', 'authenticated', true),
                 set_config('request.jwt.claims', ${JSON.stringify(workers[0].claims)}, true),
                 set_config('request.jwt.claim.sub', ${workers[0].claims.sub}, true)`;
        // Five answers that exist already, saved again by api/answers.ts's own statement (an update).
        const state = viaFunctionState[0];
        const [save] = saveStatements(
          { org: org.id, id: state.id },
          batchValues(run).map((a) => ({ ...a, version: state.versions.get(a.item_key) ?? null })),
        );
        const [plan] = await tx.unsafe(`explain (analyze, format json) ${save.text}`);
        profiles.push(plan['QUERY PLAN'][0]);
        throw discard;
      }).catch((error) => {
        if (error !== discard) throw error;
      });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const profile = {
      'Execution Time': median(profiles.map((p) => p['Execution Time'])),
      Triggers: profiles[0].Triggers.map((t) => ({
        ...t,
        Time: median(profiles.map((p) => p.Triggers.find((u) => u['Trigger Name'] === t['Trigger Name'])?.Time ?? 0)),
      })),
    };

    if (!options.json) {
      console.log(
        `\nPUT …/answers (5 answers a batch), ${REQUESTS_PER_ROUND} batches, ${CONCURRENCY} in flight on ${CONCURRENCY} inspections, ` +
          'alternating rounds (function | direct SQL | ratio)',
      );
      for (const [i, { fn, db }] of results.entries()) {
        console.log(
          `  round ${i + 1}: ${fn.rps.toFixed(0)} | ${db.rps.toFixed(0)} batches/s (direct ${(db.rps / fn.rps).toFixed(1)}× the throughput); ` +
            `p50 ${fn.p50.toFixed(2)} | ${db.p50.toFixed(2)} ms; p99 ${fn.p99.toFixed(2)} | ${db.p99.toFixed(2)} ms ` +
            `(function p99 ${(fn.p99 / db.p99).toFixed(1)}× direct)`,
        );
      }
      console.log(
        'Against pgbench -N (16 clients) run between the rounds: one answer a PUT (goals ≥ 0.1× and p99 ≤ 50 ms), 5-answer batches per answer, ' +
          'and 20-answer batches per answer (goal ≥ 0.5×)',
      );
      for (const [i, { fn, one, twenty, pgbench }] of results.entries()) {
        console.log(
          `  round ${i + 1}: pgbench -N ${pgbench.toFixed(0)} tx/s; one answer ${one.rps.toFixed(0)} saves/s = ${(one.rps / pgbench).toFixed(3)}×, ` +
            `p99 ${one.p99.toFixed(1)} ms; batches of 5 ${(fn.rps * 5).toFixed(0)} answers/s = ${((fn.rps * 5) / pgbench).toFixed(3)}×; ` +
            `batches of 20 ${(twenty.rps * 20).toFixed(0)} answers/s = ${((twenty.rps * 20) / pgbench).toFixed(3)}× (p99 ${twenty.p99.toFixed(1)} ms)`,
        );
      }
      console.log(`Triggers of one 5-answer save as the caller (EXPLAIN ANALYZE, median of 9, ${profile['Execution Time'].toFixed(2)} ms in all):`);
      for (const t of [...profile.Triggers].sort((a, b) => b.Time - a.Time)) {
        console.log(`  ${t['Trigger Name'].padEnd(48)} ${t.Time.toFixed(2).padStart(7)} ms  ${t.Calls} calls`);
      }
    }
    return answerFigures(results);
  } finally {
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run on its own: node tests/bench/answer-save.ts
if (import.meta.filename === process.argv[1]) await benchAnswerSave();
