// Reading an upload as storage-api does: a raw body typed by its Content-Type header (with
// Cache-Control, x-metadata and Content-Encoding headers), or multipart/form-data whose first
// file part is the content (supabase-js names it ""), typed by that part, with the fields
// cacheControl, metadata and contentType. The size and MIME limits are checked before any
// content is stored: the declared length up front, the actual bytes while they arrive.
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, headerValue, readBody } from '../http.ts';
import { errors } from './errors.ts';
import type { ObjectFiles, WrittenFile } from './files.ts';
import { isHeaderSafeValue, mimeTypeAllowed } from './names.ts';

export interface BucketLimits {
  id: string;
  file_size_limit: number | string | null;
  allowed_mime_types: string[] | null;
}

export interface IncomingUpload {
  mimeType: string;
  cacheControl: string;
  contentEncoding: string | undefined;
  userMetadata: Record<string, unknown> | undefined;
  /** Stores the content as a new version of the bucket; EntityTooLarge past the limit. */
  write(files: ObjectFiles, version: string): Promise<WrittenFile>;
}

// Multipart bodies carry the fields and boundaries besides the file; metadata may be up to 1 MiB.
const MULTIPART_OVERHEAD = 1024 * 1024 + 64 * 1024;
const MAX_USER_METADATA = 1024 * 1024;
// storage-api gives a folder placeholder no content and no MIME check.
const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';

/** The largest upload a bucket takes: its own limit, never above the global one. */
export function uploadLimit(bucket: BucketLimits, globalLimit: number, objectName: string): number {
  if (objectName.endsWith(EMPTY_FOLDER_PLACEHOLDER)) return 0;
  const own = bucket.file_size_limit === null ? 0 : Number(bucket.file_size_limit);
  return own > 0 ? Math.min(own, globalLimit) : globalLimit;
}

function checkMimeType(bucket: BucketLimits, mimeType: string, objectName: string): void {
  if (!bucket.allowed_mime_types || bucket.allowed_mime_types.length === 0) return;
  if (objectName.endsWith(EMPTY_FOLDER_PLACEHOLDER)) return;
  if (!mimeTypeAllowed(mimeType, bucket.allowed_mime_types)) throw errors.invalidMimeType(mimeType);
}

/** The whole body, or EntityTooLarge past `limit` bytes. */
export async function readStorageBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readBody(req, limit);
  } catch (error) {
    throw error instanceof BodyTooLargeError ? errors.entityTooLarge() : error;
  }
}

function parseUserMetadata(json: string): Record<string, unknown> | undefined {
  if (Buffer.byteLength(json, 'utf8') > MAX_USER_METADATA) throw errors.entityTooLarge();
  try {
    const parsed = JSON.parse(json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function receiveUpload(req: IncomingMessage, bucket: BucketLimits, objectName: string, globalLimit: number): Promise<IncomingUpload> {
  const limit = uploadLimit(bucket, globalLimit, objectName);
  const contentType = headerValue(req, 'content-type');
  const contentEncoding = headerValue(req, 'content-encoding');
  const encoding = isHeaderSafeValue(contentEncoding) && contentEncoding !== '' ? contentEncoding : undefined;

  if (contentType?.toLowerCase().startsWith('multipart/form-data')) {
    const declared = Number(headerValue(req, 'content-length'));
    if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD) throw errors.entityTooLarge();
    const body = await readStorageBody(req, limit + MULTIPART_OVERHEAD);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw errors.noContent();
    }
    let file: File | undefined;
    form.forEach((value) => {
      if (!file && typeof value !== 'string') file = value;
    });
    if (!file) throw errors.noContent();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const mimeType = field('contentType') || file.type || 'application/octet-stream';
    checkMimeType(bucket, mimeType, objectName);
    if (file.size > limit) throw errors.entityTooLarge();
    const metadata = field('metadata') ?? field('userMetadata');
    const cacheTime = field('cacheControl');
    const content = new Uint8Array(await file.arrayBuffer());
    return {
      mimeType,
      cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
      contentEncoding: field('contentEncoding') ?? encoding,
      userMetadata: metadata === undefined ? undefined : parseUserMetadata(metadata),
      write: (files, version) => files.writeBuffer(bucket.id, version, content),
    };
  }

  const mimeType = contentType || 'application/octet-stream';
  checkMimeType(bucket, mimeType, objectName);
  const declared = Number(headerValue(req, 'content-length'));
  if (Number.isFinite(declared) && declared > limit) throw errors.entityTooLarge();
  const xMetadata = headerValue(req, 'x-metadata');
  return {
    mimeType,
    cacheControl: headerValue(req, 'cache-control') ?? 'no-cache',
    contentEncoding: encoding,
    userMetadata: xMetadata === undefined ? undefined : parseUserMetadata(Buffer.from(xMetadata, 'base64').toString('utf8')),
    write: (files, version) => files.writeStream(bucket.id, version, req, limit),
  };
}
