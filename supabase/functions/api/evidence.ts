// Photo evidence in bucket `evidence`, shared by inspection photos (attachments.ts) and the
// photos that prove a corrective action's fix (action-attachments.ts). Storage is called with the
// caller's own token, never the service role (docs/product.md §7): its policies decide, as for any
// other request of theirs. A photo is checked in as a pending row, uploaded through a signed URL,
// then confirmed here by size, magic bytes and pixel count before the row is marked confirmed.
import type { Principal } from '../_shared/auth.ts';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import type { RouteContext } from '../_shared/http.ts';
import {
  isPhotoType,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  PHOTO_EXTENSIONS,
  PHOTO_URL_LIFETIME_SECONDS,
  type PhotoType,
  photoTypeOf,
  pixelCountOf,
} from '../_shared/schemas/attachments.ts';
import { iso } from './access.ts';

const BUCKET = 'evidence';
// Enough for every PNG and WebP header and the frame header of nearly every JPEG (EXIF first).
const HEADER_BYTES = 64 * 1024;

/** The columns both photo tables share, as postgres.js returns them. */
export interface PhotoRow {
  id: string;
  object_path: string;
  content_type: PhotoType;
  byte_size: string | number;
  confirmed_at: Date | null;
  uploaded_by: string | null;
  created_at: Date;
}

/** What both photo kinds show of a row: its state and who sent it. */
export function photoFieldsOf(row: PhotoRow) {
  return {
    id: row.id,
    content_type: row.content_type,
    byte_size: Number(row.byte_size),
    status: row.confirmed_at === null ? 'pending' as const : 'confirmed' as const,
    uploaded_by: row.uploaded_by,
    created_at: iso(row.created_at),
    confirmed_at: iso(row.confirmed_at),
  };
}

/** A new object's path in `folder`: a fresh uuid with the type's extension. */
export function photoPath(folder: string, contentType: PhotoType): string {
  return `${folder}/${crypto.randomUUID()}.${PHOTO_EXTENSIONS[contentType]}`;
}

/** The declared type and size of a photo to check in: 415 and 413 before anything is written. */
export function requireAcceptablePhoto(declared: { content_type: string; byte_size: number }): PhotoType {
  if (!isPhotoType(declared.content_type)) throw ApiError.unsupportedMediaType();
  if (declared.byte_size > MAX_PHOTO_BYTES) throw ApiError.payloadTooLarge(MAX_PHOTO_BYTES);
  return declared.content_type;
}

function supabaseUrl(): string {
  const url = Deno.env.get('SUPABASE_URL');
  if (!url) throw new Error('SUPABASE_URL is not set');
  return url.replace(/\/+$/, '');
}

/** The credentials Storage sees for a request: `storageCallerOf`. */
export interface StorageCaller {
  apikey: string;
  authorization: string;
}

/**
 * A user reaches Storage with their own access token, so Storage's policies decide as for any
 * other request of theirs. An API key is nothing Storage can check, so a key's request reaches it
 * with the service role — but only here, after the api's checks, and only for the object of a
 * photo row that row-level security let the key write or read as its role (docs/api-keys.md).
 */
export function storageCallerOf(req: Request, principal: Principal): StorageCaller {
  if (principal.kind === 'api_key') {
    const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? '';
    return { apikey: serviceKey, authorization: `Bearer ${serviceKey}` };
  }
  return { apikey: Deno.env.get('SUPABASE_ANON_KEY') ?? '', authorization: req.headers.get('authorization') ?? '' };
}

/** Storage as `caller`. */
async function storage(caller: StorageCaller, path: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
  try {
    return await fetch(`${supabaseUrl()}/storage/v1/${path}`, {
      method: init.method,
      headers: { apikey: caller.apikey, authorization: caller.authorization, ...init.headers },
      body: init.body,
    });
  } catch (error) {
    throw ApiError.serviceUnavailable(error);
  }
}

/** Storage errors carry their real status in `statusCode` (wire contract §3). */
async function storageStatus(response: Response): Promise<string> {
  const body = await response.json().catch(() => null) as { statusCode?: unknown } | null;
  return typeof body?.statusCode === 'string' ? body.statusCode : String(response.status);
}

async function storageFailure(response: Response, what: string): Promise<ApiError> {
  const status = await storageStatus(response);
  if (status === '403') return ApiError.forbidden();
  return ApiError.internal(new Error(`storage refused to ${what}: ${response.status} / ${status}`));
}

