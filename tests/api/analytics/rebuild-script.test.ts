// `npm run db:rollups:rebuild` (scripts/rollups-rebuild.ts; docs/analytics.md "Rebuilding") locks
// the rollups of every organization, so while it waits for that lock every submit queues behind
// it. It waits a bounded time and then fails with a message, changing nothing; unhindered, it
// rebuilds. The script is run as an operator runs it, against this stack's database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/rollups-rebuild.ts');
const sql = database();
afterAll(() => sql.end({ timeout: 5 }));

/** Runs the script for an organization with no rows (nothing of the other tests' is recomputed). */
function rebuild(org: string): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, `--org=${org}`], { env: { ...process.env, DATABASE_URL: stack.DB_URL }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

describe('npm run db:rollups:rebuild', () => {
  it('rebuilds when nothing holds the rollups', async () => {
    const outcome = await rebuild(randomUUID());
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^Rebuilt the analytics rollups of organization /);
  }, 60_000);

  it('fails within seconds, with a message, while a write holds the rollups, rather than queue every submit behind it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // A submit's lock on a rollup (row exclusive, as its upsert takes), held for up to 20 s.
    const writer = sql.begin(async (tx) => {
      await tx`lock table public.analytics_inspection_days in row exclusive mode`;
      holding();
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    });
    await held;
    const outcome = await rebuild(randomUUID());
    release();
    await writer;
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('did not start: a write held the analytics rollups for more than 5s');
    expect(outcome.stdout).toBe('');
    expect(outcome.seconds).toBeLessThan(15);
  }, 60_000);
});
