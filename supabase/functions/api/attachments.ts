// Photo evidence: `POST /orgs/{org}/inspections/{id}/attachments` checks in a photo and hands out
// a signed upload URL, `POST …/{att}/confirm` checks what arrived, `GET …/{att}/url` signs a
// download and `DELETE …/{att}` removes it. A user's Storage calls carry their own token: Storage
// signs an upload URL only for the path of a pending attachment of the caller (a storage.objects
// policy in supabase/schema.sql), so the row is committed first. An API key's carry the service role, for the
// object of a row RLS let the key write (evidence.ts storageCallerOf).
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import {
  type Attachment,
  attachmentCreateSchema,
  attachmentSchema,
  type AttachmentUpload,
  attachmentUploadSchema,
  type AttachmentUrl,
  attachmentUrlSchema,
} from '../_shared/schemas/attachments.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
import { canFillInspection, INSPECTION_FILLERS } from '../_shared/schemas/inspections.ts';
import { requireRole, userIdOf } from './access.ts';
import {
  checkUploadedPhoto,
  photoFieldsOf,
  photoPath,
  type PhotoRow,
  removePhoto,
  requireAcceptablePhoto,
  signDownload,
  signUpload,
  storageCallerOf,
} from './evidence.ts';

const inspectionParams = z.strictObject({ org: idSchema, id: idSchema });
const attachmentParams = z.strictObject({ org: idSchema, id: idSchema, att: idSchema });

/** An attachments row as postgres.js returns it. */
export interface AttachmentRow extends PhotoRow {
  org_id: string;
  inspection_id: string;
  item_key: string;
}

/** The API's Attachment of a row; also the `attachments` of an inspection's detail. */
export function attachmentOf(row: AttachmentRow): Attachment {
  return { ...photoFieldsOf(row), inspection_id: row.inspection_id, item_key: row.item_key };
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
async function requireFiller(tx: Tx, userId: string | null, orgId: string, inspectionId: string): Promise<InspectionAccess> {
  const role = await requireRole(tx, orgId);
  const [inspection] = await tx<{ status: string; status_label: string; assignee_id: string | null }[]>`
    select status, private.inspection_status_label(status) as status_label, assignee_id
    from public.inspections where org_id = ${orgId} and id = ${inspectionId}
  `;
  if (!inspection) throw ApiError.notFound('inspection');
  if (!(INSPECTION_FILLERS as readonly Role[]).includes(role)) throw ApiError.forbidden();
  if (!canFillInspection(role, userId, inspection)) throw ApiError.forbidden('This inspection is assigned to someone else.');
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

// --- routes ----------------------------------------------------------------------------------

export const createAttachment = route({
  method: 'POST',
  response: attachmentUploadSchema,
  path: '/orgs/:org/inspections/:id/attachments',
  params: inspectionParams,
  body: attachmentCreateSchema,
  status: 201,
  // Storage must see the committed row when it checks the caller may upload to its path.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, body, db }): Promise<AttachmentUpload> => {
    const userId = userIdOf(principal);
    const row = await db(async (tx) => {
      const access = await requireFiller(tx, userId, params.org, params.id);
      const contentType = requireAcceptablePhoto(body);
      requireInProgress(access);
      const path = photoPath(`${params.org}/${params.id}/${body.item_key}`, contentType);
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
    try {
      return { attachment: attachmentOf(row), upload: await signUpload(storageCallerOf(req, principal), row.object_path) };
    } catch (error) {
      await db((tx) => tx`delete from public.attachments where id = ${row.id}`);
      throw error;
    }
  },
});

export const confirmAttachment = route({
  method: 'POST',
  response: attachmentSchema,
  path: '/orgs/:org/inspections/:id/attachments/:att/confirm',
  params: attachmentParams,
  // Storage is read between the checks and the update; no transaction is held open meanwhile.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, db }): Promise<Attachment> => {
    const userId = userIdOf(principal);
    const row = await db(async (tx) => {
      const access = await requireFiller(tx, userId, params.org, params.id);
      const found = await readAttachment(tx, params);
      if (found.confirmed_at === null) requireInProgress(access);
      return found;
    });
    if (row.confirmed_at !== null) return attachmentOf(row);

    await checkUploadedPhoto(storageCallerOf(req, principal), db, 'attachments', row);

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
  response: attachmentUrlSchema,
  path: '/orgs/:org/inspections/:id/attachments/:att/url',
  params: attachmentParams,
  handler: async ({ req, principal, params, db }): Promise<AttachmentUrl> => {
    const row = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await readAttachment(tx, params);
    });
    // A pending photo may not be there yet, and is not evidence until it was checked.
    if (row.confirmed_at === null) throw ApiError.notFound('photo');
    return await signDownload(storageCallerOf(req, principal), row.object_path);
  },
});

export const deleteAttachment = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/inspections/:id/attachments/:att',
  params: attachmentParams,
  handler: async ({ req, principal, params, db }): Promise<undefined> => {
    const userId = userIdOf(principal);
    await removePhoto(storageCallerOf(req, principal), db, 'attachments', async (tx) => {
      const access = await requireFiller(tx, userId, params.org, params.id);
      const row = await readAttachment(tx, params);
      requireInProgress(access);
      return row;
    });
    return undefined;
  },
});
