// `npm run db:schema`: writes supabase/schema.sql, the database as the migrations leave it, in one
// file a reader can search (docs/schema.md). It builds a throwaway database the way `npm run
// db:reset` does — a new Postgres cluster in a private folder on a free port, the platform
// bootstrap, every migration, no seed — reads it back from the catalogs (scripts/schema-sql.ts)
// and removes the cluster. `--check` writes nothing and exits 1 when the committed file differs;
// the test that keeps the file current (tests/api/spec/schema-sql.test.ts) calls the same code.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { loadConfig, projectRoot } from '../stack/config.ts';
import { freePort } from '../stack/os.ts';
import { prepareDatabase } from '../stack/postgres/database.ts';
import { startPostgres } from '../stack/postgres/index.ts';
import { renderSchema } from './schema-sql.ts';

export const SCHEMA_FILE = path.join(projectRoot, 'supabase', 'schema.sql');
export const REGENERATE = 'npm run db:schema';

/** The text `npm run db:schema` writes, read from a database built from scratch for the purpose. */
export async function schemaFileText(log: (message: string) => void = () => {}): Promise<string> {
  mkdirSync(path.join(projectRoot, '.stack'), { recursive: true });
  const dir = mkdtempSync(path.join(projectRoot, '.stack', 'schema-'));
  // Postgres runs as its own OS user when we are root; it must be able to reach its folder.
  chmodSync(dir, 0o755);
  try {
    const config = loadConfig({ dataDir: path.join(dir, 'data'), ports: { db: await freePort() } });
    // A throwaway cluster: durability traded for speed, as the test stacks do.
    const pg = await startPostgres(config, { fast: true, log });
    try {
      await prepareDatabase(config, { seed: false, log });
      // The cluster's superuser reads every catalog and the platform tables' rows.
      const sql = postgres(config.serviceDbUrls.admin, { max: 1, onnotice: () => {} });
      try {
        return await renderSchema(sql);
      } finally {
        await sql.end();
      }
    } finally {
      await pg.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first line where two texts differ, with a little of each side, for a stale-file message. */
export function firstDifference(committed: string, current: string): string {
  const a = committed.split('\n');
  const b = current.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const show = (lines: string[]) => lines.slice(line, line + 3).map((text) => `    ${text}`).join('\n') || '    (end of file)';
  return `first difference at line ${line + 1}:\n  committed:\n${show(a)}\n  migrations give:\n${show(b)}`;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const verbose = process.argv.includes('--verbose');
  const started = Date.now();
  const text = await schemaFileText(verbose ? (m) => console.log(m) : () => {});
  const relative = path.relative(projectRoot, SCHEMA_FILE);
  let committed: string | undefined;
  try {
    committed = readFileSync(SCHEMA_FILE, 'utf8');
  } catch {
    committed = undefined;
  }
  if (check) {
    if (committed === text) {
      console.log(`${relative} is current.`);
      return;
    }
    console.error(`${relative} is stale: run \`${REGENERATE}\` and commit it.\n${firstDifference(committed ?? '', text)}`);
    process.exit(1);
  }
  if (committed !== text) writeFileSync(SCHEMA_FILE, text);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${committed === text ? 'Unchanged' : 'Wrote'} ${relative} (${text.split('\n').length - 1} lines) in ${seconds} s.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`npm run db:schema failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
