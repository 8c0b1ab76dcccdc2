// The stack's command line, as a developer and CI use it: start in the background, status as
// JSON with `supabase status -o json`'s key names, a second start, a busy port, stop, restart
// and reset. It runs a second stack in its own folder and on its own free ports (through
// FIELDCHECK_STACK_DIR and FIELDCHECK_*_PORT), so it never touches the stack under test or the
// developer's.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StackPorts } from '../../../stack/config.ts';
import { freePort, portIsFree } from '../../../stack/os.ts';
import { freeStackPorts, privateStackFolder, runStackCli, stackCliEnv } from '../../support/private-stack.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
let env: Record<string, string>;
let dir: string;
let ports: StackPorts;

function cli(...args: string[]) {
  return runStackCli(env, args, 120_000);
}

/** Runs `fn` on a one-connection pool to `url`, closing it afterwards. */
async function withDb<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1 });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

async function demoOwnerName(url: string): Promise<string> {
  return withDb(url, async (sql) => {
    const [row] = await sql`select display_name from public.profiles join auth.users on auth.users.id = user_id where auth.users.email = 'owner@demo.fieldcheck.test'`;
    return row.display_name;
  });
}

beforeAll(async () => {
  dir = privateStackFolder('cli-test-');
  ports = await freeStackPorts();
  env = stackCliEnv(dir, ports);
});

// A test that fails part-way must not leave its background stack to the next one.
afterEach(() => {
  cli('stop');
});

afterAll(() => {
  cli('stop');
  rmSync(dir, { recursive: true, force: true });
});

describe('the stack command line', () => {
  it('starts in the background, reports its status, refuses a second start, stops and restarts with its data', async () => {
    const started = cli('start', '--background');
    expect(started.code, started.out).toBe(0);
    expect(started.out).toContain(`http://127.0.0.1:${ports.api}`);
    expect(started.out).toMatch(/Demo login: owner@demo\.fieldcheck\.test/);
    expect(started.out).toMatch(/Ready in [\d.]+ s/);

    const status = cli('status', '-o', 'json');
    expect(status.code).toBe(0);
    const keys = JSON.parse(status.out);
    expect(keys).toMatchObject({
      API_URL: `http://127.0.0.1:${ports.api}`,
      DB_URL: `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`,
      INBUCKET_URL: `http://127.0.0.1:${ports.mailWeb}`,
      JWKS_URL: `http://127.0.0.1:${ports.api}/auth/v1/.well-known/jwks.json`,
    });
    for (const key of ['ANON_KEY', 'SERVICE_ROLE_KEY', 'PUBLISHABLE_KEY', 'SECRET_KEY']) expect(keys[key]).toEqual(expect.any(String));
    expect(keys.PUBLISHABLE_KEY).toMatch(/^sb_publishable_/);

    // The gateway answers and the seeded demo owner exists.
    expect((await fetch(`${keys.API_URL}/auth/v1/health`, { headers: { apikey: keys.ANON_KEY } })).status).toBe(200);
    await withDb(keys.DB_URL, async (sql) => {
      const [owner] = await sql`select count(*)::int as n from auth.users where email = 'owner@demo.fieldcheck.test'`;
      expect(owner.n).toBe(1);
      await sql`update public.profiles set display_name = 'Kept across restarts' where user_id = (select id from auth.users where email = 'owner@demo.fieldcheck.test')`;
    });

    const again = cli('start', '--background');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/already running \(pid \d+\)/);

    const stopped = cli('stop');
    expect(stopped.code).toBe(0);
    const after = cli('status', '-o', 'json');
    expect(after.code).toBe(1);
    expect(after.out).toContain('not running');
    await expect(fetch(`http://127.0.0.1:${ports.api}/health`)).rejects.toThrow();

    // A restart keeps the data (migrations that ran are not run again over it).
    expect(cli('start', '--background').code).toBe(0);
    expect(await demoOwnerName(keys.DB_URL)).toBe('Kept across restarts');

    // db:reset rebuilds the database from migrations and seed while the stack runs.
    const reset = cli('db-reset');
    expect(reset.code, reset.out).toBe(0);
    expect(await demoOwnerName(keys.DB_URL)).toBe('Olivia Owner');
    // …with its buckets: a migration makes them, so photo uploads keep working after a reset.
    const buckets = await withDb(keys.DB_URL, (sql) => sql`select id from storage.buckets where id in ('evidence', 'exports') order by id`);
    expect(buckets.map((b) => b.id)).toEqual(['evidence', 'exports']);
    expect(cli('stop').code).toBe(0);
    // Three starts, a stop and a reset, each a stack's start-up: 30 s was too little on a loaded
    // machine (a full run timed out here, and its background stack then failed the tests below).
  }, 240_000);

  it('names a busy port and its service instead of failing obscurely', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(ports.db, '127.0.0.1', () => resolve()));
    try {
      const result = cli('start', '--background');
      expect(result.code).toBe(1);
      expect(result.out).toContain(`Port ${ports.db} (Postgres) is already in use`);
      expect(result.out).not.toMatch(/\bat .+\.ts:\d+/); // no stack trace
    } finally {
      blocker.close();
    }
    expect(cli('status').code).toBe(1);
  });

  it('npm start runs stack and web in the foreground, says so when started twice, and a stop signal stops every process', async () => {
    const webPort = await freePort();
    const foreground = spawn(process.execPath, [path.join(root, 'stack', 'cli.ts'), 'start', '--web'], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(webPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    foreground.stdout.on('data', (chunk) => (output += chunk));
    foreground.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => foreground.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toMatch(/Ready in [\d.]+ s/);
      expect(output).toContain(`Web app: http://localhost:${webPort}`);
      expect((await fetch(`http://localhost:${webPort}/`)).status).toBe(200);

      const second = cli('start', '--web');
      expect(second.code).toBe(1);
      expect(second.out).toMatch(/already running \(npm start, pid \d+\)/);
    } finally {
      // SIGTERM, as `npm run stack:stop` and process managers send (Ctrl-C's SIGINT takes the same path).
      foreground.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Nothing is left listening: gateway, Postgres, mail, the Deno function and the web server.
    for (const port of [ports.api, ports.db, ports.mailWeb, ports.mailSmtp, ports.functionsBase, webPort]) {
      expect(await portIsFree('127.0.0.1', port), `port ${port} is still in use`).toBe(true);
    }
  });

  it('npm start stops with its parent: npm hands it SIGTERM (the script execs the CLI), and a parent killed outright takes it along', async () => {
    // npm runs a script through `sh -c`; without exec, a SIGTERM to npm stopped the shell and left the stack running.
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(scripts.start).toMatch(/^exec node stack\/cli\.ts start/);

    // A parent (standing in for npm) that starts the stack in the foreground, then is killed with SIGKILL.
    const parent = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      spawn(process.execPath, [${JSON.stringify(path.join(root, 'stack', 'cli.ts'))}, 'start'], { stdio: 'inherit' });
      setInterval(() => {}, 1000);
    `], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    parent.stdout.on('data', (chunk) => (output += chunk));
    parent.stderr.on('data', (chunk) => (output += chunk));
    try {
      await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toMatch(/Ready in [\d.]+ s/);
    } finally {
      parent.kill('SIGKILL');
    }
    for (const port of [ports.api, ports.db, ports.functionsBase]) {
      await expect.poll(() => portIsFree('127.0.0.1', port), { timeout: 30_000, interval: 250 }).toBe(true);
    }
  }, 120_000);
});
