// An action's statuses, priorities, labels and who may work it, without zod (actions.ts has the
// schemas and re-exports these).
import type { Action } from './actions.ts';
import type { Role } from './roles.ts';

export const ACTION_STATUSES = ['open', 'in_progress', 'resolved', 'verified', 'canceled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const ACTION_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ActionPriority = (typeof ACTION_PRIORITIES)[number];

export const ACTION_TITLE_MAX_LENGTH = 200;
export const ACTION_DESCRIPTION_MAX_LENGTH = 4000;
export const ACTION_NOTE_MAX_LENGTH = 2000;
/** Photos per action (as per inspection item, docs/product.md §9). */
export const MAX_ACTION_PHOTOS = 10;

/** How a status reads in the interface. */
export const ACTION_STATUS_LABELS: Record<ActionStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  verified: 'Verified',
  canceled: 'Canceled',
};

export const ACTION_PRIORITY_LABELS: Record<ActionPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};

/** Days a new action has when no due date is given; the database applies the same table. */
export const DEFAULT_DUE_DAYS: Record<ActionPriority, number> = { critical: 1, high: 3, medium: 7, low: 30 };

/** Statuses in which an action still needs work (open, in progress) — "open actions" on the dashboard. */
export const OPEN_ACTION_STATUSES = ['open', 'in_progress'] as const satisfies readonly ActionStatus[];

/** Owners, admins and managers edit, reassign, verify, reopen and cancel (docs/product.md §6). */
export const ACTION_MANAGERS = ['owner', 'admin', 'manager'] as const satisfies readonly Role[];
/** Who may open and work actions: managers on every action, inspectors on those assigned to them. */
export const ACTION_WORKERS = ['owner', 'admin', 'manager', 'inspector'] as const satisfies readonly Role[];

export function canManageActions(role: Role): boolean {
  return (ACTION_MANAGERS as readonly Role[]).includes(role);
}

export function canOpenActions(role: Role): boolean {
  return (ACTION_WORKERS as readonly Role[]).includes(role);
}

/** Start, resolve and add photos: managers on any action, inspectors on those assigned to them. */
export function canWorkAction(role: Role, userId: string | null, action: Pick<Action, 'assignee_id'>): boolean {
  // An API key (no user) is nobody's assignee, not the assignee of an unassigned action.
  return canManageActions(role) || (role === 'inspector' && userId !== null && action.assignee_id === userId);
}

/** Photos change while an action is open or in progress (once resolved, they are what the verifier judges). */
export function actionPhotosEditable(status: ActionStatus): boolean {
  return status === 'open' || status === 'in_progress';
}
