// Corrective actions (`/orgs/{org}/actions`): a problem at a site, assigned to be fixed, tracked
// open → in progress → resolved → verified (docs/product.md §3, §4). The database enforces every move
// and repeats every rule (public.action_transitions, docs/actions.md); these schemas give callers
// field errors, and the web validates its forms with the same code.
import { z } from 'zod';
import { idSchema, optionalTextSchema, pageQuerySchema } from './common.ts';
import { photoCheckInFields, photoFields, photoUploadSchema } from './attachments.ts';
import { dateTimeSchema, localDaySchema } from './inspections.ts';
import { KEY_PATTERN } from './templates.ts';
import {
  ACTION_DESCRIPTION_MAX_LENGTH,
  ACTION_NOTE_MAX_LENGTH,
  ACTION_PRIORITIES,
  ACTION_STATUSES,
  ACTION_TITLE_MAX_LENGTH,
} from './action-states.ts';

// Statuses, priorities, labels and who may do what have no zod: the run page and the dashboard
// read them on first load.
export * from './action-states.ts';

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
  /** Actions at sites in this group or one of its subgroups (docs/site-groups.md). */
  site_group_id: idSchema.optional(),
  inspection_id: idSchema.optional(),
  overdue: z.enum(['true', 'false'], { error: 'Use overdue=true or false.' }).transform((v) => v === 'true').optional(),
  updated_since: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
  // Analytics' figures as list filters (docs/analytics.md, "Screens"): local days at each action's
  // site (YYYY-MM-DD), both included, as analytics counts them.
  /** Actions from inspections of one template. */
  template_id: idSchema.optional(),
  opened_day_from: localDaySchema.optional(),
  opened_day_to: localDaySchema.optional(),
  resolved_day_from: localDaySchema.optional(),
  resolved_day_to: localDaySchema.optional(),
  verified_day_from: localDaySchema.optional(),
  verified_day_to: localDaySchema.optional(),
  due_day_from: localDaySchema.optional(),
  due_day_to: localDaySchema.optional(),
  /**
   * Whose due time passed without their being resolved by it (resolved late, or not yet): what
   * analytics counts as overdue in the period of the due day. `overdue=true` is the narrower "open
   * and past due now".
   */
  missed_due: z.enum(['true', 'false'], { error: 'Use missed_due=true or false.' }).transform((v) => v === 'true').optional(),
});

/** `POST …/actions/{id}/attachments`: as for inspection photos, type and size have their own errors. */
export const actionAttachmentCreateSchema = z.strictObject(photoCheckInFields);

export type ActionCreate = z.infer<typeof actionCreateSchema>;
export type ActionUpdate = z.infer<typeof actionUpdateSchema>;
export type ActionTransition = z.infer<typeof actionTransitionSchema>;
export type ActionListQuery = z.infer<typeof actionListQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const actionStatusSchema = z.enum(ACTION_STATUSES).meta({ id: 'ActionStatus' });
export const actionPrioritySchema = z.enum(ACTION_PRIORITIES).meta({ id: 'ActionPriority' });

export const actionSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  site_id: z.string(),
  site_name: z.string(),
  site_timezone: z.string().describe("The site's IANA time zone: the due date reads in it."),
  inspection_id: z.string().nullable(),
  inspection_title: z.string().nullable(),
  item_key: z.string().nullable(),
  item_label: z.string().nullable().describe("The item's label in the inspection's template version."),
  origin: z.enum(['submit', 'manual']).describe(
    "'submit': opened by submitting the inspection with the item failed; 'manual': by a person.",
  ),
  title: z.string(),
  description: z.string().nullable(),
  priority: actionPrioritySchema,
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  due_at: z.string(),
  status: actionStatusSchema,
  overdue: z.boolean().describe('Derived: due_at has passed while the action is open or in progress.'),
  resolution_note: z.string().nullable(),
  resolved_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
  verified_at: z.string().nullable(),
  verified_by: z.string().nullable(),
  canceled_at: z.string().nullable(),
  item_passed_at: z.string().nullable().describe(
    'A later submission of the inspection passed the item ("item now passes"); null while it fails.',
  ),
  version: z.number(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'Action' });

export const actionEventKindSchema = z.enum(['opened', 'status_changed', 'assigned', 'item_passed', 'item_failed_again'])
  .meta({ id: 'ActionEventKind' });

export const actionEventSchema = z.object({
  id: z.number(),
  kind: actionEventKindSchema,
  from_status: actionStatusSchema.nullable(),
  to_status: actionStatusSchema.nullable(),
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  note: z.string().nullable(),
  actor_kind: z.enum(['user', 'api_key', 'system']),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  at: z.string(),
}).meta({ id: 'ActionEvent' });

export const actionAttachmentSchema = z.object({ ...photoFields, action_id: z.string() }).meta({ id: 'ActionAttachment' });

export const actionMoveSchema = z.object({
  to: actionStatusSchema,
  verb: z.string(),
  note_message: z.string().nullable().describe('What the note is asked for with, when the move needs one.'),
}).meta({ id: 'ActionMove', description: "A move the caller may make now, from the database's table of moves." });

export const actionDetailSchema = actionSchema.extend({
  events: z.array(actionEventSchema),
  attachments: z.array(actionAttachmentSchema),
  moves: z.array(actionMoveSchema).describe('The moves this caller may make from the current status (no others are shown).'),
}).meta({ id: 'ActionDetail' });

export const actionAttachmentUploadSchema = z.object({ attachment: actionAttachmentSchema, upload: photoUploadSchema }).meta({
  id: 'ActionAttachmentUpload',
  description: '`POST …/actions/{id}/attachments`: the photo checked in, and where to upload it.',
});

export type Action = z.output<typeof actionSchema>;
export type ActionEventKind = z.output<typeof actionEventKindSchema>;
export type ActionEvent = z.output<typeof actionEventSchema>;
export type ActionAttachment = z.output<typeof actionAttachmentSchema>;
export type ActionMove = z.output<typeof actionMoveSchema>;
export type ActionDetail = z.output<typeof actionDetailSchema>;
export type ActionAttachmentUpload = z.output<typeof actionAttachmentUploadSchema>;
