// The local Storage service: a storage-api-compatible server for /storage/v1 on the stack's
// Postgres (storage.buckets, storage.objects and their policies) and the data folder (content).
// Handlers throw StorageError; this file routes, renders errors and never leaks internals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { sendJson } from '../http.ts';
import { createJwtVerifier } from '../keys.ts';
import type { Service, ServiceContext } from '../types.ts';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, syncConfiguredBuckets, updateBucket } from './buckets.ts';
import { createCallerResolver } from './caller.ts';
import { errors, sendRouteNotFound, sendStorageError, StorageError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import {
  createSignedUploadUrl,
  createSignedUrl,
  createSignedUrls,
  downloadObject,
  downloadPublicObject,
  downloadSignedObject,
  listObjects,
  objectInfo,
  removeObject,
  removeObjects,
  uploadObject,
  uploadToSignedUrl,
  type StorageRequest,
  type StorageRuntime,
} from './objects.ts';
import { createUrlTokens } from './tokens.ts';

type Handler = () => Promise<void>;

function decodeBucket(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidBucketName();
  }
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidKey(raw);
  }
}

/** `bucket/a/b.txt` → [bucket, a/b.txt]; undefined without a name part. */
function bucketAndName(rest: string): [string, string] | undefined {
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  return [decodeBucket(rest.slice(0, slash)), decodeName(rest.slice(slash + 1))];
}

/** A single path segment (a bucket id), or undefined if `rest` has more. */
function bucketOnly(rest: string): string | undefined {
  const trimmed = rest.replace(/\/$/, '');
  return trimmed !== '' && !trimmed.includes('/') ? decodeBucket(trimmed) : undefined;
}

// First segments of storage-api's own object routes for POST and PUT (list, list-v2, sign,
// upload/sign, move, copy). A request under one of them that no emulated route takes is not
// an upload to a bucket of that name: it is answered 404 and never writes (storage-api would
// fall back to its upload route for some of them, e.g. POST /object/list-v2/<bucket>/<name>).
const RESERVED_WRITE_SEGMENTS = new Set(['list', 'list-v2', 'sign', 'upload', 'move', 'copy']);

