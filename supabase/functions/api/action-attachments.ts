// Evidence of a fix: photos on a corrective action, in bucket `evidence` at
// `<org>/actions/<action>/<uuid>.<ext>`. `POST /orgs/{org}/actions/{id}/attachments` checks one in
// and hands out a signed upload URL, `POST …/{att}/confirm` checks what arrived (size, magic
// bytes, pixels), `GET …/{att}/url` signs a download and `DELETE …/{att}` removes it — the same
// steps and checks as inspection photos (evidence.ts). Who may: whoever works the action, while it
// is open or in progress (public.action_attachments in supabase/schema.sql holds the same rules).
// Storage sees a user's own token, or for an API key the service role (evidence.ts storageCallerOf).
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import {
  ACTION_WORKERS,
  type ActionAttachment,
  actionAttachmentCreateSchema,
  actionAttachmentSchema,
  actionAttachmentUploadSchema,
  actionPhotosEditable,
  type ActionStatus,
  canWorkAction,
} from '../_shared/schemas/actions.ts';
import { type AttachmentUrl, attachmentUrlSchema } from '../_shared/schemas/attachments.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
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

const actionParams = z.strictObject({ org: idSchema, id: idSchema });
const attachmentParams = z.strictObject({ org: idSchema, id: idSchema, att: idSchema });

/** An action_attachments row as postgres.js returns it. */
export interface ActionAttachmentRow extends PhotoRow {
  org_id: string;
  action_id: string;
}

export function actionAttachmentOf(row: ActionAttachmentRow): ActionAttachment {
  return { ...photoFieldsOf(row), action_id: row.action_id };
}

/**
 * The caller's standing on an action: 404 outside the organization or for another
 * organization's action, 403 for viewers and for inspectors it is not assigned to. Early, so the
 * caller gets the right error before Storage is asked anything; SQL decides again.
 */
async function requireWorker(tx: Tx, userId: string | null, orgId: string, actionId: string): Promise<{ status: ActionStatus }> {
  const role = await requireRole(tx, orgId);
  const [action] = await tx<{ status: ActionStatus; assignee_id: string | null }[]>`
    select status, assignee_id from public.actions where org_id = ${orgId} and id = ${actionId}
  `;
  if (!action) throw ApiError.notFound('action');
  if (!(ACTION_WORKERS as readonly Role[]).includes(role)) throw ApiError.forbidden();
  if (!canWorkAction(role, userId, action)) throw ApiError.forbidden('This action is assigned to someone else.');
  return action;
}

/** Photos change while the action is open or in progress: "This action is resolved, so it can't be changed." */
function requireEditable(status: ActionStatus): void {
  if (!actionPhotosEditable(status)) throw ApiError.invalidTransition(status.replace('_', ' '), 'changed', 'action');
}

async function readAttachment(tx: Tx, params: { org: string; id: string; att: string }): Promise<ActionAttachmentRow> {
  const [row] = await tx<ActionAttachmentRow[]>`
    select * from public.action_attachments where org_id = ${params.org} and action_id = ${params.id} and id = ${params.att}
  `;
  if (!row) throw ApiError.notFound('photo');
  return row;
}

export const createActionAttachment = route({
  method: 'POST',
  response: actionAttachmentUploadSchema,
  path: '/orgs/:org/actions/:id/attachments',
  params: actionParams,
  body: actionAttachmentCreateSchema,
  status: 201,
  // Storage must see the committed row when it checks the caller may upload to its path.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, body, db }) => {
    const userId = userIdOf(principal);
    const row = await db(async (tx) => {
      const action = await requireWorker(tx, userId, params.org, params.id);
      const contentType = requireAcceptablePhoto(body);
      requireEditable(action.status);
      const [inserted] = await tx<ActionAttachmentRow[]>`
        insert into public.action_attachments ${tx({
          org_id: params.org,
          action_id: params.id,
          object_path: photoPath(`${params.org}/actions/${params.id}`, contentType),
          content_type: contentType,
          byte_size: body.byte_size,
        })}
        returning *
      `;
      return inserted;
    });
    try {
      return { attachment: actionAttachmentOf(row), upload: await signUpload(storageCallerOf(req, principal), row.object_path) };
    } catch (error) {
      await db((tx) => tx`delete from public.action_attachments where id = ${row.id}`);
      throw error;
    }
  },
});

export const confirmActionAttachment = route({
  method: 'POST',
  response: actionAttachmentSchema,
  path: '/orgs/:org/actions/:id/attachments/:att/confirm',
  params: attachmentParams,
  // Storage is read between the checks and the update; no transaction is held open meanwhile.
  commitsOwnWork: true,
  handler: async ({ req, principal, params, db }): Promise<ActionAttachment> => {
    const userId = userIdOf(principal);
    const row = await db(async (tx) => {
      const action = await requireWorker(tx, userId, params.org, params.id);
      const found = await readAttachment(tx, params);
      if (found.confirmed_at === null) requireEditable(action.status);
      return found;
    });
    if (row.confirmed_at !== null) return actionAttachmentOf(row);
    await checkUploadedPhoto(storageCallerOf(req, principal), db, 'action_attachments', row);
    return await db(async (tx) => {
      const [confirmed] = await tx<ActionAttachmentRow[]>`
        update public.action_attachments set confirmed_at = now() where id = ${row.id} returning *
      `;
      if (!confirmed) throw ApiError.forbidden();
      return actionAttachmentOf(confirmed);
    });
  },
});

export const getActionAttachmentUrl = route({
  method: 'GET',
  response: attachmentUrlSchema,
  path: '/orgs/:org/actions/:id/attachments/:att/url',
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

export const deleteActionAttachment = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/actions/:id/attachments/:att',
  params: attachmentParams,
  handler: async ({ req, principal, params, db }): Promise<undefined> => {
    const userId = userIdOf(principal);
    await removePhoto(storageCallerOf(req, principal), db, 'action_attachments', async (tx) => {
      const action = await requireWorker(tx, userId, params.org, params.id);
      const row = await readAttachment(tx, params);
      requireEditable(action.status);
      return row;
    });
    return undefined;
  },
});
