// Builds the stack's database the way a Supabase project gets it: the platform bootstrap
// (stack/platform/*.sql) once when the database is created, then supabase/migrations in order
// with a record of what ran, then supabase/seed.sql on creation and on reset.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres, { type Sql } from 'postgres';
import type { StackConfig } from '../config.ts';

const platformDir = path.join(import.meta.dirname, '..', 'platform');

export interface PrepareResult {
  created: boolean;
  appliedMigrations: string[];
  seeded: boolean;
}

function sqlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
}

function platformHash(): string {
  const hash = createHash('sha256');
  for (const file of sqlFiles(platformDir)) hash.update(file).update(readFileSync(path.join(platformDir, file)));
  return hash.digest('hex');
}

/** Connects as the cluster's superuser to a maintenance database, for create / drop. */
function adminConnection(config: StackConfig): Sql {
  return postgres(config.serviceDbUrls.admin.replace(/\/postgres$/, '/template1'), { max: 1, onnotice: () => {} });
}

/** True when the `postgres` database exists and has been bootstrapped by this stack. */
export async function databaseExists(config: StackConfig): Promise<boolean> {
  const sql = postgres(config.serviceDbUrls.admin, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select to_regclass('_local_stack.platform') is not null as ok`;
    return row.ok;
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return false; // database does not exist
    throw error;
  } finally {
    await sql.end();
  }
}

/** Drops and re-creates the `postgres` database (the cluster's roles survive, as on a reset). */
export async function recreateDatabase(config: StackConfig): Promise<void> {
  const admin = adminConnection(config);
  try {
    await admin.unsafe('drop database if exists postgres with (force)');
    await admin.unsafe('create database postgres');
  } finally {
    await admin.end();
  }
}

async function applyPlatform(sql: Sql, log: (m: string) => void): Promise<void> {
  // Roles are cluster-wide: on a reset they already exist, so drop-and-recreate is not possible
  // while other databases use them. Skip the role statements that would fail by running each
  // file in a transaction that tolerates "already exists" for roles only.
  const [{ has_roles }] = await sql`select exists (select 1 from pg_roles where rolname = 'authenticated') as has_roles`;
  for (const file of sqlFiles(platformDir)) {
    let text = readFileSync(path.join(platformDir, file), 'utf8');
    if (has_roles) text = withoutRoleCreation(text);
    log(`Platform: ${file}`);
    await sql.begin((tx) => tx.unsafe(text));
  }
  await sql.unsafe(`
    create schema if not exists _local_stack;
    comment on schema _local_stack is 'Bookkeeping of the Docker-free local stack; not part of the product.';
    create table if not exists _local_stack.platform (sha256 text not null, applied_at timestamptz not null default now());
  `);
  await sql`insert into _local_stack.platform (sha256) values (${platformHash()})`;
}

/** Removes `create role …;` statements (cluster-wide objects that survive a database reset). */
function withoutRoleCreation(text: string): string {
  return text.replace(/^create role [^;]+;\s*$/gim, '');
}

async function applyMigrations(config: StackConfig, sql: Sql, log: (m: string) => void): Promise<string[]> {
  // The CLI creates this schema as `postgres` on `db push`, so it belongs to `postgres` here too.
  await sql.unsafe(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
  `);
  const done = new Set((await sql`select version from supabase_migrations.schema_migrations`).map((r) => r.version));
  const applied: string[] = [];
  for (const file of sqlFiles(path.join(config.supabaseDir, 'migrations'))) {
    const match = /^(\d+)_(.+)\.sql$/.exec(file);
    if (!match) {
      log(`Skipping ${file}: migration files are named <timestamp>_<name>.sql`);
      continue;
    }
    const [, version, name] = match;
    if (done.has(version)) continue;
    const text = readFileSync(path.join(config.supabaseDir, 'migrations', file), 'utf8');
    try {
      await sql.begin(async (tx) => {
        await tx.unsafe(text);
        await tx`insert into supabase_migrations.schema_migrations (version, name, statements) values (${version}, ${name}, ${[text]})`;
      });
    } catch (error) {
      throw new Error(`Migration ${file} failed: ${(error as Error).message}`);
    }
    applied.push(file);
    log(`Applied migration ${file}`);
  }
  return applied;
}

async function applySeed(config: StackConfig, sql: Sql, log: (m: string) => void): Promise<boolean> {
  const seedFile = path.join(config.supabaseDir, 'seed.sql');
  if (!existsSync(seedFile)) return false;
  try {
    await sql.begin((tx) => tx.unsafe(readFileSync(seedFile, 'utf8')));
  } catch (error) {
    throw new Error(`Seeding from supabase/seed.sql failed: ${(error as Error).message}`);
  }
  log('Seeded the database from supabase/seed.sql');
  return true;
}

/**
 * Brings the database up to date. A new (or reset) database gets the platform, every
 * migration and the seed (unless `seed: false`: the schema dump wants no demo data); an
 * existing one only the migrations it has not run yet.
 */
export async function prepareDatabase(
  config: StackConfig,
  options: { reset?: boolean; seed?: boolean; log: (m: string) => void },
): Promise<PrepareResult> {
  const fresh = options.reset || !(await databaseExists(config));
  if (fresh) await recreateDatabase(config);
  // The platform is built by the cluster's superuser; migrations and the seed run as `postgres`,
  // which has only the rights hosted Supabase gives it, so what applies here applies there.
  const admin = postgres(config.serviceDbUrls.admin, { max: 1, onnotice: () => {} });
  const sql = postgres(config.dbUrl, { max: 1, onnotice: () => {} });
  try {
    if (fresh) {
      await applyPlatform(admin, options.log);
    } else {
      const [row] = await admin`select sha256 from _local_stack.platform order by applied_at desc limit 1`;
      if (row?.sha256 !== platformHash()) {
        options.log('The platform bootstrap (stack/platform/*.sql) changed since this database was made: run `npm run db:reset` to rebuild it.');
      }
    }
    const appliedMigrations = await applyMigrations(config, sql, options.log);
    const seeded = fresh && options.seed !== false ? await applySeed(config, sql, options.log) : false;
    // The seed runs only into a new database (as the Supabase CLI's), so demo rows and logins that
    // arrived with these migrations (e.g. the demo's limited members) are not in this one yet.
    if (!fresh && appliedMigrations.length > 0 && options.seed !== false) {
      options.log('The demo data is as the seed was when this database was made: `npm run db:reset` re-creates it with the current seed (and removes your local changes).');
    }
    return { created: fresh, appliedMigrations, seeded };
  } finally {
    await sql.end();
    await admin.end();
  }
}
