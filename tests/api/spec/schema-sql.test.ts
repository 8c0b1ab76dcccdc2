// supabase/schema.sql is current (issue 25): what `npm run db:schema` writes from a database built
// from the platform bootstrap and every migration is what is committed, byte for byte. The
// database is its own throwaway cluster, not the test stack's, whose seed, Storage bucket sync and
// tests (which add policies to storage.objects and realtime.messages) would show in the file.
// Since each run builds a new database, a dump that depended on anything but the migrations
// (OIDs, timing) would fail here too.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstDifference, REGENERATE, SCHEMA_FILE, schemaFileText } from '../../../scripts/db-schema.ts';

describe('supabase/schema.sql', () => {
  it('is current: npm run db:schema writes what is committed', async () => {
    const current = await schemaFileText();
    const committed = existsSync(SCHEMA_FILE) ? readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (committed !== current) {
      expect.fail(`supabase/schema.sql is stale: run \`${REGENERATE}\` and commit it.\n${firstDifference(committed, current)}`);
    }
  }, 180_000);
});