function firstSegment(rest: string): string {
  const raw = rest.split('/')[0];
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function objectRoute(rt: StorageRuntime, request: StorageRequest, rest: string): Handler | undefined {
  const { method } = request;
  let target: [string, string] | undefined;
  let bucket: string | undefined;
  if (method === 'POST' || method === 'PUT') {
    if (RESERVED_WRITE_SEGMENTS.has(firstSegment(rest))) return reservedObjectRoute(rt, request, rest);
    if ((target = bucketAndName(rest))) return () => uploadObject(rt, request, ...target!, method === 'PUT');
    return undefined;
  }
  const after = (prefix: string) => (rest.startsWith(prefix) ? rest.slice(prefix.length) : undefined);
  const withName = (prefix: string) => {
    const tail = after(prefix);
    return tail === undefined ? undefined : bucketAndName(tail);
  };
  if (method === 'GET' || method === 'HEAD') {
    if ((target = withName('sign/'))) return () => downloadSignedObject(rt, request, ...target!);
    if ((target = withName('public/'))) return () => downloadPublicObject(rt, request, ...target!);
    if (method === 'GET') {
      if ((target = withName('info/public/'))) return () => objectInfo(rt, request, ...target!, true);
      if ((target = withName('info/authenticated/'))) return () => objectInfo(rt, request, ...target!, false);
      if ((target = withName('info/'))) return () => objectInfo(rt, request, ...target!, false);
    }
    if ((target = withName('authenticated/'))) return () => downloadObject(rt, request, ...target!);
    if ((target = bucketAndName(rest))) return () => downloadObject(rt, request, ...target!);
  }
  if (method === 'DELETE') {
    if ((bucket = bucketOnly(rest))) return () => removeObjects(rt, request, bucket!);
    if ((target = bucketAndName(rest))) return () => removeObject(rt, request, ...target!);
  }
  return undefined;
}

/** POST / PUT under a reserved first segment: the emulated routes there, or nothing. */
function reservedObjectRoute(rt: StorageRuntime, request: StorageRequest, rest: string): Handler | undefined {
  const after = (prefix: string) => (rest.startsWith(prefix) ? rest.slice(prefix.length) : undefined);
  const withName = (prefix: string) => {
    const tail = after(prefix);
    return tail === undefined ? undefined : bucketAndName(tail);
  };
  let target: [string, string] | undefined;
  let bucket: string | undefined;
  if (request.method === 'POST') {
    const listTail = after('list/');
    if (listTail !== undefined && (bucket = bucketOnly(listTail))) return () => listObjects(rt, request, bucket!);
    if ((target = withName('upload/sign/'))) return () => createSignedUploadUrl(rt, request, ...target!);
    const signTail = after('sign/');
    if (signTail !== undefined && (bucket = bucketOnly(signTail))) return () => createSignedUrls(rt, request, bucket!);
    if ((target = withName('sign/'))) return () => createSignedUrl(rt, request, ...target!);
  } else if ((target = withName('upload/sign/'))) {
    return () => uploadToSignedUrl(rt, request, ...target!);
  }
  // list-v2, move and copy are not emulated (docs/local-stack.md).
  return undefined;
}

function bucketRoute(rt: StorageRuntime, request: StorageRequest, rest: string): Handler | undefined {
  const { method } = request;
  if (rest === '' || rest === '/') {
    if (method === 'GET') return () => listBuckets(rt, request);
    if (method === 'POST') return () => createBucket(rt, request);
    return undefined;
  }
  const emptyMatch = /^\/([^/]+)\/empty\/?$/.exec(rest);
  if (emptyMatch && method === 'POST') return () => emptyBucket(rt, request, decodeBucket(emptyMatch[1]));
  const id = /^\/([^/]+)\/?$/.exec(rest)?.[1];
  if (id === undefined) return undefined;
  if (method === 'GET') return () => getBucket(rt, request, decodeBucket(id));
  if (method === 'PUT') return () => updateBucket(rt, request, decodeBucket(id));
  if (method === 'DELETE') return () => deleteBucket(rt, request, decodeBucket(id));
  return undefined;
}

export async function createStorageService(ctx: ServiceContext): Promise<Service> {
  const settings = ctx.config.storage;
  if (!settings.enabled) {
    return {
      async handle(_req: IncomingMessage, res: ServerResponse) {
        sendJson(res, 404, { message: 'Storage is disabled in supabase/config.toml ([storage] enabled = false)' });
      },
    };
  }
  // The stack's own bookkeeping, in the platform's _local_stack schema: spent signed-upload tokens.
  await ctx.sql.unsafe(`
    create table if not exists _local_stack.storage_spent_upload_tokens (token_hash text primary key, expires_at timestamptz not null);
  `);
  const jwts = createJwtVerifier(ctx.config.jwtSecret, ctx.signingKey);
  const rt: StorageRuntime = {
    log: ctx.log,
    sql: ctx.sql,
    files: new ObjectFiles(path.join(ctx.config.dataDir, 'storage')),
    tokens: createUrlTokens(ctx.signingKey, jwts),
    resolveCaller: createCallerResolver(ctx.config, jwts),
    settings,
  };
  await syncConfiguredBuckets(rt);

  return {
    async handle(req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<void> {
      // Split by hand: URL parsing would resolve `..` segments before the name could be checked.
      const queryAt = urlPath.indexOf('?');
      const pathname = queryAt === -1 ? urlPath : urlPath.slice(0, queryAt);
      const request: StorageRequest = {
        req,
        res,
        method: (req.method ?? 'GET').toUpperCase(),
        query: new URLSearchParams(queryAt === -1 ? '' : urlPath.slice(queryAt + 1)),
      };
      try {
        let handler: Handler | undefined;
        if (pathname === '/status' || pathname === '/health') handler = async () => sendJson(res, 200, { status: 'ok' });
        else if (pathname.startsWith('/object/')) handler = objectRoute(rt, request, pathname.slice('/object/'.length));
        else if (pathname === '/bucket' || pathname.startsWith('/bucket/')) handler = bucketRoute(rt, request, pathname.slice('/bucket'.length));
        if (!handler) {
          sendRouteNotFound(res, request.method, urlPath);
          return;
        }
        await handler();
      } catch (error) {
        if (res.headersSent) {
          ctx.log(`storage: error after the response started on ${request.method} ${pathname}: ${(error as Error)?.stack ?? error}`);
          res.destroy();
          return;
        }
        if (error instanceof StorageError) {
          sendStorageError(res, error);
          return;
        }
        ctx.log(`storage: unexpected failure on ${request.method} ${pathname}: ${(error as Error)?.stack ?? error}`);
        sendStorageError(res, errors.internal());
      }
    },
  };
}
