// Starts the whole local stack in this process, in dependency order: Postgres, the database
// (platform, migrations, seed), mail, then the services behind the gateway.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { loadConfig, type StackConfig, type StackOverrides } from './config.ts';
import { loadSigningKey, withApiKeys } from './keys.ts';
import { startPostgres } from './postgres/index.ts';
import { prepareDatabase } from './postgres/database.ts';
import { startMail } from './mail/index.ts';
import { startScheduler, type SchedulerJobs } from './scheduler.ts';
import { createGateway, type Route } from './gateway.ts';
import { portIsFree } from './os.ts';
import { PORT_SERVICES, portInUse, whenListening } from './ports.ts';
import type { Service, ServiceContext } from './types.ts';

export interface StartOptions extends StackOverrides {
  /** Drop and re-create the database before starting. */
  reset?: boolean;
  /**
   * The scheduler's jobs (stack/scheduler.ts; default all): wake the webhook delivery worker every
   * second, run the schedules' background run every 5 minutes, wake the reminder mail worker every
   * minute. Given jobs, only those start; false, none (a benchmark that does the work itself).
   */
  scheduler?: false | SchedulerJobs;
  /** Restart functions when their code changes (npm start). */
  watch?: boolean;
  /** Throwaway cluster settings (tests). */
  fast?: boolean;
  /**
   * Stops a start under way (the test runner's Ctrl-C or SIGTERM): between its steps, the start
   * stops what it has started and rejects with the signal's reason.
   */
  signal?: AbortSignal;
  log?: (message: string) => void;
}

export interface RunningStack {
  config: StackConfig;
  status: StackStatus;
  stop(): Promise<void>;
}

/** The same key names as `supabase status -o json`, so scripts work with either. */
export interface StackStatus {
  API_URL: string;
  FUNCTIONS_URL: string;
  DB_URL: string;
  JWKS_URL: string;
  INBUCKET_URL: string;
  MAILPIT_URL: string;
  MAIL_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
  JWT_SECRET: string;
}

export function statusOf(config: StackConfig): StackStatus {
  return {
    API_URL: config.apiUrl,
    FUNCTIONS_URL: `${config.apiUrl}/functions/v1`,
    DB_URL: config.dbUrl,
    JWKS_URL: `${config.apiUrl}/auth/v1/.well-known/jwks.json`,
    INBUCKET_URL: config.mailUrl,
    MAILPIT_URL: config.mailUrl,
    MAIL_URL: config.mailUrl,
    ANON_KEY: config.anonKey,
    SERVICE_ROLE_KEY: config.serviceRoleKey,
    PUBLISHABLE_KEY: config.publishableKey,
    SECRET_KEY: config.secretKey,
    JWT_SECRET: config.jwtSecret,
  };
}

export async function ensurePortsFree(config: StackConfig): Promise<void> {
  for (const [name, service] of Object.entries(PORT_SERVICES)) {
    const port = config.ports[name as keyof typeof PORT_SERVICES];
    if (!(await portIsFree(config.host, port))) throw portInUse(port, service);
  }
}

async function loadService(file: string, factory: string, ...args: unknown[]): Promise<Service | undefined> {
  if (!existsSync(path.join(import.meta.dirname, file))) return undefined;
  const module = await import(`./${file}`);
  return module[factory](...args);
}

export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const log = options.log ?? ((m: string) => console.log(m));
  const config = await withApiKeys(loadConfig(options));
  mkdirSync(config.dataDir, { recursive: true });
  await ensurePortsFree(config);

  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    // splice: a second stop() finds nothing left to do instead of repeating the teardown.
    for (const fn of stops.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        log(`While stopping: ${(error as Error).message}`);
      }
    }
  };
  const step = () => options.signal?.throwIfAborted();
  try {
    step();
    const pg = await startPostgres(config, { fast: options.fast, log });
    stops.push(() => pg.stop());
    step();
    await prepareDatabase(config, { reset: options.reset, log });
    step();

    // Each service logs in as its own role, as on hosted Supabase: GoTrue as supabase_auth_admin,
    // Storage as supabase_storage_admin, Realtime as supabase_admin. What one of them may not do
    // there, it cannot do here.
    const pool = (url: string, name: string) => {
      const sql = postgres(url, { max: 10, onnotice: () => {}, connection: { application_name: `local-stack-${name}` } });
      stops.push(() => sql.end({ timeout: 2 }));
      return sql;
    };
    const mail = await startMail(config);
    stops.push(() => mail.stop());
    step();
    const signingKey = await loadSigningKey(config.dataDir);
    const contextFor = (url: string, name: string): ServiceContext => ({ config, sql: pool(url, name), signingKey, mail: mail.mailer, log });

    const routes: Route[] = [];
    const auth = await loadService('auth/index.ts', 'createAuthService', contextFor(config.serviceDbUrls.auth, 'auth'));
    if (auth) routes.push({ prefix: '/auth/v1', service: auth, cors: true });
    const storage = await loadService('storage/index.ts', 'createStorageService', contextFor(config.serviceDbUrls.storage, 'storage'));
    if (storage) routes.push({ prefix: '/storage/v1', service: storage, cors: true });
    const realtime = await loadService('realtime/index.ts', 'createRealtimeService', contextFor(config.serviceDbUrls.admin, 'realtime'));
    if (realtime) routes.push({ prefix: '/realtime/v1', service: realtime, cors: true });
    // Functions connect themselves, with SUPABASE_DB_URL (as `postgres`, as on hosted); this pool is lazy.
    const functions = await loadService('functions/index.ts', 'createFunctionsService', contextFor(config.dbUrl, 'functions'), { watch: options.watch });
    if (functions) routes.push({ prefix: '/functions/v1', service: functions, cors: false });
    for (const route of routes) if (route.service.close) stops.push(() => route.service.close!());
    step();

    const gateway = createGateway(routes, log);
    // A port taken since ensurePortsFree rejects the start (the catch below stops what started).
    gateway.listen(config.ports.api, config.host);
    await whenListening(gateway, config.ports.api, PORT_SERVICES.api);
    // Later errors (a failed accept when out of file descriptors) are logged, not thrown uncaught.
    gateway.on('error', (error) => log(`[gateway] ${error.message}`));
    stops.push(async () => {
      const closed = new Promise<void>((resolve) => gateway.close(() => resolve()));
      gateway.closeAllConnections();
      // Upgraded sockets (realtime's WebSockets) still count as the gateway's connections and
      // would hold up close(): their service closes them now (its close() is idempotent).
      for (const route of routes) if (route.service.upgrade) await route.service.close?.();
      await closed;
    });
    // Webhook deliveries woken, schedules run and reminders sent, as pg_cron (+ pg_net) do on Supabase.
    if (functions && options.scheduler !== false) stops.push(startScheduler(config, log, options.scheduler));
    step();
    return { config, status: statusOf(config), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
