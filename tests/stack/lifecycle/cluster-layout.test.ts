// A cluster made by an older local stack (with `postgres` as its superuser) is refused at start
// with what to do, and `npm run db:reset` rebuilds it in hosted's layout. A folder with only a
// PG_VERSION file stands in for the old cluster: the layout is read before the server starts.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeStackPorts, privateStackFolder, runStackCli, stackCliEnv } from '../../support/private-stack.ts';

let dir: string;
let env: Record<string, string>;

function cli(...args: string[]) {
  return runStackCli(env, args, 180_000);
}

beforeAll(async () => {
  dir = privateStackFolder('layout-test-');
  const ports = await freeStackPorts();
  env = stackCliEnv(dir, ports);
  mkdirSync(path.join(dir, 'data', 'pg'), { recursive: true });
  writeFileSync(path.join(dir, 'data', 'pg', 'PG_VERSION'), '17\n');
});

afterAll(() => {
  cli('stop');
  rmSync(dir, { recursive: true, force: true });
});

describe('a cluster from before the hosted layout', () => {
  it('is refused with what to do, and db:reset rebuilds it with postgres as no superuser', async () => {
    const refused = cli('start', '--background');
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('made by an older local stack');
    expect(refused.out).toContain('npm run db:reset');

    const reset = cli('db-reset');
    expect(reset.code, reset.out).toBe(0);
    expect(readFileSync(path.join(dir, 'data', 'pg', 'local-stack-layout'), 'utf8').trim()).toBe('2');

    const started = cli('start', '--background');
    expect(started.code, started.out).toBe(0);
    const status = JSON.parse(cli('status', '-o', 'json').out);
    const sql = postgres(status.DB_URL, { max: 1, onnotice: () => {} });
    try {
      const [me] = await sql`select current_user as name, rolsuper from pg_roles where rolname = current_user`;
      expect(me).toEqual({ name: 'postgres', rolsuper: false });
    } finally {
      await sql.end();
    }
  }, 240_000);
});
