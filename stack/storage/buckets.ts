// Buckets: config.toml's `[storage.buckets.<name>]` brought into storage.buckets on start (and
// their objects_path uploaded), as `supabase start` does, plus the bucket routes of the API,
// which run as the caller so only the service role (or a policy on storage.buckets) may use them.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BucketSettings } from '../config.ts';
import { sendJson } from '../http.ts';
import { SERVICE_ROLE_CALLER } from './caller.ts';
import { allowStorageDeletes, asCaller } from './database.ts';
import { errors } from './errors.ts';
import { isValidObjectName, mimeTypeAllowed } from './names.ts';
import { jsonBody, mustBeValidBucket, storeObject, type StorageRequest, type StorageRuntime } from './objects.ts';
import { uploadLimit } from './upload.ts';

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
}

type SyncedBucket = Pick<BucketRow, 'id' | 'public' | 'file_size_limit' | 'allowed_mime_types'>;

/** Inserts or updates each configured bucket (visibility, size limit, MIME types). */
export async function syncConfiguredBuckets(rt: StorageRuntime): Promise<void> {
  const { settings } = rt;
  for (const bucket of settings.buckets) {
    let limit = bucket.fileSizeLimit;
    if (limit !== null && limit > settings.fileSizeLimit) {
      rt.log(`storage: bucket ${bucket.name}'s file_size_limit is above [storage] file_size_limit; the global limit applies`);
      limit = settings.fileSizeLimit;
    }
    const [row] = await rt.sql<SyncedBucket[]>`
      insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
      values (${bucket.name}, ${bucket.name}, ${bucket.public}, ${limit}, ${bucket.allowedMimeTypes})
      on conflict (id) do update set
        public = excluded.public, file_size_limit = excluded.file_size_limit,
        allowed_mime_types = excluded.allowed_mime_types, updated_at = now()
      returning id, public, file_size_limit, allowed_mime_types
    `;
    if (bucket.objectsPath) await uploadObjectsPath(rt, bucket, row);
  }
}

// Enough to label seeded files; anything else is stored as bytes.
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
  '.heic': 'image/heic', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.pdf': 'application/pdf',
  '.txt': 'text/plain', '.csv': 'text/csv', '.json': 'application/json', '.html': 'text/html', '.css': 'text/css',
  '.js': 'text/javascript', '.md': 'text/markdown', '.mp4': 'video/mp4', '.webm': 'video/webm', '.mp3': 'audio/mpeg',
  '.zip': 'application/zip',
};

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(full)));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** Uploads (upserts) the files of a bucket's objects_path; unchanged files are left alone. */
async function uploadObjectsPath(rt: StorageRuntime, settings: BucketSettings, bucket: SyncedBucket): Promise<void> {
  const dir = settings.objectsPath!;
  if (!existsSync(dir)) {
    rt.log(`storage: objects_path ${dir} of bucket ${settings.name} does not exist`);
    return;
  }
  const storedETags = new Map(
    (await rt.sql<{ name: string; etag: string | null }[]>`
      select name, metadata->>'eTag' as etag from storage.objects where bucket_id = ${bucket.id}
    `).map((row) => [row.name, row.etag]),
  );
  for (const file of await filesUnder(dir)) {
    const name = path.relative(dir, file).split(path.sep).join('/');
    const content = await readFile(file);
    const mimeType = TYPES_BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
    const skip = (reason: string) => rt.log(`storage: ${settings.name}/${name} not uploaded: ${reason}`);
    if (!isValidObjectName(name)) {
      skip('the name is not a valid object name');
      continue;
    }
    if (content.length > uploadLimit(bucket, rt.settings.fileSizeLimit, name)) {
      skip('it is larger than the bucket allows');
      continue;
    }
    if (bucket.allowed_mime_types?.length && !mimeTypeAllowed(mimeType, bucket.allowed_mime_types)) {
      skip(`${mimeType} is not among the bucket's allowed_mime_types`);
      continue;
    }
    const eTag = `"${createHash('md5').update(content).digest('hex')}"`;
    if (storedETags.get(name) === eTag) continue;
    await storeObject(rt, {
      bucket,
      name,
      caller: SERVICE_ROLE_CALLER,
      owner: undefined,
      upsert: true,
      upload: {
        mimeType,
        cacheControl: 'max-age=3600',
        contentEncoding: undefined,
        userMetadata: undefined,
        write: (files, version) => files.writeBuffer(bucket.id, version, content),
      },
    });
  }
}

/**
 * A bucket as storage-api serializes it (its response schema turns a null owner into ""). Only
 * the bucket list carries `type` ('STANDARD'); a single bucket (getBucket) does not.
 */
