// Photo evidence on an inspection's photo items (`/orgs/{org}/inspections/{id}/attachments`): the
// routes of evidence-routes.ts for table public.attachments. Whoever may fill the inspection
// changes its photos, while it is in progress (public.attachments in supabase/schema.sql holds the
// same rules).
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { type Attachment, attachmentCreateSchema, attachmentSchema, attachmentUploadSchema } from '../_shared/schemas/attachments.ts';
import type { Role } from '../_shared/schemas/common.ts';
import { canFillInspection, INSPECTION_FILLERS } from '../_shared/schemas/inspections.ts';
import { requireRole } from './access.ts';
import { evidenceRoutes } from './evidence-routes.ts';
import { photoFieldsOf, type PhotoRow } from './evidence.ts';

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

/**
 * The caller's standing on an inspection: 404 outside the organization or for another
 * organization's inspection, 403 for viewers and for inspectors it is assigned to someone else.
 * Photos change while it is in progress: "This inspection is submitted, so it can't be changed."
 */
async function requireFiller(tx: Tx, userId: string | null, orgId: string, inspectionId: string): Promise<() => void> {
  const role = await requireRole(tx, orgId);
  const [inspection] = await tx<{ status: string; status_label: string; assignee_id: string | null }[]>`
    select status, private.inspection_status_label(status) as status_label, assignee_id
    from public.inspections where org_id = ${orgId} and id = ${inspectionId}
  `;
  if (!inspection) throw ApiError.notFound('inspection');
  if (!(INSPECTION_FILLERS as readonly Role[]).includes(role)) throw ApiError.forbidden();
  if (!canFillInspection(role, userId, inspection)) throw ApiError.forbidden('This inspection is assigned to someone else.');
  return () => {
    if (inspection.status !== 'in_progress') throw ApiError.invalidTransition(inspection.status_label, 'changed');
  };
}

export const {
  create: createAttachment,
  confirm: confirmAttachment,
  url: getAttachmentUrl,
  remove: deleteAttachment,
} = evidenceRoutes({
  table: 'attachments',
  parent: { path: 'inspections', column: 'inspection_id' },
  body: attachmentCreateSchema,
  answer: attachmentSchema,
  upload: attachmentUploadSchema,
  answerOf: attachmentOf,
  requireChanger: requireFiller,
  // `<org>/<inspection>/<item>/<uuid>.<ext>`
  placeOf: (params, body) => ({ folder: `${params.org}/${params.id}/${body.item_key}`, columns: { item_key: body.item_key } }),
});
