// Schedules (`/orgs/{org}/schedules`, `/orgs/{org}/compliance`; docs/schedules.md): a recurring
// programme of inspections. The database is the rule (public.schedules, private.recurrence_problem,
// the materialiser in supabase/schema.sql); these schemas give callers the same refusals as field
// errors. The create body is a contract other services rely on (docs/product.md §7):
// `{ template_id, site_ids, rrule, start_date, end_date, time_of_day, due_after, assignee_id,
// rotation_user_ids, title_pattern }`; more optional fields may be added, never taken away.
import { z } from 'zod';
import { CONTROL_CHARACTERS, idSchema, nameSchema, pageQuerySchema, searchQuerySchema } from './common.ts';
import { dateTimeSchema, inspectionSchema } from './inspections.ts';
import { RECURRENCE_MAX_LENGTH, recurrenceProblem } from './recurrence.ts';
import { isCalendarDate } from './template-items.ts';

export * from './recurrence.ts';

export const SITES_PER_SCHEDULE = 10_000;
export const ROTATION_MAX_PEOPLE = 100;
export const TITLE_PATTERN_MAX_LENGTH = 200;
export const DEFAULT_TITLE_PATTERN = '{template} — {site} — {date}';
/** The longest due window, and the longest span of occurrences or compliance one request reads. */
export const DUE_AFTER_MAX_DAYS = 366;
export const OCCURRENCES_MAX_DAYS = 92;
export const COMPLIANCE_MAX_DAYS = 366;
/** How far ahead occurrences become inspections (private.schedule_horizon). */
export const HORIZON_DAYS = 14;

/** The placeholders a title pattern may hold (replace resets a global pattern's position each call). */
const TITLE_PLACEHOLDER = /\{(site|date|template)\}/g;

/** Why a title pattern is refused, as private.title_pattern_problem says it, or null. */
export function titlePatternProblem(pattern: string): string | null {
  return /[{}]/.test(pattern.replace(TITLE_PLACEHOLDER, '')) ? 'Use only the placeholders {site}, {date} and {template}.' : null;
}

/** The title an occurrence gets (private.occurrence_title): the placeholders filled in, cut to 120 characters. */
export function occurrenceTitle(pattern: string, site: string, template: string, localDate: string): string {
  const filled = pattern.replace(TITLE_PLACEHOLDER, (_, name: string) => (name === 'site' ? site : name === 'template' ? template : localDate));
  return [...filled].slice(0, 120).join('').trim();
}

