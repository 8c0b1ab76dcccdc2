// Where a private stack lives: a throwaway folder under .stack and free ports, so the test run,
// the benchmarks and the CLI's own test never touch the developer's stack.
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
