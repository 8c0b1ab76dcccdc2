// The object routes of Storage: upload (POST, PUT), download (authenticated, public, signed),
// info, list, remove, signed download URLs and signed upload URLs. Every read and write of a
// caller runs as that caller (see database.ts); signed URLs carry their own authority.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Sql } from 'postgres';
import type { StorageSettings } from '../config.ts';
import { sendJson } from '../http.ts';
import { SERVICE_ROLE_CALLER, type Caller, type CallerResolver } from './caller.ts';
import { actAs, actAsPlatform, allowStorageDeletes, asCaller, storageErrorFrom, testPermission, type Tx } from './database.ts';
import { errors } from './errors.ts';
import type { ObjectFiles } from './files.ts';
import { isHeaderSafeValue, isValidBucketName, isValidObjectName, servingLabel } from './names.ts';
import type { UrlTokens } from './tokens.ts';
import { readStorageBody, receiveUpload, type BucketLimits, type IncomingUpload } from './upload.ts';

export interface StorageRuntime {
  log: (message: string) => void;
  sql: Sql;
  files: ObjectFiles;
  tokens: UrlTokens;
  resolveCaller: CallerResolver;
  settings: StorageSettings;
}

export interface StorageRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  query: URLSearchParams;
}

interface BucketRow extends BucketLimits {
  public: boolean;
}

interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, any> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

// storage-js documents two hours for signed upload URLs.
const SIGNED_UPLOAD_LIFETIME_SECONDS = 2 * 60 * 60;
const MAX_JSON_BODY = 1024 * 1024;
const MAX_OBJECTS_PER_REQUEST = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at']);

export function mustBeValidBucket(bucketId: string): void {
  if (!isValidBucketName(bucketId)) throw errors.invalidBucketName();
}

function mustBeValidKey(name: string): void {
  if (!isValidObjectName(name)) throw errors.invalidKey(name);
}

