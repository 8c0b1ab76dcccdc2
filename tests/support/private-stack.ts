// Where a private stack lives: a throwaway folder under .stack and free ports, so the test run,
// the benchmarks and the CLI's own test never touch the developer's stack.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import type { StackPorts } from '../../stack/config.ts';
import { freePortBelowEphemeralRange } from '../../stack/os.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** A new empty folder `.stack/<prefix>XXXXXX`; the caller removes it. */
export function privateStackFolder(prefix: string): string {
  mkdirSync(path.join(root, '.stack'), { recursive: true });
  const dir = mkdtempSync(path.join(root, '.stack', prefix));
  // Postgres runs as its own OS user when we are root; it must be able to reach its folder.
  chmodSync(dir, 0o755);
  return dir;
}

/** Ports from functionsBase up kept for the functions (one each, seven today, and room to skip busy ones). */
const FUNCTION_PORT_ROOM = 32;

/**
 * Every port a stack listens on, each one free right now and below the kernel's ephemeral range,
 * so that no outgoing connection takes one before the stack binds it (freePortBelowEphemeralRange):
 * the functions' base first, then the others outside the functions' room above it.
 */
export async function freeStackPorts(): Promise<StackPorts> {
  const functionsBase = await freePortBelowEphemeralRange();
  const taken = portsKeptBy({ functionsBase });
  for (let n = 0; n < 4; n++) taken.push(await freePortBelowEphemeralRange(taken));
  const [api, db, mailWeb, mailSmtp] = taken.slice(FUNCTION_PORT_ROOM);
  return { api, db, mailWeb, mailSmtp, functionsBase };
}

/**
 * The ports named by TEST_STACK_PORTS (JSON with all five of StackPorts' keys), for a test that
 * must know a private stack's ports before the runner starts it (it takes one of them meanwhile).
 */
export function stackPortsFromJson(json: string): StackPorts {
  const given = JSON.parse(json) as Record<string, unknown>;
  const keys = ['api', 'db', 'mailWeb', 'mailSmtp', 'functionsBase'] as const;
  for (const key of keys) {
    const port = given[key];
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`TEST_STACK_PORTS: "${key}" must be a port number (it has ${JSON.stringify(port)})`);
    }
  }
  return Object.fromEntries(keys.map((key) => [key, given[key]])) as unknown as StackPorts;
}

/** The ports a stack of `ports` uses or may use, for choosing another port (the web app's) beside it. */
export function portsKeptBy(ports: Partial<StackPorts> & Pick<StackPorts, 'functionsBase'>): number[] {
  const room = Array.from({ length: FUNCTION_PORT_ROOM }, (_, n) => ports.functionsBase + n);
  return [...room, ...[ports.api, ports.db, ports.mailWeb, ports.mailSmtp].filter((port): port is number => port !== undefined)];
}

/** The environment that points the stack's command line at a private folder and ports (stack/cli.ts reads it). */
export function stackCliEnv(dir: string, ports: StackPorts): Record<string, string> {
  return {
    FIELDCHECK_STACK_DIR: dir,
    FIELDCHECK_API_PORT: String(ports.api),
    FIELDCHECK_DB_PORT: String(ports.db),
    FIELDCHECK_MAIL_PORT: String(ports.mailWeb),
    FIELDCHECK_SMTP_PORT: String(ports.mailSmtp),
    FIELDCHECK_FUNCTIONS_PORT: String(ports.functionsBase),
  };
}

/** Runs `node stack/cli.ts <args>` with `env` added; its exit code and everything it printed. */
export function runStackCli(env: Record<string, string>, args: string[], timeoutMs = 120_000) {
  const result = spawnSync(process.execPath, [path.join(root, 'stack', 'cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}
