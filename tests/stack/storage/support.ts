// Fixtures for the Storage API tests: a private bucket of the test file's own whose policies
// admit a signed-in user to objects under a first folder named after their uid (the product's
// policies arrive with the organizations tables), actors as supabase-js clients, and raw HTTP
// for what supabase-js cannot send (odd paths, missing tokens, header checks).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { StorageApiError, type SupabaseClient } from '@supabase/supabase-js';
import type postgres from 'postgres';
import { expect } from 'vitest';
import { createTestClient, signedInClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

export const noSession = { auth: { persistSession: false, autoRefreshToken: false } };

export interface Actor {
  client: SupabaseClient;
  userId: string;
  accessToken: string;
}

export async function signedInActor(): Promise<Actor> {
  const { client, user, session } = await signedInClient();
  return { client, userId: user.id, accessToken: session.access_token };
}

export function anonClient(): SupabaseClient {
  return createTestClient({ key: stack.ANON_KEY });
}

export function serviceClient(): SupabaseClient {
  return createTestClient({ key: stack.SERVICE_ROLE_KEY });
}

/** Storage refused with this semantic status (the body's `statusCode`) and, if given, this code. */
export function expectStorageError(error: unknown, statusCode: string, code?: string): void {
  expect(error).toBeInstanceOf(StorageApiError);
  expect((error as StorageApiError).statusCode).toBe(statusCode);
  if (code) expect((error as StorageApiError).code).toBe(code);
}

export interface OwnerFolderBucket {
  id: string;
  drop(): Promise<void>;
}

/**
 * A private bucket `test-<random>` with one policy per operation: authenticated users may read,
 * write, overwrite and delete objects whose first folder is their own uid, nothing else.
 */
export async function createOwnerFolderBucket(sql: postgres.Sql): Promise<OwnerFolderBucket> {
  const id = `test-${randomBytes(6).toString('hex')}`;
  const mine = `bucket_id = '${id}' and (storage.foldername(name))[1] = (select auth.uid())::text`;
  await sql.begin(async (tx) => {
    await tx`insert into storage.buckets (id, name, public) values (${id}, ${id}, false)`;
    await tx.unsafe(`
      create policy "${id}: users read their own folder" on storage.objects for select to authenticated using (${mine});
      create policy "${id}: users upload to their own folder" on storage.objects for insert to authenticated with check (${mine});
      create policy "${id}: users overwrite in their own folder" on storage.objects for update to authenticated using (${mine}) with check (${mine});
      create policy "${id}: users delete in their own folder" on storage.objects for delete to authenticated using (${mine});
    `);
  });
  return {
    id,
    async drop() {
      await sql.begin(async (tx) => {
        for (const operation of ['read their own folder', 'upload to their own folder', 'overwrite in their own folder', 'delete in their own folder']) {
          await tx.unsafe(`drop policy if exists "${id}: users ${operation}" on storage.objects`);
        }
        await allowStorageDeletes(tx);
        await tx`delete from storage.objects where bucket_id = ${id}`;
        await tx`delete from storage.buckets where id = ${id}`;
      });
    },
  };
}

/**
 * Storage's delete protection refuses SQL deletes from storage.objects and storage.buckets unless
 * the transaction says it is the Storage API; test clean-up says so, as on hosted.
 */
export async function allowStorageDeletes(tx: postgres.TransactionSql): Promise<void> {
  await tx`select set_config('storage.allow_delete_query', 'true', true)`;
}

/** Removes test buckets and their objects' rows directly (clean-up only). */
export async function removeBucketRows(sql: postgres.Sql, ids: string[]): Promise<void> {
  await sql.begin(async (tx) => {
    await allowStorageDeletes(tx);
    await tx`delete from storage.objects where bucket_id = any(${ids})`;
    await tx`delete from storage.buckets where id = any(${ids})`;
  });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): any;
}

/**
 * One request with node:http, which sends the path exactly as given (fetch would resolve `..`
 * and encode characters before the server could refuse them).
 */
export function rawStorageRequest(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {},
): Promise<RawResponse> {
  const url = new URL(stack.API_URL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `/storage/v1${path}`,
        method: options.method ?? 'GET',
        headers: {
          // Without a length node:http sends the body chunked, as a streamed upload is.
          ...(options.body === undefined || options.chunked ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export function bearerHeaders(token: string): Record<string, string> {
  return { apikey: stack.ANON_KEY, authorization: `Bearer ${token}` };
}

export function uniqueName(label = 'file'): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}
