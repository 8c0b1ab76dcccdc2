// Corrective actions (`/orgs/{org}/actions`): a problem at a site, assigned to be fixed, tracked
// open → in progress → resolved → verified (PRODUCT.md §3, §4). The database enforces every move
// and repeats every rule (public.action_transitions, docs/actions.md); these schemas give callers
// field errors, and the web validates its forms with the same code.
import { z } from 'zod';
import { idSchema, optionalTextSchema, pageQuerySchema, type Role } from './common.ts';
import type { PhotoType } from './attachments.ts';
import { dateTimeSchema } from './inspections.ts';
import { KEY_PATTERN } from './templates.ts';

export const ACTION_STATUSES = ['open', 'in_progress', 'resolved', 'verified', 'canceled'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const ACTION_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ActionPriority = (typeof ACTION_PRIORITIES)[number];

export const ACTION_TITLE_MAX_LENGTH = 200;
export const ACTION_DESCRIPTION_MAX_LENGTH = 4000;
export const ACTION_NOTE_MAX_LENGTH = 2000;
/** Photos per action (as per inspection item, PRODUCT.md §9). */
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

const titleSchema = z
  .string({ error: 'Enter a title.' })
  .trim()
  .min(1, { error: 'Enter a title.' })
  .max(ACTION_TITLE_MAX_LENGTH, { error: `Use at most ${ACTION_TITLE_MAX_LENGTH} characters.` })
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: 'Remove the control characters.' });

const prioritySchema = z.enum(ACTION_PRIORITIES, { error: 'Choose low, medium, high or critical.' });
const dueAtSchema = dateTimeSchema('Enter a due date and time, e.g. 2026-12-01T17:00:00Z.');

export const actionCreateSchema = z
  .strictObject({
    title: titleSchema,
    description: optionalTextSchema(ACTION_DESCRIPTION_MAX_LENGTH).optional(),
    priority: prioritySchema.optional(),
    /** Required unless an inspection is named: the action is at the inspection's site then. */
    site_id: idSchema.optional(),
    inspection_id: idSchema.optional(),
    item_key: z.string({ error: 'Choose an item.' }).regex(KEY_PATTERN, { error: 'Choose an item.' }).optional(),
    assignee_id: idSchema.nullable().optional(),
    /** When absent, the priority's default (DEFAULT_DUE_DAYS). */
    due_at: dueAtSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.site_id && !value.inspection_id) ctx.addIssue({ code: 'custom', path: ['site_id'], message: 'Choose a site.' });
    if (value.item_key && !value.inspection_id) {
      ctx.addIssue({ code: 'custom', path: ['inspection_id'], message: 'Name the inspection the item belongs to.' });
    }
  });

