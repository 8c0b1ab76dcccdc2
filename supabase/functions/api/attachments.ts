// Photo evidence: `POST /orgs/{org}/inspections/{id}/attachments` checks in a photo and hands out
// a signed upload URL, `POST …/{att}/confirm` checks what arrived, `GET …/{att}/url` signs a
// download and `DELETE …/{att}` removes it. Storage is called with the caller's own token, never
// the service role (PRODUCT.md §7): it signs an upload URL only for the path of a pending
// attachment of the caller (storage policy in 20261121001550), so the row is committed first.
import { z } from 'zod';
import type { UserPrincipal } from '../_shared/auth.ts';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route, type RouteContext } from '../_shared/http.ts';
import {
  type Attachment,
  attachmentCreateSchema,
  type AttachmentUpload,
  type AttachmentUrl,
  isPhotoType,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  PHOTO_EXTENSIONS,
  PHOTO_URL_LIFETIME_SECONDS,
  type PhotoType,
  photoTypeOf,
  pixelCountOf,
} from '../_shared/schemas/attachments.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
import { canFillInspection, INSPECTION_FILLERS } from '../_shared/schemas/inspections.ts';
import { iso, requireRole, requireUser } from './access.ts';

const BUCKET = 'evidence';
// Enough for every PNG and WebP header and the frame header of nearly every JPEG (EXIF first).
const HEADER_BYTES = 64 * 1024;

const inspectionParams = z.strictObject({ org: idSchema, id: idSchema });
const attachmentParams = z.strictObject({ org: idSchema, id: idSchema, att: idSchema });

/** An attachments row as postgres.js returns it. */
export interface AttachmentRow {
  id: string;
  org_id: string;
  inspection_id: string;
  item_key: string;
  object_path: string;
  content_type: PhotoType;
  byte_size: string | number;
  confirmed_at: Date | null;
  uploaded_by: string | null;
  created_at: Date;
}

/** The API's Attachment of a row; also the `attachments` of an inspection's detail. */
export function attachmentOf(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    inspection_id: row.inspection_id,
    item_key: row.item_key,
    content_type: row.content_type,
    byte_size: Number(row.byte_size),
    status: row.confirmed_at === null ? 'pending' : 'confirmed',
    uploaded_by: row.uploaded_by,
    created_at: iso(row.created_at),
    confirmed_at: iso(row.confirmed_at),
  };
}

// --- Storage, as the caller ------------------------------------------------------------------

function supabaseUrl(): string {
  const url = Deno.env.get('SUPABASE_URL');
  if (!url) throw new Error('SUPABASE_URL is not set');
  return url.replace(/\/+$/, '');
}

