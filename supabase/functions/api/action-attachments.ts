// Evidence of a fix: photos on a corrective action (`/orgs/{org}/actions/{id}/attachments`), in
// bucket `evidence` at `<org>/actions/<action>/<uuid>.<ext>` — the routes of evidence-routes.ts for
// table public.action_attachments, the same steps and checks as inspection photos. Who may: whoever
// works the action, while it is open or in progress (public.action_attachments in
// supabase/schema.sql holds the same rules).
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import {
  type ActionAttachment,
  actionAttachmentCreateSchema,
  actionAttachmentSchema,
  actionAttachmentUploadSchema,
  actionPhotosEditable,
  type ActionStatus,
  ACTION_WORKERS,
  canWorkAction,
} from '../_shared/schemas/actions.ts';
import type { Role } from '../_shared/schemas/common.ts';
import { requireRole } from './access.ts';
import { evidenceRoutes } from './evidence-routes.ts';
import { photoFieldsOf, type PhotoRow } from './evidence.ts';

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
 * organization's action, 403 for viewers and for inspectors it is not assigned to. Photos change
 * while the action is open or in progress: "This action is resolved, so it can't be changed."
 */
async function requireWorker(tx: Tx, userId: string | null, orgId: string, actionId: string): Promise<() => void> {
  const role = await requireRole(tx, orgId);
  const [action] = await tx<{ status: ActionStatus; assignee_id: string | null }[]>`
    select status, assignee_id from public.actions where org_id = ${orgId} and id = ${actionId}
  `;
  if (!action) throw ApiError.notFound('action');
  if (!(ACTION_WORKERS as readonly Role[]).includes(role)) throw ApiError.forbidden();
  if (!canWorkAction(role, userId, action)) throw ApiError.forbidden('This action is assigned to someone else.');
  return () => {
    if (!actionPhotosEditable(action.status)) throw ApiError.invalidTransition(action.status.replace('_', ' '), 'changed', 'action');
  };
}

export const {
  create: createActionAttachment,
  confirm: confirmActionAttachment,
  url: getActionAttachmentUrl,
  remove: deleteActionAttachment,
} = evidenceRoutes({
  table: 'action_attachments',
  parent: { path: 'actions', column: 'action_id' },
  body: actionAttachmentCreateSchema,
  answer: actionAttachmentSchema,
  upload: actionAttachmentUploadSchema,
  answerOf: actionAttachmentOf,
  requireChanger: requireWorker,
  placeOf: (params) => ({ folder: `${params.org}/actions/${params.id}`, columns: {} }),
});