export const rruleSchema = z
  .string({ error: 'Enter a recurrence rule, e.g. FREQ=WEEKLY;BYDAY=MO.' })
  .max(RECURRENCE_MAX_LENGTH * 4, { error: `Use at most ${RECURRENCE_MAX_LENGTH} characters.` })
  .superRefine((rule, ctx) => {
    const problem = recurrenceProblem(rule);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((rule) => rule.toUpperCase());

/** A calendar date `YYYY-MM-DD` that exists, from 2000 to 2100 (the schedules table's range). */
export const scheduleDateSchema = z
  .string({ error: 'Enter a date as YYYY-MM-DD.' })
  .refine(isCalendarDate, { error: 'Enter a date as YYYY-MM-DD.' })
  .refine((value) => value >= '2000-01-01' && value <= '2100-12-31', { error: 'Choose a date from 2000 to 2100.' });

/** `HH:MM`, 24-hour, in each site's own time zone. */
export const timeOfDaySchema = z
  .string({ error: 'Enter a time of day as HH:MM, e.g. 08:00.' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Enter a time of day as HH:MM, e.g. 08:00.' });

const DURATION = /^P(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,6})M)?)?$/;

/** Minutes in an ISO 8601 duration of weeks, days, hours and minutes, or null when it is not one. */
export function durationMinutes(value: string): number | null {
  const match = DURATION.exec(value);
  if (!match || value === 'P' || value.endsWith('T')) return null;
  const [weeks, days, hours, minutes] = match.slice(1).map((part) => Number(part ?? 0));
  return ((weeks * 7 + days) * 24 + hours) * 60 + minutes;
}

/** The ISO 8601 duration the api answers: days, hours and minutes (P4DT9H, PT30M, P7D). */
export function isoDuration(totalMinutes: number): string {
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}`;
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/**
 * `due_after`: from an occurrence's start to its due time, as an ISO 8601 duration of weeks, days,
 * hours and minutes (P4DT9H: Monday 08:00 is due Friday 17:00, in the site's local time). Years
 * and months are refused: their length varies. The output is the canonical form (`isoDuration`).
 */
export const dueAfterSchema = z
  .string({ error: 'Enter a due window as an ISO 8601 duration, e.g. P4DT9H.' })
  .transform((value, ctx) => {
    const minutes = durationMinutes(value);
    if (minutes === null) {
      ctx.addIssue({ code: 'custom', message: 'Enter a due window as an ISO 8601 duration of weeks, days, hours and minutes, e.g. P4DT9H.' });
      return z.NEVER;
    }
    if (minutes < 1 || minutes > DUE_AFTER_MAX_DAYS * 1440) {
      ctx.addIssue({ code: 'custom', message: `Use a due window from one minute to ${DUE_AFTER_MAX_DAYS} days.` });
      return z.NEVER;
    }
    return isoDuration(minutes);
  });

export const titlePatternSchema = z
  .string({ error: 'Enter a title pattern.' })
  .trim()
  .min(1, { error: 'Enter a title pattern.' })
  .max(TITLE_PATTERN_MAX_LENGTH, { error: `Use at most ${TITLE_PATTERN_MAX_LENGTH} characters.` })
  .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'Remove the control characters.' })
  .superRefine((value, ctx) => {
    const problem = titlePatternProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const siteIdsSchema = (min: number) =>
  z
    .array(idSchema, { error: 'List the sites by id.' })
    .min(min, { error: 'Choose at least one site.' })
    .max(SITES_PER_SCHEDULE, { error: `A schedule covers at most ${SITES_PER_SCHEDULE.toLocaleString('en')} sites.` })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'List each site once.' });

const rotationSchema = z
  .array(idSchema, { error: 'List the people by id.' })
  .max(ROTATION_MAX_PEOPLE, { error: `A rotation has at most ${ROTATION_MAX_PEOPLE} people.` });

const scheduleFields = {
  name: nameSchema('a name'),
  template_id: idSchema,
  rrule: rruleSchema,
  start_date: scheduleDateSchema,
  end_date: scheduleDateSchema.nullable(),
  time_of_day: timeOfDaySchema,
  due_after: dueAfterSchema,
  assignee_id: idSchema.nullable(),
  rotation_user_ids: rotationSchema,
  title_pattern: titlePatternSchema,
};

/** One assignee or a rotation, not both; the end on or after the start. */
function consistent(value: { assignee_id?: string | null; rotation_user_ids?: string[]; start_date?: string; end_date?: string | null }, ctx: z.RefinementCtx) {
  if (value.assignee_id && value.rotation_user_ids && value.rotation_user_ids.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['rotation_user_ids'], message: 'Choose one assignee or a rotation, not both.' });
  }
  if (value.start_date && value.end_date && value.end_date < value.start_date) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End on or after the start date.' });
  }
}

export const scheduleCreateSchema = z
  .strictObject({
    name: scheduleFields.name.optional(),
    template_id: scheduleFields.template_id,
    site_ids: siteIdsSchema(1),
    rrule: scheduleFields.rrule,
    start_date: scheduleFields.start_date,
    end_date: scheduleFields.end_date.optional(),
    time_of_day: scheduleFields.time_of_day,
    due_after: scheduleFields.due_after,
    assignee_id: scheduleFields.assignee_id.optional(),
    rotation_user_ids: scheduleFields.rotation_user_ids.optional(),
    title_pattern: scheduleFields.title_pattern.optional(),
  })
  .superRefine(consistent);

/**
 * A change: any of the create fields; `site_ids` replaces the list, `add_site_ids` and
 * `remove_site_ids` change it (a body holds at most 256 KB, about 6,500 ids: larger lists are made
 * in steps). Setting an assignee clears the rotation and the other way round.
 */
export const scheduleUpdateSchema = z
  .strictObject({
    name: scheduleFields.name.optional(),
    template_id: scheduleFields.template_id.optional(),
    site_ids: siteIdsSchema(1).optional(),
    add_site_ids: siteIdsSchema(1).optional(),
    remove_site_ids: siteIdsSchema(1).optional(),
    rrule: scheduleFields.rrule.optional(),
    start_date: scheduleFields.start_date.optional(),
    end_date: scheduleFields.end_date.optional(),
    time_of_day: scheduleFields.time_of_day.optional(),
    due_after: scheduleFields.due_after.optional(),
    assignee_id: scheduleFields.assignee_id.optional(),
    rotation_user_ids: scheduleFields.rotation_user_ids.optional(),
    title_pattern: scheduleFields.title_pattern.optional(),
  })
  .superRefine(consistent)
  .superRefine((value, ctx) => {
    if (value.site_ids && (value.add_site_ids || value.remove_site_ids)) {
      ctx.addIssue({ code: 'custom', path: ['site_ids'], message: 'Send site_ids, or add_site_ids and remove_site_ids, not both.' });
    }
  })
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

export const scheduleListQuerySchema = pageQuerySchema.extend({
  /** The name contains this (case-insensitive). */
  q: searchQuerySchema,
  template_id: idSchema.optional(),
  /** Schedules that run at this site. */
  site_id: idSchema.optional(),
  paused: z.enum(['true', 'false'], { error: 'Use paused=true or false.' }).transform((v) => v === 'true').optional(),
});

const instantSchema = dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T00:00:00Z.');

/** `from` (included) and `to` (excluded), at most `maxDays` apart. */
function rangeWithin(maxDays: number) {
  return (value: { from: string; to: string }, ctx: z.RefinementCtx) => {
    const span = Date.parse(value.to) - Date.parse(value.from);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'End after the start.' });
    else if (span > maxDays * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: `Ask for at most ${maxDays} days at a time.` });
  };
}

export const occurrencesQuerySchema = pageQuerySchema
  .extend({ from: instantSchema, to: instantSchema, site_id: idSchema.optional() })
  .superRefine(rangeWithin(OCCURRENCES_MAX_DAYS));

export const COMPLIANCE_GROUPS = ['site', 'schedule', 'template'] as const;
export type ComplianceGroupBy = (typeof COMPLIANCE_GROUPS)[number];

export const complianceQuerySchema = z
  .strictObject({
    from: instantSchema,
    to: instantSchema,
    group_by: z.enum(COMPLIANCE_GROUPS, { error: 'Use group_by=site, schedule or template.' }),
    site_id: idSchema.optional(),
    /** Occurrences at sites in this group or one of its subgroups (docs/site-groups.md). */
    site_group_id: idSchema.optional(),
    schedule_id: idSchema.optional(),
    template_id: idSchema.optional(),
  })
  .superRefine(rangeWithin(COMPLIANCE_MAX_DAYS));

export type ScheduleCreate = z.infer<typeof scheduleCreateSchema>;
export type ScheduleUpdate = z.infer<typeof scheduleUpdateSchema>;
export type ComplianceQuery = z.infer<typeof complianceQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const scheduleSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  template_id: z.string(),
  template_name: z.string(),
  rrule: z.string().describe("The RRULE, upper case; DTSTART is start_date at time_of_day in each site's time zone."),
  start_date: z.string(),
  end_date: z.string().nullable(),
  time_of_day: z.string().describe('`HH:MM`, local to each site.'),
  due_after: z.string().describe("ISO 8601 duration from an occurrence's start to its due time, in days, hours and minutes."),
  assignee_id: z.string().nullable(),
  assignee_name: z.string().nullable(),
  rotation_user_ids: z.array(z.string()).describe(
    'People taking the occurrences at each site in turn (the nth occurrence to the (n-1) mod len-th); empty otherwise.',
  ),
  title_pattern: z.string(),
  site_count: z.number(),
  paused: z.boolean(),
  paused_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  next_occurrence_at: z.string().nullable().describe('The earliest occurrence made and not yet started at any of its sites, or null.'),
  version: z.number(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'Schedule', description: 'A schedule as lists show it.' });

export const scheduleSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  timezone: z.string().describe("IANA time zone: the schedule's times are local to it."),
  archived: z.boolean(),
}).meta({ id: 'ScheduleSite' });

export const scheduleDetailSchema = scheduleSchema.extend({
  sites: z.array(scheduleSiteSchema),
}).meta({ id: 'ScheduleDetail', description: 'A schedule with its sites, as the single-schedule routes answer it.' });

/**
 * Where an occurrence stands at the time of the request: `upcoming` (not made yet, or made and
 * not open), `paused` (not made, its schedule paused), `scheduled` and `in_progress` (open),
 * `done_on_time` and `done_late` (by the first submission against the due time), `missed` (due
 * and never submitted; still startable), `canceled`, `not_scheduled` (past, never made: before the
 * schedule existed or while it was paused).
 */
export const OCCURRENCE_STATES = ['upcoming', 'paused', 'scheduled', 'in_progress', 'done_on_time', 'done_late', 'missed', 'canceled', 'not_scheduled'] as const;

export const occurrenceStateSchema = z.enum(OCCURRENCE_STATES).meta({
  id: 'OccurrenceState',
  description:
    'Where an occurrence stands at the time of the request: upcoming (not made yet, or made and not open), paused (not made, its schedule paused), scheduled and in_progress (open), done_on_time and done_late (by the first submission against the due time), missed (due and never submitted; still startable), canceled, not_scheduled (past, never made: before the schedule existed or while it was paused).',
});

export const scheduleOccurrenceSchema = z.object({
  site_id: z.string(),
  site_name: z.string(),
  site_timezone: z.string(),
  occurrence_at: z.string().describe('When it starts (the window opens).'),
  due_at: z.string().describe('When it is due.'),
  local_start: z.string().describe('The local date and time it starts at its site, `YYYY-MM-DDTHH:MM`.'),
  n: z.number().nullable().describe('Its number in the rule (from 1); null for one the current rule no longer has.'),
  state: occurrenceStateSchema,
  inspection: inspectionSchema.nullable().describe('The inspection made for it, if any (a live one before one the schedule canceled).'),
}).meta({ id: 'ScheduleOccurrence' });

export const complianceFiguresSchema = z.object({
  due: z.number().describe(
    'Occurrences due in the range that can be judged: their due time has passed, or they were submitted already. Canceled ones do not count; due = on_time + late + missed.',
  ),
  on_time: z.number().describe('First submitted by the due time.'),
  late: z.number().describe('First submitted after it.'),
  missed: z.number().describe("Never submitted (the same rule as the inspections list's `missed=true`)."),
  on_time_rate: z.number().nullable().describe('on_time / due, from 0 to 1; null when nothing was due.'),
}).meta({ id: 'ComplianceFigures' });

export const complianceGroupSchema = complianceFiguresSchema.extend({
  id: z.string().describe('The site, schedule or template.'),
  name: z.string(),
}).meta({ id: 'ComplianceGroup' });

export const complianceGroupBySchema = z.enum(COMPLIANCE_GROUPS).meta({ id: 'ComplianceGroupBy' });

export const complianceSchema = z.object({
  from: z.string(),
  to: z.string(),
  group_by: complianceGroupBySchema,
  groups: z.array(complianceGroupSchema),
  total: complianceFiguresSchema,
}).meta({ id: 'Compliance' });

export type Schedule = z.output<typeof scheduleSchema>;
export type ScheduleSite = z.output<typeof scheduleSiteSchema>;
export type ScheduleDetail = z.output<typeof scheduleDetailSchema>;
export type OccurrenceState = z.output<typeof occurrenceStateSchema>;
export type ScheduleOccurrence = z.output<typeof scheduleOccurrenceSchema>;
export type ComplianceFigures = z.output<typeof complianceFiguresSchema>;
export type ComplianceGroup = z.output<typeof complianceGroupSchema>;
export type Compliance = z.output<typeof complianceSchema>;