/** Storage with the caller's access token: its policies decide, as for any other request of theirs. */
async function storage(req: Request, path: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
  const apikey = Deno.env.get('SUPABASE_ANON_KEY') ?? '';
  try {
    return await fetch(`${supabaseUrl()}/storage/v1/${path}`, {
      method: init.method,
      headers: { apikey, authorization: req.headers.get('authorization') ?? '', ...init.headers },
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
async function signUpload(req: Request, path: string): Promise<{ token: string; signedUrl: string }> {
  const response = await storage(req, `object/upload/sign/${BUCKET}/${path}`, { method: 'POST', ...jsonBody({}) });
  if (!response.ok) throw await storageFailure(response, 'sign an upload URL');
  const { url } = await response.json() as { url: string };
  const signedUrl = `${supabaseUrl()}/storage/v1${url}`;
  const token = new URL(signedUrl).searchParams.get('token');
  if (!token) throw ApiError.internal(new Error('storage signed an upload URL without a token'));
  return { token, signedUrl };
}

/** The stored object's size, or null when nothing was uploaded there. */
async function storedSize(req: Request, path: string): Promise<number | null> {
  const response = await storage(req, `object/info/${BUCKET}/${path}`, { method: 'GET' });
  if (!response.ok) {
    if (await storageStatus(response) === '404') return null;
    throw ApiError.internal(new Error(`storage refused the object's info: ${response.status}`));
  }
  const info = await response.json() as { size?: unknown; metadata?: { size?: unknown } };
  return Number(info.size ?? info.metadata?.size);
}

/** The first bytes of the stored object (a Range request, so a 10 MB photo is not read whole). */
async function firstBytes(req: Request, path: string): Promise<Uint8Array> {
  const response = await storage(req, `object/authenticated/${BUCKET}/${path}`, {
    method: 'GET',
    headers: { range: `bytes=0-${HEADER_BYTES - 1}` },
  });
  if (!response.ok) throw ApiError.internal(new Error(`storage refused to read the object: ${response.status}`));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.subarray(0, HEADER_BYTES);
}

async function removeObject(req: Request, path: string): Promise<void> {
  const response = await storage(req, `object/${BUCKET}`, { method: 'DELETE', ...jsonBody({ prefixes: [path] }) });
  if (!response.ok) throw await storageFailure(response, 'remove the object');
}

// --- checks ----------------------------------------------------------------------------------

/** The inspection's state, for the in-progress check of the routes that change photos. */
interface InspectionAccess {
  status: string;
  statusLabel: string;
}

/**
 * The caller's standing on an inspection: 404 outside the organization or for another
 * organization's inspection, 403 for viewers and for inspectors it is assigned to someone else.
 * Early, so the caller gets the right error before Storage is asked anything; SQL decides again.
 */
async function requireFiller(tx: Tx, user: UserPrincipal, orgId: string, inspectionId: string): Promise<InspectionAccess> {
  const role = await requireRole(tx, orgId);
  const [inspection] = await tx<{ status: string; status_label: string; assignee_id: string | null }[]>`
    select status, private.inspection_status_label(status) as status_label, assignee_id
    from public.inspections where org_id = ${orgId} and id = ${inspectionId}
  `;
  if (!inspection) throw ApiError.notFound('inspection');
  if (!(INSPECTION_FILLERS as readonly Role[]).includes(role)) throw ApiError.forbidden();
  if (!canFillInspection(role, user.userId, inspection)) throw ApiError.forbidden('This inspection is assigned to someone else.');
  return { status: inspection.status, statusLabel: inspection.status_label };
}

function requireInProgress(access: InspectionAccess): void {
  if (access.status !== 'in_progress') throw ApiError.invalidTransition(access.statusLabel, 'changed');
}

async function readAttachment(tx: Tx, params: { org: string; id: string; att: string }): Promise<AttachmentRow> {
  const [row] = await tx<AttachmentRow[]>`
    select * from public.attachments where org_id = ${params.org} and inspection_id = ${params.id} and id = ${params.att}
  `;
  if (!row) throw ApiError.notFound('photo');
  return row;
}

/** Removes a refused upload, row and object together, in a transaction of its own. */
async function discard(req: Request, db: RouteContext<unknown, unknown, unknown>['db'], row: AttachmentRow): Promise<void> {
  await db(async (tx) => {
    await tx`delete from public.attachments where id = ${row.id}`;
    await removeObject(req, row.object_path);
  });
}

// --- routes ----------------------------------------------------------------------------------

export const createAttachment = route({
  method: 'POST',
  path: '/orgs/:org/inspections/:id/attachments',
  params: inspectionParams,
  body: attachmentCreateSchema,
  status: 201,
  // Storage must see the committed row when it checks the caller may upload to its path.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, body, db }): Promise<AttachmentUpload> => {
    const user = requireUser(principal);
    const row = await db(async (tx) => {
      const access = await requireFiller(tx, user, params.org, params.id);
      if (!isPhotoType(body.content_type)) throw ApiError.unsupportedMediaType();
      if (body.byte_size > MAX_PHOTO_BYTES) throw ApiError.payloadTooLarge(MAX_PHOTO_BYTES);
      requireInProgress(access);
      const path = `${params.org}/${params.id}/${body.item_key}/${crypto.randomUUID()}.${PHOTO_EXTENSIONS[body.content_type]}`;
      const [inserted] = await tx<AttachmentRow[]>`
        insert into public.attachments ${tx({
          org_id: params.org,
          inspection_id: params.id,
          item_key: body.item_key,
          object_path: path,
          content_type: body.content_type,
          byte_size: body.byte_size,
        })}
        returning *
      `;
      return inserted;
    });
    let signed: { token: string; signedUrl: string };
    try {
      signed = await signUpload(req, row.object_path);
    } catch (error) {
      await db((tx) => tx`delete from public.attachments where id = ${row.id}`);
      throw error;
    }
    return { attachment: attachmentOf(row), upload: { path: row.object_path, token: signed.token, signed_url: signed.signedUrl } };
  },
});

export const confirmAttachment = route({
  method: 'POST',
  path: '/orgs/:org/inspections/:id/attachments/:att/confirm',
  params: attachmentParams,
  // Storage is read between the checks and the update; no transaction is held open meanwhile.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, db }): Promise<Attachment> => {
    const user = requireUser(principal);
    const row = await db(async (tx) => {
      const access = await requireFiller(tx, user, params.org, params.id);
      const found = await readAttachment(tx, params);
      if (found.confirmed_at === null) requireInProgress(access);
      return found;
    });
    if (row.confirmed_at !== null) return attachmentOf(row);

    const size = await storedSize(req, row.object_path);
    if (size === null) throw ApiError.validation([{ field: 'file', message: 'Upload the photo before confirming it.' }]);
    if (size !== Number(row.byte_size)) {
      await discard(req, db, row);
      throw ApiError.validation([{ field: 'file', message: `The uploaded file has ${size} bytes, not the ${row.byte_size} declared.` }]);
    }
    const head = await firstBytes(req, row.object_path);
    const actual = photoTypeOf(head);
    if (actual !== row.content_type) {
      await discard(req, db, row);
      throw ApiError.unsupportedMediaType(
        actual ? `The file is a ${PHOTO_EXTENSIONS[actual].toUpperCase()} photo, not the type declared.` : 'The file is not a JPEG, PNG, WebP or HEIC photo.',
      );
    }
    const pixels = pixelCountOf(actual, head);
    if (pixels !== null && pixels > MAX_PHOTO_PIXELS) {
      await discard(req, db, row);
      throw ApiError.validation([{ field: 'file', message: `Use a photo of at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels.` }]);
    }

    return await db(async (tx) => {
      const [confirmed] = await tx<AttachmentRow[]>`
        update public.attachments set confirmed_at = now() where id = ${row.id} returning *
      `;
      if (!confirmed) throw ApiError.forbidden();
      return attachmentOf(confirmed);
    });
  },
});

export const getAttachmentUrl = route({
  method: 'GET',
  path: '/orgs/:org/inspections/:id/attachments/:att/url',
  params: attachmentParams,
  handler: async ({ req, principal, params, db }): Promise<AttachmentUrl> => {
    requireUser(principal);
    const row = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await readAttachment(tx, params);
    });
    // A pending photo may not be there yet, and is not evidence until it was checked.
    if (row.confirmed_at === null) throw ApiError.notFound('photo');
    const response = await storage(req, `object/sign/${BUCKET}/${row.object_path}`, {
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
  },
});

export const deleteAttachment = route({
  method: 'DELETE',
  path: '/orgs/:org/inspections/:id/attachments/:att',
  params: attachmentParams,
  handler: async ({ req, principal, params, db }): Promise<undefined> => {
    const user = requireUser(principal);
    await db(async (tx) => {
      const access = await requireFiller(tx, user, params.org, params.id);
      const row = await readAttachment(tx, params);
      requireInProgress(access);
      const deleted = await tx`delete from public.attachments where id = ${row.id} returning id`;
      if (deleted.length === 0) throw ApiError.forbidden();
      // Inside the transaction: if Storage fails, the row comes back and the photo stays whole.
      await removeObject(req, row.object_path);
    });
    return undefined;
  },
});