export const actionUpdateSchema = z
  .strictObject({
    title: titleSchema.optional(),
    description: optionalTextSchema(ACTION_DESCRIPTION_MAX_LENGTH).optional(),
    priority: prioritySchema.optional(),
    assignee_id: idSchema.nullable().optional(),
    // Every action keeps a deadline: it can move, not go away.
    due_at: dueAtSchema.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

export const actionTransitionSchema = z.strictObject({
  to: z.enum(ACTION_STATUSES, { error: `Choose one of ${ACTION_STATUSES.join(', ')}.` }),
  note: optionalTextSchema(ACTION_NOTE_MAX_LENGTH).optional(),
});

/** `?status=open,in_progress`, `?priority=high,critical`: one or more values of a list, by commas. */
function listOf<const T extends readonly string[]>(values: T) {
  return z.string().transform((value, ctx) => {
    const chosen = [...new Set(value.split(',').map((s) => s.trim()))];
    if (chosen.length === 0 || chosen.some((s) => !(values as readonly string[]).includes(s))) {
      ctx.addIssue({ code: 'custom', message: `Use one or more of ${values.join(', ')}, separated by commas.` });
      return z.NEVER;
    }
    return chosen as T[number][];
  });
}

export const actionListQuerySchema = pageQuerySchema.extend({
  status: listOf(ACTION_STATUSES).optional(),
  priority: listOf(ACTION_PRIORITIES).optional(),
  assignee_id: idSchema.optional(),
  site_id: idSchema.optional(),
  inspection_id: idSchema.optional(),
  overdue: z.enum(['true', 'false'], { error: 'Use overdue=true or false.' }).transform((v) => v === 'true').optional(),
  updated_since: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
});

/** `POST …/actions/{id}/attachments`: as for inspection photos, type and size have their own errors. */
export const actionAttachmentCreateSchema = z.strictObject({
  content_type: z.string({ error: 'Give the photo type.' }).trim().toLowerCase().min(1, { error: 'Give the photo type.' }).max(255),
  byte_size: z
    .number({ error: 'Give the photo size in bytes.' })
    .int({ error: 'Give the photo size in bytes.' })
    .min(1, { error: 'The photo is empty.' }),
});

export type ActionCreate = z.infer<typeof actionCreateSchema>;
export type ActionUpdate = z.infer<typeof actionUpdateSchema>;
export type ActionTransition = z.infer<typeof actionTransitionSchema>;
export type ActionListQuery = z.infer<typeof actionListQuerySchema>;

export interface Action {
  id: string;
  org_id: string;
  site_id: string;
  site_name: string;
  /** The site's IANA time zone: the due date reads in it. */
  site_timezone: string;
  inspection_id: string | null;
  inspection_title: string | null;
  item_key: string | null;
  /** The item's label in the inspection's template version. */
  item_label: string | null;
  /** 'submit': opened by submitting the inspection with the item failed; 'manual': by a person. */
  origin: 'submit' | 'manual';
  title: string;
  description: string | null;
  priority: ActionPriority;
  assignee_id: string | null;
  assignee_name: string | null;
  due_at: string;
  status: ActionStatus;
  /** Derived: due_at has passed while the action is open or in progress. */
  overdue: boolean;
  resolution_note: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  verified_at: string | null;
  verified_by: string | null;
  canceled_at: string | null;
  /** A later submission of the inspection passed the item ("item now passes"); null while it fails. */
  item_passed_at: string | null;
  version: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type ActionEventKind = 'opened' | 'status_changed' | 'assigned' | 'item_passed' | 'item_failed_again';

export interface ActionEvent {
  id: number;
  kind: ActionEventKind;
  from_status: ActionStatus | null;
  to_status: ActionStatus | null;
  assignee_id: string | null;
  assignee_name: string | null;
  note: string | null;
  actor_kind: 'user' | 'api_key' | 'system';
  actor_id: string | null;
  actor_name: string | null;
  at: string;
}

export interface ActionAttachment {
  id: string;
  action_id: string;
  content_type: PhotoType;
  byte_size: number;
  status: 'pending' | 'confirmed';
  uploaded_by: string | null;
  created_at: string;
  confirmed_at: string | null;
}

/** A move the caller may make now, from the database's table of moves. */
export interface ActionMove {
  to: ActionStatus;
  verb: string;
  /** What the note is asked for with, when the move needs one. */
  note_message: string | null;
}

export interface ActionDetail extends Action {
  events: ActionEvent[];
  attachments: ActionAttachment[];
  /** The moves this caller may make from the current status (no others are shown). */
  moves: ActionMove[];
}

/** Owners, admins and managers edit, reassign, verify, reopen and cancel (PRODUCT.md §6). */
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
export function canWorkAction(role: Role, userId: string, action: Pick<Action, 'assignee_id'>): boolean {
  return canManageActions(role) || (role === 'inspector' && action.assignee_id === userId);
}

/** Photos change while an action is open or in progress (once resolved, they are what the verifier judges). */
export function actionPhotosEditable(status: ActionStatus): boolean {
  return status === 'open' || status === 'in_progress';
}
