// Inspections (`/orgs/{org}/inspections`): one run of a pinned template version at a site, from
// scheduled to approved (docs/product.md §4). The database enforces every move and repeats every rule
// (public.inspection_transitions, docs/inspections.md); these schemas give callers field errors.
import { z } from 'zod';
import { idSchema, nameSchema, optionalTextSchema, pageQuerySchema, searchQuerySchema } from './common.ts';
import { latitudeSchema, longitudeSchema } from './sites.ts';
import type { Answer } from './answers.ts';
import type { Attachment } from './attachments.ts';
import type { TemplateVersion } from './templates.ts';
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
  assignee_id: idSchema.optional(),
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
});

export type InspectionCreate = z.infer<typeof inspectionCreateSchema>;
export type InspectionUpdate = z.infer<typeof inspectionUpdateSchema>;
export type InspectionStart = z.infer<typeof inspectionStartSchema>;
export type InspectionReview = z.infer<typeof inspectionReviewSchema>;
export type InspectionListQuery = z.infer<typeof inspectionListQuerySchema>;

export interface Inspection {
  id: string;
  org_id: string;
  site_id: string;
  site_name: string;
  /** The site's IANA time zone: due dates read in it. */
  site_timezone: string;
  template_id: string;
  template_version: number;
  template_name: string;
  title: string;
  assignee_id: string | null;
  assignee_name: string | null;
  due_at: string | null;
  status: InspectionStatus;
  /** Derived: due_at has passed while the inspection is scheduled or in progress. */
  overdue: boolean;
  score: number;
  max_score: number;
  failed_count: number;
  /**
   * Items of the pinned version that show for the current answers (its visibility rules hide
   * the others), and how many of those have an answer (a value, or a confirmed photo).
   */
  item_count: number;
  answered_count: number;
  /**
   * Items the template's rules hide for the current answers, in definition order: not required,
   * not scored, no action. Their answers, if any were given while they showed, are kept but
   * count for nothing while hidden.
   */
  hidden_item_keys: string[];
  started_at: string | null;
  started_by: string | null;
  start_latitude: number | null;
  start_longitude: number | null;
  start_accuracy_m: number | null;
  /** Metres from the start position to the site, rounded; null when either is unknown. */
  start_distance_m: number | null;
  start_outside_geofence: boolean | null;
  submitted_at: string | null;
  submitted_by: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_note: string | null;
  canceled_at: string | null;
  /** Why the schedule canceled it (schedule paused, deleted or changed, site archived); null when a person did. */
  canceled_reason: string | null;
  /** The schedule whose occurrence this is, and when the occurrence starts; both null for one scheduled by hand. */
  schedule_id: string | null;
  occurrence_at: string | null;
  /** The first submission: done on time when not after due_at, late otherwise. */
  first_submitted_at: string | null;
  /** Derived: a schedule's occurrence, not canceled, due and never submitted. It can still be started. */
  missed: boolean;
  external_ref: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** An answer as the detail and the answers route return it. */
export type InspectionAnswer = Answer;

/** A photo as the detail and the attachments routes return it. */
export type InspectionAttachment = Attachment;

export interface InspectionDetail extends Inspection {
  template: TemplateVersion;
  answers: InspectionAnswer[];
  attachments: InspectionAttachment[];
}
