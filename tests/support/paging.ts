// Paged lists (keyset cursors, docs/product.md "Lists"): every page of a list, and the cursors a
// client could forge, which every list must refuse with 422 on query.cursor.
import type { SupabaseClient } from '@supabase/supabase-js';
import { call, expectStatus } from './api.ts';

/** Every page of a list, following next_cursor; `between` runs after each page that has a next one. */
export async function allPages(client: SupabaseClient, path: string, limit: number, between?: (page: any[]) => Promise<void>) {
  const separator = path.includes('?') ? '&' : '?';
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const url: string = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = expectStatus(await call(client, url), 200);
    pages.push(page.data);
    cursor = page.next_cursor;
    if (cursor && between) await between(page.data);
  } while (cursor && pages.length < 100);
  return pages;
}

/** Cursors a client could forge that no list accepts: not base64 JSON, wrong shape or types, bad ids. */
export function forgedCursors(): Record<string, string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    'not base64 JSON': 'not-a-real-cursor',
    '["name","not-a-uuid"]': encode(['name', 'not-a-uuid']),
    '["2030-01-01T00:00:00Z","not-a-uuid"]': encode(['2030-01-01T00:00:00Z', 'not-a-uuid']),
    '[null,"not-a-uuid"]': encode([null, 'not-a-uuid']),
    '[1,2]': encode([1, 2]),
    '["only one"]': encode(['only one']),
    '{"name":"x"}': encode({ name: 'x' }),
    '[12.5,"zz"]': encode([12.5, 'zz']),
  };
}

/** Sends every cursor to a list and returns what each got, to compare with the expected refusals. */
export async function cursorOutcomes(client: SupabaseClient, path: string, cursors: Record<string, string>) {
  const separator = path.includes('?') ? '&' : '?';
  const outcomes: Record<string, string> = {};
  for (const [label, cursor] of Object.entries(cursors)) {
    const { status, body } = await call(client, `${path}${separator}cursor=${cursor}`);
    outcomes[label] = `${status} ${body?.code} ${JSON.stringify(body?.errors?.map((e: { field: string }) => e.field) ?? null)}`;
  }
  return outcomes;
}

/** What every forged cursor should get: 422 validation_failed on query.cursor. */
export function refusedCursors(cursors: Record<string, string>) {
  return Object.fromEntries(Object.keys(cursors).map((label) => [label, '422 validation_failed ["query.cursor"]']));
}
