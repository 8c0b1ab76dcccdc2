// Inspections (`/orgs/{org}/inspections`): one run of a pinned template version at a site, from
// scheduled to approved (docs/product.md §4). The database enforces every move and repeats every rule
// (public.inspection_transitions, docs/inspections.md); these schemas give callers field errors.
import { z } from 'zod';
import { idSchema, nameSchema, optionalTextSchema, pageQuerySchema, searchQuerySchema } from './common.ts';
import { latitudeSchema, longitudeSchema } from './sites.ts';
import { answerSchema } from './answers.ts';
import { attachmentSchema } from './attachments.ts';
import { keySchema, templateVersionSchema } from './templates.ts';
import { isCalendarDate } from './template-items.ts';
import { INSPECTION_STATUSES, type InspectionStatus } from './inspection-states.ts';

// Statuses and their labels have no zod: the web's dashboard and lists read them on first load.
export * from './inspection-states.ts';

export const REVIEW_NOTE_MAX_LENGTH = 2000;
export const INSPECTION_EXTERNAL_REF_MAX_LENGTH = 255;

/** An ISO 8601 date-time with an offset or Z, as `due_at` and `updated_since` take it. */
export const dateTimeSchema = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:\d\d)$/, { error: message })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: message })
    .transform((value) => new Date(value).toISOString());

/**
 * A local day, `YYYY-MM-DD`: the lists' `…_day_from` / `…_day_to` filters take days on each site's
 * own calendar (sites.timezone), both included, as analytics counts them (docs/analytics.md), so a
 * figure there and the list it links to select the same rows.
 */
export const localDaySchema = z
  .string({ error: 'Enter a date as YYYY-MM-DD.' })
  .refine(isCalendarDate, { error: 'Enter a date as YYYY-MM-DD.' });

const dueAtSchema = dateTimeSchema('Enter a date and time, e.g. 2026-12-01T09:00:00Z.').nullable();

const scheduleFields = {
  title: nameSchema('a title').nullable(),
  assignee_id: idSchema.nullable(),
  due_at: dueAtSchema,
  external_ref: optionalTextSchema(INSPECTION_EXTERNAL_REF_MAX_LENGTH),
};

export const inspectionCreateSchema = z.strictObject({
  site_id: idSchema,
  template_id: idSchema,
  title: scheduleFields.title.optional(),
  assignee_id: scheduleFields.assignee_id.optional(),
  due_at: scheduleFields.due_at.optional(),
  external_ref: scheduleFields.external_ref.optional(),
});

export const inspectionUpdateSchema = z
  .strictObject({
    // A title cannot be cleared: every inspection has one.
    title: nameSchema('a title').optional(),
    assignee_id: scheduleFields.assignee_id.optional(),
    due_at: scheduleFields.due_at.optional(),
    external_ref: scheduleFields.external_ref.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

/** Where the browser says the inspector is; all three null (or absent) when it gives no location. */
export const inspectionStartSchema = z
  .strictObject({
    latitude: latitudeSchema.nullable().optional(),
    longitude: longitudeSchema.nullable().optional(),
    accuracy_m: z
      .number({ error: 'Enter the accuracy in metres.' })
      .min(0, { error: 'Enter the accuracy in metres.' })
      .max(1_000_000, { error: 'Enter the accuracy in metres.' })
      .nullable()
      .optional(),
  })
  .superRefine((value, ctx) => {
    const given = (v: unknown) => v !== undefined && v !== null;
    if (given(value.latitude) && !given(value.longitude)) ctx.addIssue({ code: 'custom', path: ['longitude'], message: 'Enter the longitude too.' });
    if (given(value.longitude) && !given(value.latitude)) ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'Enter the latitude too.' });
    if (given(value.accuracy_m) && !given(value.latitude) && !given(value.longitude)) {
      ctx.addIssue({ code: 'custom', path: ['accuracy_m'], message: 'Send the accuracy with a position.' });
    }
  });

export const REVIEW_DECISIONS = ['approve', 'request_changes'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const inspectionReviewSchema = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS, { error: 'Choose approve or request_changes.' }),
  note: optionalTextSchema(REVIEW_NOTE_MAX_LENGTH).optional(),
});

/** `?status=submitted` or `?status=scheduled,in_progress`. */
const statusListSchema = z
  .string()
  .transform((value, ctx) => {
    const statuses = [...new Set(value.split(',').map((s) => s.trim()))];
    if (statuses.length === 0 || statuses.some((s) => !(INSPECTION_STATUSES as readonly string[]).includes(s))) {
      ctx.addIssue({ code: 'custom', message: `Use one or more of ${INSPECTION_STATUSES.join(', ')}, separated by commas.` });
      return z.NEVER;
    }
    return statuses as InspectionStatus[];
  });

