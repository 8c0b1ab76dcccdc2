// Where a private stack lives: a throwaway folder under .stack and free ports, so the test run,
// the benchmarks and the CLI's own test never touch the developer's stack.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import type { StackPorts } from '../../stack/config.ts';
import { freePort } from '../../stack/os.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** A new empty folder `.stack/<prefix>XXXXXX`; the caller removes it. */
export function privateStackFolder(prefix: string): string {
  mkdirSync(path.join(root, '.stack'), { recursive: true });
  const dir = mkdtempSync(path.join(root, '.stack', prefix));
  // Postgres runs as its own OS user when we are root; it must be able to reach its folder.
  chmodSync(dir, 0o755);
  return dir;
}

/** Every port a stack listens on, each one the kernel reports free right now. */
export async function freeStackPorts(): Promise<StackPorts> {
  return { api: await freePort(), db: await freePort(), mailWeb: await freePort(), mailSmtp: await freePort(), functionsBase: await freePort() };
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