export async function jsonBody(request: StorageRequest): Promise<Record<string, any>> {
  const raw = await readStorageBody(request.req, MAX_JSON_BODY);
  if (raw.length === 0) return {};
  try {
    const parsed = JSON.parse(raw.toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // Answered below, as for any other body that is not an object.
  }
  throw errors.invalidRequest('Body must be a JSON object');
}

function expiresInOf(body: Record<string, any>): number {
  const value = body.expiresIn;
  if (value === undefined) throw errors.invalidRequest("body must have required property 'expiresIn'");
  if (!Number.isInteger(value) || value < 1) throw errors.invalidRequest('body/expiresIn must be an integer >= 1');
  return value;
}

async function findBucket(rt: StorageRuntime, bucketId: string): Promise<BucketRow> {
  const [bucket] = await rt.sql<BucketRow[]>`
    select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = ${bucketId}
  `;
  if (!bucket) throw errors.noSuchBucket();
  return bucket;
}

/** The public routes serve public buckets only; a private one is not found there. */
async function mustBePublicBucket(rt: StorageRuntime, bucketId: string): Promise<void> {
  const [bucket] = await rt.sql`select id from storage.buckets where id = ${bucketId} and public`;
  if (!bucket) throw errors.noSuchBucket();
}

/** The object as the caller may see it (RLS): not visible and not there look the same. */
async function findObjectAs(rt: StorageRuntime, caller: Caller, bucketId: string, name: string): Promise<ObjectRow> {
  const [row] = await asCaller(rt.sql, caller, (tx) => tx<ObjectRow[]>`
    select * from storage.objects where bucket_id = ${bucketId} and name = ${name}
  `);
  if (!row) throw errors.noSuchKey();
  return row;
}

async function findObjectAsPlatform(rt: StorageRuntime, bucketId: string, name: string): Promise<ObjectRow> {
  const [row] = await rt.sql<ObjectRow[]>`select * from storage.objects where bucket_id = ${bucketId} and name = ${name}`;
  if (!row) throw errors.noSuchKey();
  return row;
}

function objectMetadata(upload: IncomingUpload, size: number, md5: string, at: Date): Record<string, unknown> {
  return {
    eTag: `"${md5}"`,
    size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: at.toISOString(),
    contentLength: size,
    httpStatusCode: 200,
    ...(upload.contentEncoding ? { contentEncoding: upload.contentEncoding } : {}),
  };
}

/** Writes the object's row as the caller: a plain insert, or an upsert (insert + update rights). */
async function writeObjectRow(
  tx: Tx,
  row: { id: string; bucketId: string; name: string; owner: string | undefined; version: string; metadata: unknown; userMetadata: unknown },
  upsert: boolean,
): Promise<void> {
  const ownerUuid = row.owner && UUID.test(row.owner) ? row.owner : null;
  // tx.json: a plain string parameter cast to jsonb would be stored as a JSON string.
  const metadata = tx.json(row.metadata as Parameters<Tx['json']>[0]);
  const userMetadata = row.userMetadata === undefined ? null : tx.json(row.userMetadata as Parameters<Tx['json']>[0]);
  if (!upsert) {
    await tx`
      insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
      values (${row.id}, ${row.bucketId}, ${row.name}, ${ownerUuid}, ${row.owner ?? null}, ${row.version}, ${metadata}, ${userMetadata})
    `;
    return;
  }
  await tx`
    insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
    values (${row.id}, ${row.bucketId}, ${row.name}, ${ownerUuid}, ${row.owner ?? null}, ${row.version}, ${metadata}, ${userMetadata})
    on conflict (bucket_id, name) do update set
      owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
      metadata = excluded.metadata, user_metadata = excluded.user_metadata,
      updated_at = now(), last_accessed_at = now()
  `;
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function tokenSpent(rt: StorageRuntime, token: string): Promise<boolean> {
  const rows = await rt.sql`select 1 from _local_stack.storage_spent_upload_tokens where token_hash = ${tokenHash(token)}`;
  return rows.length > 0;
}

interface StoreOptions {
  bucket: BucketRow;
  name: string;
  caller: Caller;
  owner: string | undefined;
  upsert: boolean;
  upload: IncomingUpload;
  /** A signed upload URL's token, spent by this upload. */
  token?: { value: string; expiresAt: number };
}

/**
 * Stores an upload the way storage-api does: a dry run of the row write as the caller (so RLS
 * refuses before any content is read), the content, then the row write for real with the new
 * version; the replaced version's file goes once the row points elsewhere.
 */
export async function storeObject(rt: StorageRuntime, options: StoreOptions): Promise<{ id: string }> {
  const { bucket, name, caller, owner, upsert, upload } = options;
  const probe = { id: randomUUID(), bucketId: bucket.id, name, owner, version: randomUUID(), metadata: { mimetype: upload.mimeType }, userMetadata: upload.userMetadata };
  await testPermission(rt.sql, caller, (tx) => writeObjectRow(tx, probe, upsert));

  const version = randomUUID();
  const written = await upload.write(rt.files, version);
  const metadata = objectMetadata(upload, written.size, written.md5, new Date());
  let result: { id: string; previousVersion: string | null };
  try {
    result = (await rt.sql.begin(async (tx) => {
      const [previous] = await tx<{ version: string | null }[]>`
        select version from storage.objects where bucket_id = ${bucket.id} and name = ${name} for update
      `;
      if (options.token) {
        await tx`delete from _local_stack.storage_spent_upload_tokens where expires_at < now()`;
        const spent = await tx`
          insert into _local_stack.storage_spent_upload_tokens (token_hash, expires_at)
          values (${tokenHash(options.token.value)}, to_timestamp(${options.token.expiresAt}))
          on conflict do nothing returning token_hash
        `;
        // Spent: the object it made is there, so storage-api's second upload would be a duplicate.
        if (spent.length === 0) throw errors.resourceAlreadyExists();
      }
      await actAs(tx, caller);
      // As storage-api stores it: the user metadata, or {} when the upload has none.
      const userMetadata = { ...upload.userMetadata };
      await writeObjectRow(tx, { id: randomUUID(), bucketId: bucket.id, name, owner, version, metadata, userMetadata }, upsert);
      await actAsPlatform(tx);
      const [row] = await tx<{ id: string }[]>`select id from storage.objects where bucket_id = ${bucket.id} and name = ${name}`;
      return { id: row.id, previousVersion: previous?.version ?? null };
    })) as { id: string; previousVersion: string | null };
  } catch (error) {
    await rt.files.remove(bucket.id, version);
    throw storageErrorFrom(error);
  }
  if (result.previousVersion && result.previousVersion !== version) await rt.files.remove(bucket.id, result.previousVersion);
  return { id: result.id };
}

/** POST /object/{bucket}/{name} (x-upsert) and PUT /object/{bucket}/{name} (always upsert). */
export async function uploadObject(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string, alwaysUpsert: boolean): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  mustBeValidBucket(bucketId);
  mustBeValidKey(name);
  const bucket = await findBucket(rt, bucketId);
  const upload = await receiveUpload(request.req, bucket, name, rt.settings.fileSizeLimit);
  const upsert = alwaysUpsert || request.req.headers['x-upsert'] === 'true';
  const { id } = await storeObject(rt, { bucket, name, caller, owner: caller.sub, upsert, upload });
  sendJson(request.res, 200, { Id: id, Key: `${bucketId}/${name}` });
}

/** POST /object/upload/sign/{bucket}/{name}: the caller must be allowed to write the object now. */
export async function createSignedUploadUrl(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  mustBeValidBucket(bucketId);
  mustBeValidKey(name);
  await findBucket(rt, bucketId);
  const upsert = request.req.headers['x-upsert'] === 'true';
  const probe = { id: randomUUID(), bucketId, name, owner: caller.sub, version: randomUUID(), metadata: {}, userMetadata: undefined };
  await testPermission(rt.sql, caller, (tx) => writeObjectRow(tx, probe, upsert));
  const url = `${bucketId}/${name}`;
  const token = await rt.tokens.sign({ url, scope: 'upload', owner: caller.sub, upsert }, SIGNED_UPLOAD_LIFETIME_SECONDS);
  sendJson(request.res, 200, { url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** PUT /object/upload/sign/{bucket}/{name}?token=: the token alone authorizes, once. */
export async function uploadToSignedUrl(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const token = request.query.get('token');
  const claims = await rt.tokens.verify(token, 'upload', `${bucketId}/${name}`);
  mustBeValidKey(name);
  // A used upload URL answers as storage-api answers a second upload to it: the object exists.
  if (await tokenSpent(rt, token!)) throw errors.resourceAlreadyExists();
  const bucket = await findBucket(rt, bucketId);
  const upload = await receiveUpload(request.req, bucket, name, rt.settings.fileSizeLimit);
  await storeObject(rt, {
    bucket,
    name,
    caller: SERVICE_ROLE_CALLER,
    owner: claims.owner,
    upsert: claims.upsert === true,
    upload,
    token: { value: token!, expiresAt: claims.exp! },
  });
  sendJson(request.res, 200, { Key: `${bucketId}/${name}` });
}

function contentDisposition(download: string | null, name: string, forceAttachment: boolean): string | undefined {
  if (download === null && !forceAttachment) return undefined;
  const fileName = encodeURIComponent(download || path.posix.basename(name));
  return `attachment; filename=${fileName}; filename*=UTF-8''${fileName};`;
}

/** The one byte range of a `Range: bytes=…` header; undefined to send everything. */
function requestedRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(size - Number(match[2]), 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/** Sends an object's content with its stored headers, never as something a browser would run. */
async function serveObject(rt: StorageRuntime, request: StorageRequest, object: ObjectRow): Promise<void> {
  const { res, req } = request;
  const metadata = object.metadata ?? {};
  const { file, size } = await rt.files.locate(object.bucket_id, object.version);
  const { contentType, forceAttachment } = servingLabel(metadata.mimetype);
  const lastModified = new Date(metadata.lastModified ?? object.updated_at);
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'content-length': size,
    'accept-ranges': 'bytes',
    'cache-control': isHeaderSafeValue(metadata.cacheControl) ? metadata.cacheControl : 'no-cache',
    'last-modified': Number.isNaN(lastModified.getTime()) ? new Date(object.updated_at).toUTCString() : lastModified.toUTCString(),
    'x-content-type-options': 'nosniff',
    // Even content that slips past the type check can run nothing and reach nothing.
    'content-security-policy': "default-src 'none'; sandbox",
  };
  if (isHeaderSafeValue(metadata.eTag)) headers.etag = metadata.eTag;
  if (isHeaderSafeValue(metadata.contentEncoding) && metadata.contentEncoding !== '') headers['content-encoding'] = metadata.contentEncoding;
  const disposition = contentDisposition(request.query.get('download'), object.name, forceAttachment);
  if (disposition) headers['content-disposition'] = disposition;

  if (headers.etag && req.headers['if-none-match'] === headers.etag) {
    delete headers['content-length'];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const range = requestedRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-length': 0, 'content-range': `bytes */${size}` });
    res.end();
    return;
  }
  if (range) {
    headers['content-length'] = range.end - range.start + 1;
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  }
  res.writeHead(range ? 206 : 200, headers);
  if (request.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const stream = rt.files.read(file, range);
  stream.once('error', (error) => {
    rt.log(`storage: reading ${object.bucket_id}/${object.name} failed: ${error.message}`);
    res.destroy();
  });
  stream.pipe(res);
}

/** GET|HEAD /object/{bucket}/{name} and /object/authenticated/…: as the caller (RLS). */
export async function downloadObject(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  mustBeValidKey(name);
  const object = await findObjectAs(rt, caller, bucketId, name);
  await serveObject(rt, request, object);
}

/** GET|HEAD /object/public/{bucket}/{name}: anyone, but only from a public bucket. */
export async function downloadPublicObject(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  await mustBePublicBucket(rt, bucketId);
  mustBeValidKey(name);
  await serveObject(rt, request, await findObjectAsPlatform(rt, bucketId, name));
}

/** GET|HEAD /object/sign/{bucket}/{name}?token=: the token alone authorizes. */
export async function downloadSignedObject(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  await rt.tokens.verify(request.query.get('token'), 'download', `${bucketId}/${name}`);
  await serveObject(rt, request, await findObjectAsPlatform(rt, bucketId, name));
}

/** GET /object/info/[authenticated/|public/]{bucket}/{name}: the object's facts as JSON. */
export async function objectInfo(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string, publicRoute: boolean): Promise<void> {
  mustBeValidKey(name);
  let object: ObjectRow;
  if (publicRoute) {
    await mustBePublicBucket(rt, bucketId);
    object = await findObjectAsPlatform(rt, bucketId, name);
  } else {
    object = await findObjectAs(rt, await rt.resolveCaller(request.req), bucketId, name);
  }
  const metadata = object.metadata ?? {};
  sendJson(request.res, 200, {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: metadata.size ?? null,
    content_type: metadata.mimetype ?? null,
    cache_control: metadata.cacheControl ?? null,
    etag: metadata.eTag ?? null,
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  });
}

/** POST /object/sign/{bucket}/{name} {expiresIn}: a signed download URL, if the caller can read it. */
export async function createSignedUrl(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const expiresIn = expiresInOf(await jsonBody(request));
  mustBeValidKey(name);
  await findObjectAs(rt, caller, bucketId, name);
  const url = `${bucketId}/${name}`;
  const token = await rt.tokens.sign({ url, scope: 'download' }, expiresIn);
  sendJson(request.res, 200, { signedURL: `/object/sign/${url}?token=${token}` });
}

/** POST /object/sign/{bucket} {expiresIn, paths}: one entry per path, an error for those not readable. */
export async function createSignedUrls(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const body = await jsonBody(request);
  const expiresIn = expiresInOf(body);
  const paths = body.paths;
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_OBJECTS_PER_REQUEST || paths.some((p) => typeof p !== 'string')) {
    throw errors.invalidRequest(`body/paths must be a list of 1 to ${MAX_OBJECTS_PER_REQUEST} object names`);
  }
  const readable = new Set(
    (await asCaller(rt.sql, caller, (tx) => tx<{ name: string }[]>`
      select name from storage.objects where bucket_id = ${bucketId} and name = any(${paths as string[]})
    `)).map((row) => row.name),
  );
  const entries = [];
  for (const name of paths as string[]) {
    if (!readable.has(name)) {
      entries.push({ error: 'Either the object does not exist or you do not have access to it', path: name, signedURL: null });
      continue;
    }
    const url = `${bucketId}/${name}`;
    const token = await rt.tokens.sign({ url, scope: 'download' }, expiresIn);
    entries.push({ error: null, path: name, signedURL: `/object/sign/${url}?token=${token}` });
  }
  sendJson(request.res, 200, entries);
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * POST /object/list/{bucket}: one folder level under `prefix`, as storage.search() lists it —
 * sub-folders first (id null), then the objects the caller may read, then limit and offset.
 */
export async function listObjects(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const body = await jsonBody(request);
  if (typeof body.prefix !== 'string') throw errors.invalidRequest("body must have required property 'prefix'");
  const limit = body.limit === undefined ? 100 : body.limit;
  const offset = body.offset === undefined ? 0 : body.offset;
  if (!Number.isInteger(limit) || limit < 1) throw errors.invalidRequest('body/limit must be an integer >= 1');
  if (!Number.isInteger(offset) || offset < 0) throw errors.invalidRequest('body/offset must be an integer >= 0');
  const search = typeof body.search === 'string' ? body.search : '';
  const column = LIST_SORT_COLUMNS.has(body.sortBy?.column) ? body.sortBy.column : 'name';
  const order = body.sortBy?.order === 'desc' ? 'desc' : 'asc';
  const prefix = body.prefix.length > 0 && !body.prefix.endsWith('/') ? `${body.prefix}/` : body.prefix;
  const level = prefix.split('/').length;
  const pattern = `${likeLiteral(prefix)}${likeLiteral(search)}%`;

  // Column and direction come from the fixed sets above, never from the request text.
  const rows = await asCaller(rt.sql, caller, (tx) => tx.unsafe(
    `with matching as (
       select * from storage.objects where bucket_id = $1 and name ilike $2
     ), entries as (
       select 0 as kind, path_tokens[$3] as name, null::uuid as id, null::timestamptz as updated_at,
              null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
         from matching where array_length(path_tokens, 1) > $3 group by path_tokens[$3]
       union all
       select 1, path_tokens[$3], id, updated_at, created_at, last_accessed_at, metadata
         from matching where array_length(path_tokens, 1) = $3
     )
     select name, id, updated_at, created_at, last_accessed_at, metadata from entries
     order by kind, case when kind = 0 then name end ${order}, ${column} ${order}, name ${order}
     limit $4 offset $5`,
    [bucketId, pattern, level, limit, offset],
  ));
  sendJson(request.res, 200, rows);
}

function removalNames(body: Record<string, any>): string[] {
  const prefixes = body.prefixes;
  if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.length > MAX_OBJECTS_PER_REQUEST) {
    throw errors.invalidRequest(`body/prefixes must be a list of 1 to ${MAX_OBJECTS_PER_REQUEST} object names`);
  }
  return prefixes.map((entry) => {
    const name = typeof entry === 'string' ? entry : entry?.path;
    if (typeof name !== 'string') throw errors.invalidRequest('body/prefixes must hold object names or {path} objects');
    return name;
  });
}

async function deleteRows(rt: StorageRuntime, caller: Caller, bucketId: string, names: string[]): Promise<ObjectRow[]> {
  const deleted = await asCaller(rt.sql, caller, async (tx) => {
    await allowStorageDeletes(tx);
    return tx<ObjectRow[]>`delete from storage.objects where bucket_id = ${bucketId} and name = any(${names}) returning *`;
  });
  for (const row of deleted) await rt.files.remove(bucketId, row.version);
  return deleted;
}

/** DELETE /object/{bucket} {prefixes}: the objects the caller may delete; the rest are skipped. */
export async function removeObjects(rt: StorageRuntime, request: StorageRequest, bucketId: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  const names = removalNames(await jsonBody(request));
  const deleted = await deleteRows(rt, caller, bucketId, names);
  sendJson(
    request.res,
    200,
    deleted.map((row) => ({
      name: row.name,
      id: row.id,
      bucket_id: row.bucket_id,
      owner: row.owner,
      created_at: row.created_at,
      updated_at: row.updated_at,
      last_accessed_at: row.last_accessed_at,
      metadata: row.metadata,
    })),
  );
}

/** DELETE /object/{bucket}/{name}. */
export async function removeObject(rt: StorageRuntime, request: StorageRequest, bucketId: string, name: string): Promise<void> {
  const caller = await rt.resolveCaller(request.req);
  mustBeValidKey(name);
  const deleted = await deleteRows(rt, caller, bucketId, [name]);
  if (deleted.length === 0) throw errors.noSuchKey();
  sendJson(request.res, 200, { message: 'Successfully deleted' });
}
