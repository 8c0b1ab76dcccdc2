// `npm run db:rollups:rebuild`: recomputes the analytics rollups from the base tables
// (private.rebuild_analytics, docs/analytics.md "Rebuilding"), for every organization or, with
// `-- --org=<id>`, for one. It runs against the local stack's database (its port from
// FIELDCHECK_DB_PORT, as stack/cli.ts reads it, else supabase/config.toml's), or against
// DATABASE_URL when that is set — a hosted project's connection string as `postgres`. Writers wait
// while it runs (the function locks the rollups); readers do not.
import postgres from 'postgres';
import { loadConfig } from '../stack/config.ts';

const org = process.argv.find((arg) => arg.startsWith('--org='))?.slice('--org='.length);
const port = process.env.FIELDCHECK_DB_PORT ? Number(process.env.FIELDCHECK_DB_PORT) : undefined;
const url = process.env.DATABASE_URL ?? loadConfig(port ? { ports: { db: port } } : {}).dbUrl;

const sql = postgres(url, { max: 1, onnotice: () => {} });
try {
  const started = performance.now();
  // An hour at most: a rebuild of 1M inspections and 20M answers takes minutes (docs/analytics.md).
  await sql`set statement_timeout = '1h'`;
  if (org) await sql`select private.rebuild_analytics(${org}::uuid)`;
  else await sql`select private.rebuild_analytics()`;
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
  console.error(`npm run db:rollups:rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await sql.end();
}
