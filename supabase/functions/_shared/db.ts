// Postgres access for edge functions: one small pool per function instance, and one transaction
// per request that runs as the caller, set up exactly as Supabase's REST layer does, so row-level
// security decides what the caller may see and change.
// Note: postgres.js returns int8 / bigint columns as strings.
import postgres from 'postgres';
import type { Principal } from './auth.ts';
import { isConnectionLoss } from './errors.ts';
import { callerSettingsStatement, type InlineSql } from './sql-literal.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

let pool: Sql | undefined;

/**
 * postgres.js 3.4.9 (the newest) can fail outside any query when the server drops a connection
 * (Postgres restarting, a pooler recycling it): a write it had deferred with setImmediate runs
 * after the socket is gone and throws "Cannot read properties of null (reading 'write')", and a
 * write on a closed socket can reject with nobody listening (EPIPE). Both are uncaught, and an
 * uncaught error ends the function's process, failing every request in flight
 * (porsager/postgres#1154, #1208; denoland/deno#34667). The query involved has already been
 * rejected with CONNECTION_CLOSED and answered as 503, so these strays are logged and dropped;
 * any other uncaught error still ends the process. Seen and tested in tests/stack/lifecycle/faults.test.ts.
 */
function survivePostgresConnectionLoss(): void {
  const isStaleSocketWrite = (error: unknown) =>
    error instanceof TypeError && error.message.includes("reading 'write'") && /postgres[\s\S]*nextWrite|nextWrite[\s\S]*postgres/.test(error.stack ?? '');
  const note = (what: string, error: unknown) =>
    console.error(JSON.stringify({ level: 'warn', message: `database connection lost: ${what} ignored`, error: String(error) }));
  globalThis.addEventListener('error', (event) => {
    if (!isStaleSocketWrite(event.error)) return;
    event.preventDefault();
    note('a deferred write on a closed socket', event.error);
  });
  globalThis.addEventListener('unhandledrejection', (event) => {
    if (!isConnectionLoss(event.reason)) return;
    event.preventDefault();
    note('a write error nobody awaited', event.reason);
  });
}

/** The function instance's pool, opened on first use from SUPABASE_DB_URL. */
export function database(): Sql {
  if (!pool) {
    survivePostgresConnectionLoss();
    const url = Deno.env.get('SUPABASE_DB_URL');
    if (!url) throw new Error('SUPABASE_DB_URL is not set');
    pool = postgres(url, {
      // An edge function instance serves few concurrent requests; Supabase's pooler does the rest.
      max: 5,
      // Transaction-mode poolers (Supavisor) cannot keep named prepared statements.
      prepare: false,
      idle_timeout: 20,
      connect_timeout: 10,
      connection: { application_name: 'fieldcheck-functions' },
      onnotice: () => {},
    });
  }
  return pool;
}

/** The database role and JWT claims a principal acts with. */
export function sessionOf(principal: Principal): { role: string; claims: Record<string, unknown> } {
  if (principal.kind === 'user') return { role: 'authenticated', claims: principal.claims };
  // A key is `authenticated` without a user (no `sub`); private.current_api_key() accepts these
  // claims only while the key they name is usable and still has this organization and role.
  return {
    role: 'authenticated',
    claims: { role: 'authenticated', api_key_id: principal.keyId, api_key_org_id: principal.orgId, api_key_role: principal.role },
  };
}

/**
 * The caller's settings statement, made once per principal: a signed-in user's principal comes
 * from the verified-token cache (auth.ts) and is the same object on each of their requests, so
 * the claims are not serialized and escaped again every time (2 % of a small read's CPU).
 */
const settingsStatements = new WeakMap<Principal, string>();
function settingsStatementOf(principal: Principal): string {
  let statement = settingsStatements.get(principal);
  if (statement === undefined) {
    statement = callerSettingsStatement(sessionOf(principal));
    settingsStatements.set(principal, statement);
  }
  return statement;
}

/**
 * Runs `fn` inside one transaction as the caller (callerSettingsStatement in sql-literal.ts), so row-level
 * security decides what it may see and change.
 *
 * The settings are sent without waiting for their answer: postgres.js pipelines them with `fn`'s
 * first statement, and Postgres runs them in order, so that statement already runs as the
 * caller (issue 15). BEGIN itself is still awaited: driving the transaction by hand on a
 * reserved connection would save one more round trip, but postgres.js 3.4.9 leaves a statement
 * sent on a reserved connection after the server dropped it waiting forever
 * (porsager/postgres#1208), which the fault test caught; `begin()` races its work against the
 * connection closing, so a lost database is a prompt 503.
 */
export async function withCaller<T>(principal: Principal, fn: (tx: Tx) => Promise<T>, sql: Sql = database()): Promise<T> {
  const settingsStatement = settingsStatementOf(principal);
  const result = await sql.begin(async (tx) => {
    const settings = tx.unsafe(settingsStatement).execute();
    try {
      return await fn(tx);
    } finally {
      await settings;
    }
  });
  return result as T;
}

/** Rows of one statement, as postgres.js parses them. */
export type Rows = postgres.Row[];

/**
 * Runs statements as the caller in ONE round trip: the caller's settings and `statements`
 * go as a single simple-protocol message, which Postgres runs as one implicit transaction (so
 * the transaction-local settings hold for every statement, and end with it: nothing leaks to the
 * next request on this connection, and a transaction-mode pooler sees one transaction). Used by
 * the hot reads (issue 15): without BEGIN, COMMIT and the describe step of bind parameters, a
 * read went from five round trips to one. The values are literals made by `inline`
 * (sql-literal.ts). `first` runs ahead of the settings, as the connection's own role: the
 * request's rate-limit token (http.ts), which stops the whole message when none is left. Returns its
 * rows and each statement's rows, in order.
 */
export async function runAsCallerWith(
  principal: Principal,
  statements: readonly InlineSql[],
  options: { first?: InlineSql; sql?: Sql } = {},
): Promise<{ first: Rows | undefined; rows: Rows[] }> {
  const ahead = options.first ? [options.first.text] : [];
  const message = [...ahead, settingsStatementOf(principal), ...statements.map((statement) => statement.text)];
  // One result per statement, in order.
  const results = (await (options.sql ?? database()).unsafe(message.join(';\n'))) as unknown as Rows[];
  return { first: options.first ? results[0] : undefined, rows: results.slice(ahead.length + 1) };
}

/**
 * Statements as the caller in one round trip and one implicit transaction (runAsCallerWith):
 * all of them take effect, or none. Each statement's rows, in order.
 */
export async function runAsCaller(principal: Principal, statements: readonly InlineSql[], sql?: Sql): Promise<Rows[]> {
  return (await runAsCallerWith(principal, statements, { sql })).rows;
}

/** An `ilike` pattern matching `q` anywhere: `%`, `_` and `\` in a search are literal characters. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
