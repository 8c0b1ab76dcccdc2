// `npm run db:rollups:rebuild`: recomputes the analytics rollups from the base tables
// (private.rebuild_analytics, docs/analytics.md "Rebuilding"), for every organization or, with
// `-- --org=<id>`, for one. It runs against the local stack's database (its port from
// FIELDCHECK_DB_PORT, as stack/cli.ts reads it, else supabase/config.toml's), or against
// DATABASE_URL when that is set — a hosted project's connection string as `postgres`. Writers wait
// while it runs (the function locks the rollups of every organization, even for one); readers do
// not. It waits at most LOCK_WAIT for that lock and otherwise fails with a message: while it waits
// in the lock's queue, every submit of every organization queues behind it.
import postgres from 'postgres';
import { loadConfig } from '../stack/config.ts';

const org = process.argv.find((arg) => arg.startsWith('--org='))?.slice('--org='.length);
const port = process.env.FIELDCHECK_DB_PORT ? Number(process.env.FIELDCHECK_DB_PORT) : undefined;
const url = process.env.DATABASE_URL ?? loadConfig(port ? { ports: { db: port } } : {}).dbUrl;

/** How long to wait for the rollups' lock behind a write that holds them (a submit takes milliseconds). */
const LOCK_WAIT = '5s';
/** Postgres' lock_not_available: the lock was not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

const sql = postgres(url, { max: 1, onnotice: () => {} });
try {
  const started = performance.now();
  // An hour at most: a rebuild of 1M inspections and 20M answers takes minutes (docs/analytics.md).
  await sql`set statement_timeout = '1h'`;
  await sql.begin(async (tx) => {
    // The function's own lock (private.rebuild_analytics), taken first with a bounded wait; the
    // function's lock statement then finds it held. Only the wait for it is bounded, not the rebuild.
    await tx.unsafe(`set local lock_timeout = '${LOCK_WAIT}'`);
    await tx`lock table public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
      public.analytics_action_days in exclusive mode`;
    await tx`set local lock_timeout = 0`;
    if (org) await tx`select private.rebuild_analytics(${org}::uuid)`;
    else await tx`select private.rebuild_analytics()`;
  });
  const [counts] = await sql`
    select (select count(*) from public.analytics_inspection_days)::int as inspection_days,
           (select count(*) from public.analytics_item_days)::int as item_days,
           (select count(*) from public.analytics_occurrence_days)::int as occurrence_days,
           (select count(*) from public.analytics_action_days)::int as action_days`;
  console.log(
    `Rebuilt the analytics rollups${org ? ` of organization ${org}` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `${counts.inspection_days} inspection days, ${counts.item_days} item days, ${counts.occurrence_days} occurrence days, ${counts.action_days} action days.`,
  );
} catch (error) {
  if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
    console.error(
      `npm run db:rollups:rebuild did not start: a write held the analytics rollups for more than ${LOCK_WAIT}, ` +
        'and waiting longer would hold every organization\'s submits behind it. Nothing was changed; run it again.',
    );
  } else {
    console.error(`npm run db:rollups:rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
} finally {
  await sql.end();
}