function renderBucket(row: BucketRow, withType: boolean) {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner ?? '',
    public: row.public,
    ...(withType ? { type: 'STANDARD' } : {}),
    file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowed_mime_types: row.allowed_mime_types,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Storage API sizes are decimal ("20MB" = 20 000 000 bytes), unlike config.toml's. */
function fileSizeLimitOf(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value || null;
  const match = typeof value === 'string' ? /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value) : null;
  if (!match) throw errors.invalidRequest('Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B');
  const scale = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 }[match[2].toLowerCase() as 'gb' | 'mb' | 'kb' | 'b'];
  return Math.round(Number(match[1]) * scale);
}

function allowedMimeTypesOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((t) => typeof t !== 'string' || !/^([a-z0-9.+-]+|\*)\/([a-z0-9.+-]+|\*)$/i.test(t))) {
    throw errors.invalidRequest('body/allowed_mime_types must be a list of MIME types');
  }
  return value.length > 0 ? value : null;
}

function checkLimit(rt: StorageRuntime, limit: number | null): void {
  if (limit !== null && limit > rt.settings.fileSizeLimit) throw errors.entityTooLarge();
}

export async function listBuckets(rt: StorageRuntime, request: StorageRequest): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const rows = await asCaller(rt.sql, caller, (tx) => tx<BucketRow[]>`select * from storage.buckets order by name`);
  sendJson(request.res, 200, rows.map((row) => renderBucket(row, true)));
}

export async function getBucket(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const [row] = await asCaller(rt.sql, caller, (tx) => tx<BucketRow[]>`select * from storage.buckets where id = ${bucketId}`);
  if (!row) throw errors.noSuchBucket();
  sendJson(request.res, 200, renderBucket(row, false));
}

export async function createBucket(rt: StorageRuntime, request: StorageRequest): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const body = await jsonBody(request);
  const id = typeof body.id === 'string' ? body.id : body.name;
  if (typeof id !== 'string') throw errors.invalidRequest("body must have required property 'name'");
  mustBeValidBucket(id);
  const limit = fileSizeLimitOf(body.file_size_limit);
  checkLimit(rt, limit);
  const types = allowedMimeTypesOf(body.allowed_mime_types);
  const [existing] = await rt.sql`select 1 from storage.buckets where id = ${id}`;
  if (existing) throw errors.bucketAlreadyExists();
  await asCaller(rt.sql, caller, (tx) => tx`
    insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
    values (${id}, ${id}, ${caller.sub && /^[0-9a-f-]{36}$/i.test(caller.sub) ? caller.sub : null}, ${caller.sub ?? null},
            ${body.public === true}, ${limit}, ${types})
  `);
  sendJson(request.res, 200, { name: id });
}

export async function updateBucket(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const body = await jsonBody(request);
  const limit = fileSizeLimitOf(body.file_size_limit);
  checkLimit(rt, limit);
  const types = allowedMimeTypesOf(body.allowed_mime_types);
  // As storage-api: a field left out keeps its value, an explicit null clears it.
  const updated = await asCaller(rt.sql, caller, (tx) => tx`
    update storage.buckets set
      public = coalesce(${typeof body.public === 'boolean' ? body.public : null}::boolean, public),
      file_size_limit = case when ${'file_size_limit' in body} then ${limit}::bigint else file_size_limit end,
      allowed_mime_types = case when ${'allowed_mime_types' in body} then ${types}::text[] else allowed_mime_types end,
      updated_at = now()
    where id = ${bucketId} returning id
  `);
  if (updated.length === 0) throw errors.noSuchBucket();
  sendJson(request.res, 200, { message: 'Successfully updated' });
}

export async function emptyBucket(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const deleted = await asCaller(rt.sql, caller, async (tx) => {
    const [bucket] = await tx`select id from storage.buckets where id = ${bucketId}`;
    if (!bucket) throw errors.noSuchBucket();
    await allowStorageDeletes(tx);
    return tx<{ version: string | null }[]>`delete from storage.objects where bucket_id = ${bucketId} returning version`;
  });
  for (const row of deleted) await rt.files.remove(bucketId, row.version);
  sendJson(request.res, 200, { message: 'Successfully emptied' });
}

export async function deleteBucket(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  // Only a caller who can see the bucket learns whether it is empty.
  const [visible] = await asCaller(rt.sql, caller, (tx) => tx`select id from storage.buckets where id = ${bucketId}`);
  if (!visible) throw errors.noSuchBucket();
  const [object] = await rt.sql`select 1 from storage.objects where bucket_id = ${bucketId} limit 1`;
  if (object) throw errors.bucketNotEmpty();
  const deleted = await asCaller(rt.sql, caller, async (tx) => {
    await allowStorageDeletes(tx);
    return tx`delete from storage.buckets where id = ${bucketId} returning id`;
  });
  if (deleted.length === 0) throw errors.noSuchBucket();
  await rt.files.removeBucket(bucketId);
  sendJson(request.res, 200, { message: 'Successfully deleted' });
}