export const inspectionListQuerySchema = pageQuerySchema.extend({
  /** Title or site name contains this (case-insensitive). */
  q: searchQuerySchema,
  status: statusListSchema.optional(),
  site_id: idSchema.optional(),
  /** Inspections of sites in this group or one of its subgroups (docs/site-groups.md). */
  site_group_id: idSchema.optional(),
  /** A member's id, or `none` for the unassigned ones (anyone who may answer can claim them). */
  assignee_id: z.union([idSchema, z.literal('none')], { error: 'Use a member id, or none for unassigned inspections.' }).optional(),
  overdue: z.enum(['true', 'false'], { error: 'Use overdue=true or false.' }).transform((v) => v === 'true').optional(),
  updated_since: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
  /** The occurrences of one schedule (docs/schedules.md). */
  schedule_id: idSchema.optional(),
  /** Occurrences due and never submitted (true), or everything else (false). */
  missed: z.enum(['true', 'false'], { error: 'Use missed=true or false.' }).transform((v) => v === 'true').optional(),
  /**
   * A schedule's occurrences by how they went (compliance's figures, docs/schedules.md): first
   * submitted by the due time, after it, or due and never submitted (as missed=true).
   */
  outcome: z.enum(['on_time', 'late', 'missed'], { error: 'Use outcome=on_time, late or missed.' }).optional(),
  /** Due from this time (included) and before that one (excluded): the dashboard's "this week". */
  due_from: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
  due_to: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
  /** Due before this instant (an inspection without a due date never is): the upcoming work a device fetches ahead. */
  due_before: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
  // Analytics' figures as list filters (docs/analytics.md, "Screens"): each chart links to these.
  /** Inspections of one template (any version). */
  template_id: idSchema.optional(),
  /** Last submitted on this local day at their site or later (YYYY-MM-DD). */
  submitted_day_from: localDaySchema.optional(),
  /** Last submitted on this local day at their site or earlier (YYYY-MM-DD). */
  submitted_day_to: localDaySchema.optional(),
  /** Due on this local day at their site or later (YYYY-MM-DD). */
  due_day_from: localDaySchema.optional(),
  /** Due on this local day at their site or earlier (YYYY-MM-DD). */
  due_day_to: localDaySchema.optional(),
  /** Inspections whose answer to this item (its key) failed; an item the rules hid never counts. */
  failed_item: keySchema.optional(),
});

export type InspectionCreate = z.infer<typeof inspectionCreateSchema>;
export type InspectionUpdate = z.infer<typeof inspectionUpdateSchema>;
export type InspectionStart = z.infer<typeof inspectionStartSchema>;
export type InspectionReview = z.infer<typeof inspectionReviewSchema>;
export type InspectionListQuery = z.infer<typeof inspectionListQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const inspectionStatusSchema = z.enum(INSPECTION_STATUSES).meta({ id: 'InspectionStatus' });

export const inspectionSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  site_id: z.string(),
  site_name: z.string(),
  site_timezone: z.string().describe("The site's IANA time zone: due dates read in it."),
  template_id: z.string(),
  template_version: z.number(),
  template_name: z.string(),
  title: z.string(),
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  due_at: z.string().nullable(),
  status: inspectionStatusSchema,
  overdue: z.boolean().describe('Derived: due_at has passed while the inspection is scheduled or in progress.'),
  score: z.number(),
  max_score: z.number(),
  failed_count: z.number(),
  item_count: z.number().describe(
    'Items of the pinned version that show for the current answers (its visibility rules hide the others), and how many of those have an answer (a value, or a confirmed photo).',
  ),
  answered_count: z.number(),
  hidden_item_keys: z.array(z.string()).describe(
    "Items the template's rules hide for the current answers, in definition order: not required, not scored, no action. Their answers, if any were given while they showed, are kept but count for nothing while hidden.",
  ),
  started_at: z.string().nullable(),
  started_by: z.string().nullable(),
  start_latitude: z.number().nullable(),
  start_longitude: z.number().nullable(),
  start_accuracy_m: z.number().nullable(),
  start_distance_m: z.number().nullable().describe('Metres from the start position to the site, rounded; null when either is unknown.'),
  start_outside_geofence: z.boolean().nullable(),
  submitted_at: z.string().nullable(),
  submitted_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  review_note: z.string().nullable(),
  canceled_at: z.string().nullable(),
  canceled_reason: z.string().nullable().describe('Why the schedule canceled it (schedule paused, deleted or changed, site archived); null when a person did.'),
  schedule_id: z.string().nullable().describe('The schedule whose occurrence this is; null for one scheduled by hand.'),
  occurrence_at: z.string().nullable().describe('When the occurrence starts; null for one scheduled by hand.'),
  first_submitted_at: z.string().nullable().describe('The first submission: done on time when not after due_at, late otherwise.'),
  missed: z.boolean().describe("Derived: a schedule's occurrence, not canceled, due and never submitted. It can still be started."),
  external_ref: z.string().nullable(),
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'Inspection' });

export const inspectionAnswerSchema = answerSchema.meta({
  id: 'InspectionAnswer',
  description: 'An answer as the detail and the answers route return it.',
});

export const inspectionAttachmentSchema = attachmentSchema.meta({
  id: 'InspectionAttachment',
  description: 'A photo as the detail and the attachments routes return it.',
});

export const inspectionDetailSchema = inspectionSchema.extend({
  template: templateVersionSchema,
  answers: z.array(inspectionAnswerSchema),
  attachments: z.array(inspectionAttachmentSchema),
}).meta({ id: 'InspectionDetail' });

export type Inspection = z.output<typeof inspectionSchema>;
export type InspectionAnswer = z.output<typeof inspectionAnswerSchema>;
export type InspectionAttachment = z.output<typeof inspectionAttachmentSchema>;
export type InspectionDetail = z.output<typeof inspectionDetailSchema>;