function jsonBody(body: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Signs an upload URL for `path`; Storage checks that the caller may insert it. */
export async function signUpload(caller: StorageCaller, path: string): Promise<{ path: string; token: string; signed_url: string }> {
  const response = await storage(caller, `object/upload/sign/${BUCKET}/${path}`, { method: 'POST', ...jsonBody({}) });
  if (!response.ok) throw await storageFailure(response, 'sign an upload URL');
  const { url } = await response.json() as { url: string };
  const signedUrl = `${supabaseUrl()}/storage/v1${url}`;
  const token = new URL(signedUrl).searchParams.get('token');
  if (!token) throw ApiError.internal(new Error('storage signed an upload URL without a token'));
  return { path, token, signed_url: signedUrl };
}

/** A signed download URL for a confirmed photo; 404 when Storage has no such object. */
export async function signDownload(caller: StorageCaller, path: string): Promise<{ url: string; expires_at: string }> {
  const response = await storage(caller, `object/sign/${BUCKET}/${path}`, {
    method: 'POST',
    ...jsonBody({ expiresIn: PHOTO_URL_LIFETIME_SECONDS }),
  });
  if (!response.ok) {
    if (await storageStatus(response) === '404') throw ApiError.notFound('photo');
    throw ApiError.internal(new Error(`storage refused to sign a download URL: ${response.status}`));
  }
  const { signedURL } = await response.json() as { signedURL: string };
  return {
    url: `${supabaseUrl()}/storage/v1${signedURL}`,
    expires_at: new Date(Date.now() + PHOTO_URL_LIFETIME_SECONDS * 1000).toISOString(),
  };
}

/** The stored object's size, or null when nothing was uploaded there. */
async function storedSize(caller: StorageCaller, path: string): Promise<number | null> {
  const response = await storage(caller, `object/info/${BUCKET}/${path}`, { method: 'GET' });
  if (!response.ok) {
    if (await storageStatus(response) === '404') return null;
    throw ApiError.internal(new Error(`storage refused the object's info: ${response.status}`));
  }
  const info = await response.json() as { size?: unknown; metadata?: { size?: unknown } };
  return Number(info.size ?? info.metadata?.size);
}

/** The first bytes of the stored object (a Range request, so a 10 MB photo is not read whole). */
async function firstBytes(caller: StorageCaller, path: string): Promise<Uint8Array> {
  const response = await storage(caller, `object/authenticated/${BUCKET}/${path}`, {
    method: 'GET',
    headers: { range: `bytes=0-${HEADER_BYTES - 1}` },
  });
  if (!response.ok) throw ApiError.internal(new Error(`storage refused to read the object: ${response.status}`));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.subarray(0, HEADER_BYTES);
}

export async function removeObject(caller: StorageCaller, path: string): Promise<void> {
  const response = await storage(caller, `object/${BUCKET}`, { method: 'DELETE', ...jsonBody({ prefixes: [path] }) });
  if (!response.ok) throw await storageFailure(response, 'remove the object');
}

/**
 * Checks what arrived at a pending photo's path: present, of the declared size, of the declared
 * type by its magic bytes, and at most 40 MP. A file that fails is removed, row and object
 * together in a transaction of its own (`table` names the row's table), so its place is free again.
 */
export async function checkUploadedPhoto(
  caller: StorageCaller,
  db: RouteContext<unknown, unknown, unknown>['db'],
  table: 'attachments' | 'action_attachments',
  row: PhotoRow,
): Promise<void> {
  const discard = () =>
    db(async (tx: Tx) => {
      await tx`delete from ${tx('public.' + table)} where id = ${row.id}`;
      await removeObject(caller, row.object_path);
    });
  const size = await storedSize(caller, row.object_path);
  if (size === null) throw ApiError.validation([{ field: 'file', message: 'Upload the photo before confirming it.' }]);
  if (size !== Number(row.byte_size)) {
    await discard();
    throw ApiError.validation([{ field: 'file', message: `The uploaded file has ${size} bytes, not the ${row.byte_size} declared.` }]);
  }
  const head = await firstBytes(caller, row.object_path);
  const actual = photoTypeOf(head);
  if (actual !== row.content_type) {
    await discard();
    throw ApiError.unsupportedMediaType(
      actual ? `The file is a ${PHOTO_EXTENSIONS[actual].toUpperCase()} photo, not the type declared.` : 'The file is not a JPEG, PNG, WebP or HEIC photo.',
    );
  }
  const pixels = pixelCountOf(actual, head);
  if (pixels !== null && pixels > MAX_PHOTO_PIXELS) {
    await discard();
    throw ApiError.validation([{ field: 'file', message: `Use a photo of at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels.` }]);
  }
}
