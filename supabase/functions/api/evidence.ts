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
  /** An API key's request, which reaches Storage as the service role. */
  serviceRole: boolean;
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
    return { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, serviceRole: true };
  }
  return { apikey: Deno.env.get('SUPABASE_ANON_KEY') ?? '', authorization: req.headers.get('authorization') ?? '', serviceRole: false };
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

/** Removes the object at `path`; how many Storage removed (0: none there, or not the caller's to remove). */
async function removeObject(caller: StorageCaller, path: string): Promise<number> {
  const response = await storage(caller, `object/${BUCKET}`, { method: 'DELETE', ...jsonBody({ prefixes: [path] }) });
  if (!response.ok) throw await storageFailure(response, 'remove the object');
  const removed = await response.json().catch(() => null);
  return Array.isArray(removed) ? removed.length : 0;
}

/** The two tables of photo rows. */
export type PhotoTable = 'attachments' | 'action_attachments';

/** Runs `work` in a savepoint that is always rolled back: SQL's rules are asked, nothing is kept. */
async function rolledBack(tx: Tx, work: (sp: Tx) => Promise<void>): Promise<void> {
  const undo = new Error('rolled back on purpose');
  try {
    await tx.savepoint(async (sp) => {
      await work(sp);
      throw undo;
    });
  } catch (error) {
    if (error !== undo) throw error;
  }
}

/**
 * Removes a photo, row and file together, the row's removal audited once, as the caller. `find`
 * runs the route's checks and returns the row; it runs in the transaction that deletes the row.
 *
 * A person's Storage delete of a photo's file takes its row along, in Storage's own transaction
 * and as that person (20261128130300), so that a file deleted around the api leaves no row
 * behind. So for a person, the row's delete is first tried and rolled back — a refusal is
 * answered as what it is (403, 409, mfa_required) and Storage is not asked — then Storage removes
 * the file and the row. Only a row that had no file (a photo checked in and never uploaded) is
 * then deleted here. No transaction of ours holds the row while Storage works: Storage's
 * transaction must lock it.
 *
 * An API key reaches Storage as the service role, whose deletes take no row along: its row is
 * deleted first, as the key, and the file after it inside the same transaction, so that if
 * Storage fails the row comes back and the photo stays whole.
 */
export async function removePhoto(
  caller: StorageCaller,
  db: RouteContext<unknown, unknown, unknown>['db'],
  table: PhotoTable,
  find: (tx: Tx) => Promise<PhotoRow>,
): Promise<void> {
  const rows = (tx: Tx) => tx('public.' + table);
  const deleteRow = (tx: Tx, id: string) => tx`delete from ${rows(tx)} where id = ${id} returning id`;
  if (caller.serviceRole) {
    await db(async (tx) => {
      const row = await find(tx);
      if ((await deleteRow(tx, row.id)).length === 0) throw ApiError.forbidden();
      await removeObject(caller, row.object_path);
    });
    return;
  }
  const row = await db(async (tx) => {
    const found = await find(tx);
    await rolledBack(tx, async (sp) => {
      if ((await deleteRow(sp, found.id)).length === 0) throw ApiError.forbidden();
    });
    return found;
  });
  // Twice at most: an upload that lands on a pending photo's path between the two steps is removed too.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await removeObject(caller, row.object_path) > 0) return;
    const removedAlone = await db(async (tx) => {
      const [deleted] = await tx`
        delete from ${rows(tx)} where id = ${row.id}
          and not exists (select 1 from storage.objects o where o.bucket_id = ${BUCKET} and o.name = ${row.object_path})
        returning id
      `;
      if (deleted) return true;
      const [left] = await tx`select 1 from ${rows(tx)} where id = ${row.id}`;
      return !left;
    });
    if (removedAlone) return;
  }
  throw ApiError.forbidden();
}

/**
 * Checks what arrived at a pending photo's path: present, of the declared size, of the declared
 * type by its magic bytes, and at most 40 MP. A file that fails is removed, row and object
 * together in a transaction of its own (`table` names the row's table), so its place is free again.
 */
export async function checkUploadedPhoto(
  caller: StorageCaller,
  db: RouteContext<unknown, unknown, unknown>['db'],
  table: PhotoTable,
  row: PhotoRow,
): Promise<void> {
  const discard = () => removePhoto(caller, db, table, () => Promise.resolve(row));
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
