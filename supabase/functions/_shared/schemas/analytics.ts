// Analytics (`GET /orgs/{org}/analytics/{measure}` and `….csv`, issue 28; docs/analytics.md): what
// each measure takes and answers. Every measure covers the local days `from` … `to` (both included,
// each site's own calendar), at most 366 days, by ISO week (from Monday) or calendar month.
import { z } from 'zod';
import { idSchema } from './common.ts';
import { scheduleDateSchema } from './schedules.ts';

export const ANALYTICS_MEASURES = ['scores', 'on-time', 'failed-items', 'actions', 'sites'] as const;
export type AnalyticsMeasure = (typeof ANALYTICS_MEASURES)[number];

export const ANALYTICS_INTERVALS = ['week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

/** The longest range a measure covers: a year, leap day included. */
export const ANALYTICS_MAX_DAYS = 366;
/** Periods covered when `from` is not given: the period of `to` and the 11 before it. */
export const ANALYTICS_DEFAULT_PERIODS = 12;

/** Rows of `failed-items` and `sites` when `limit` is not given, and the most a caller may ask for. */
export const ANALYTICS_DEFAULT_LIMIT = 20;
export const ANALYTICS_MAX_LIMIT = 200;

const DAY_MS = 86_400_000;

/** A calendar date from 2000 to 2100, worded as the schedules' dates are. */
const analyticsDateSchema = scheduleDateSchema;

const limitSchema = z.coerce
  .number({ error: `Use a whole number from 1 to ${ANALYTICS_MAX_LIMIT}.` })
  .int({ error: `Use a whole number from 1 to ${ANALYTICS_MAX_LIMIT}.` })
  .min(1, { error: `Use a whole number from 1 to ${ANALYTICS_MAX_LIMIT}.` })
  .max(ANALYTICS_MAX_LIMIT, { error: `Use a whole number from 1 to ${ANALYTICS_MAX_LIMIT}.` })
  .default(ANALYTICS_DEFAULT_LIMIT);

/** The filters every measure takes (one set of filters serves the whole analytics page). */
const filters = {
  from: analyticsDateSchema.optional(),
  to: analyticsDateSchema.optional(),
  interval: z.enum(ANALYTICS_INTERVALS, { error: 'Use interval=week or month.' }).default('week'),
  site_group_id: idSchema.optional(),
  site_id: idSchema.optional(),
  template_id: idSchema.optional(),
};

/** `YYYY-MM-DD` of a UTC date. */
const dayText = (date: Date) => date.toISOString().slice(0, 10);
const dayOf = (text: string) => new Date(`${text}T00:00:00Z`);

/** The first day of the week (Monday) or month holding `day`. */
export function periodStart(day: string, interval: AnalyticsInterval): string {
  const date = dayOf(day);
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return dayText(new Date(date.getTime() - sinceMonday * DAY_MS));
}

/** The period `count` periods before (negative) or after the one starting on `start`. */
export function shiftPeriod(start: string, interval: AnalyticsInterval, count: number): string {
  const date = dayOf(start);
  if (interval === 'week') return dayText(new Date(date.getTime() + count * 7 * DAY_MS));
  return dayText(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + count, 1)));
}

/**
 * The range a query covers, its defaults filled in: `to` is today (UTC) unless given; `from` is the
 * start of the period 11 periods before `to`'s, unless given — twelve periods, within 366 days.
 */
export function analyticsRange(query: { from?: string; to?: string; interval: AnalyticsInterval }, today = new Date()) {
  const to = query.to ?? dayText(today);
  const from = query.from ?? shiftPeriod(periodStart(to, query.interval), query.interval, 1 - ANALYTICS_DEFAULT_PERIODS);
  return { from, to };
}

/** The days from `from` to `to`, both included. */
export function daysIn(range: { from: string; to: string }): number {
  return Math.round((dayOf(range.to).getTime() - dayOf(range.from).getTime()) / DAY_MS) + 1;
}

function withinRange(value: { from?: string; to?: string; interval: AnalyticsInterval }, ctx: z.RefinementCtx) {
  // Judged with the defaults filled in, as the measure will run it (only `to` may default to today).
  const range = analyticsRange(value);
  if (range.from > range.to) {
    ctx.addIssue({ code: 'custom', path: [value.to ? 'to' : 'from'], message: value.to ? 'End on or after the start.' : 'Start on or before today.' });
  } else if (daysIn(range) > ANALYTICS_MAX_DAYS) {
    // Only an explicit `from` can make the range too long; the error goes on `to` when both were
    // sent, else on `from` (the range then runs to today: `to` was not sent, so not wrong).
    ctx.addIssue({ code: 'custom', path: [value.to ? 'to' : 'from'], message: `Ask for at most ${ANALYTICS_MAX_DAYS} days at a time.` });
  }
}

/** `scores`, `on-time` and `actions`: a row per period. */
export const analyticsQuerySchema = z.strictObject(filters).superRefine(withinRange);

export const FAILED_ITEM_GROUPS = ['template', 'site'] as const;
export type FailedItemGroupBy = (typeof FAILED_ITEM_GROUPS)[number];

/** `failed-items`: the most failed items over the range, per template (or per site and template). */
export const failedItemsQuerySchema = z
  .strictObject({
    ...filters,
    group_by: z.enum(FAILED_ITEM_GROUPS, { error: 'Use group_by=template or site.' }).default('template'),
    limit: limitSchema,
  })
  .superRefine(withinRange);

export const SITE_ORDERS = ['score', 'on_time', 'score_change', 'on_time_change'] as const;
export type SiteOrder = (typeof SITE_ORDERS)[number];

/** `sites`: sites ranked over the range, with the change from the range of equal length before it. */
export const siteRankingQuerySchema = z
  .strictObject({
    ...filters,
    sort: z.enum(SITE_ORDERS, { error: 'Use sort=score, on_time, score_change or on_time_change.' }).default('score'),
    limit: limitSchema,
  })
  .superRefine(withinRange);

export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;
export type FailedItemsQuery = z.output<typeof failedItemsQuerySchema>;
export type SiteRankingQuery = z.output<typeof siteRankingQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

const periodStartField = z.string().describe('The first local day of the period (`YYYY-MM-DD`): a Monday, or the 1st of a month. The first and last periods may be cut by `from` and `to`.');
const rangeFields = {
  from: z.string().describe('The first local day covered (`YYYY-MM-DD`), the default filled in.'),
  to: z.string().describe('The last local day covered (`YYYY-MM-DD`), included.'),
};
const periodFields = { ...rangeFields, interval: z.enum(ANALYTICS_INTERVALS) };

export const scorePeriodSchema = z.object({
  period_start: periodStartField,
  inspections: z.number().describe('Inspections submitted or approved whose (latest) submission was in the period.'),
  scored: z.number().describe('Of those, the ones with something to score (a maximum score above 0): what average_score averages.'),
  average_score: z.number().nullable().describe('The mean of their scores in percent, 0–100 (2 decimals); null when none was scored.'),
}).meta({ id: 'AnalyticsScorePeriod' });

export const scoresSchema = z.object({ ...periodFields, data: z.array(scorePeriodSchema) }).meta({ id: 'AnalyticsScores' });

export const onTimePeriodSchema = z.object({
  period_start: periodStartField,
  due: z.number().describe("Schedules' occurrences due in the period that can be judged (due time passed, or submitted already); not canceled. due = on_time + late + missed."),
  on_time: z.number().describe('First submitted by the due time.'),
  late: z.number().describe('First submitted after it.'),
  missed: z.number().describe('Due and never submitted (compliance\'s rule, the inspections list\'s `missed=true`).'),
  on_time_rate: z.number().nullable().describe('on_time / due, from 0 to 1 (4 decimals, as compliance); null when nothing was due.'),
}).meta({ id: 'AnalyticsOnTimePeriod' });

export const onTimeSchema = z.object({ ...periodFields, data: z.array(onTimePeriodSchema) }).meta({ id: 'AnalyticsOnTime' });

export const failedItemSchema = z.object({
  template_id: z.string(),
  template_name: z.string(),
  item_key: z.string(),
  item_label: z.string().describe("The item's label in the newest version of the template that has it."),
  site_id: z.string().nullable().describe('With group_by=site: the site; null otherwise.'),
  site_name: z.string().nullable(),
  failed: z.number().describe('Answers to the item that failed, in submitted and approved inspections; hidden items never count.'),
  answered: z.number().describe('Answers to the item that passed or failed (n/a is not judged).'),
  failure_rate: z.number().describe('failed / answered, from 0 to 1 (4 decimals).'),
}).meta({ id: 'AnalyticsFailedItem' });

export const failedItemsSchema = z.object({
  ...rangeFields,
  group_by: z.enum(FAILED_ITEM_GROUPS),
  data: z.array(failedItemSchema).describe('The items that failed at least once, most failed first (then by failure rate), at most `limit`.'),
}).meta({ id: 'AnalyticsFailedItems' });

export const actionPeriodSchema = z.object({
  period_start: periodStartField,
  priority: z.enum(['low', 'medium', 'high', 'critical']).nullable().describe('The priority; null for the row of every priority together.'),
  opened: z.number().describe('Actions opened in the period (canceled ones never count).'),
  resolved: z.number().describe('Actions resolved in the period (and not reopened since).'),
  verified: z.number().describe('Actions verified in the period.'),
  overdue: z.number().describe('Actions due in the period, whose due time has passed, not resolved by it.'),
  median_hours_to_resolve: z.number().nullable().describe('Median hours from opening to resolution of the actions resolved in the period (2 decimals); null when none.'),
  median_hours_to_verify: z.number().nullable().describe('Median hours from resolution to verification of the actions verified in the period (2 decimals); null when none.'),
}).meta({ id: 'AnalyticsActionPeriod' });

export const actionsSchema = z.object({ ...periodFields, data: z.array(actionPeriodSchema) }).meta({ id: 'AnalyticsActions' });

export const siteRankSchema = z.object({
  site_id: z.string(),
  site_name: z.string(),
  inspections: z.number().describe('Inspections submitted or approved in the range.'),
  scored: z.number(),
  average_score: z.number().nullable().describe('Mean score in percent, 0–100, over the range; null when nothing was scored.'),
  previous_average_score: z.number().nullable().describe('The same over the range of equal length just before.'),
  score_change: z.number().nullable().describe('average_score − previous_average_score, in points; null when either is null.'),
  score_rank: z.number().nullable().describe('1 for the highest average score among the sites listed in full (ties share a rank); null without a score.'),
  due: z.number().describe('Occurrences due in the range (as on-time counts them).'),
  on_time: z.number().describe('Of those, first submitted by the due time: the count on_time_rate is of, exactly (the rate, rounded, cannot give it back).'),
  on_time_rate: z.number().nullable().describe('on_time / due, from 0 to 1 (4 decimals); null when nothing was due.'),
  previous_on_time_rate: z.number().nullable(),
  on_time_change: z.number().nullable().describe('on_time_rate − previous_on_time_rate; null when either is null.'),
  on_time_rank: z.number().nullable().describe('1 for the highest on-time rate (ties share a rank); null when nothing was due.'),
}).meta({ id: 'AnalyticsSiteRank' });

export const siteRankingSchema = z.object({
  ...rangeFields,
  previous_from: z.string().describe('The first day of the range before, of equal length.'),
  previous_to: z.string(),
  sort: z.enum(SITE_ORDERS),
  data: z.array(siteRankSchema).describe('Sites with a submission or a due occurrence in the range, in `sort` order, at most `limit`; ranks are over all of them.'),
}).meta({ id: 'AnalyticsSites' });

export type Scores = z.output<typeof scoresSchema>;
export type OnTime = z.output<typeof onTimeSchema>;
export type FailedItems = z.output<typeof failedItemsSchema>;
export type Actions = z.output<typeof actionsSchema>;
export type SiteRanking = z.output<typeof siteRankingSchema>;

/** The CSV columns of each measure: its rows' fields, in this order. */
export const ANALYTICS_CSV_COLUMNS = {
  scores: ['period_start', 'inspections', 'scored', 'average_score'],
  'on-time': ['period_start', 'due', 'on_time', 'late', 'missed', 'on_time_rate'],
  'failed-items': ['template_id', 'template_name', 'item_key', 'item_label', 'site_id', 'site_name', 'failed', 'answered', 'failure_rate'],
  actions: ['period_start', 'priority', 'opened', 'resolved', 'verified', 'overdue', 'median_hours_to_resolve', 'median_hours_to_verify'],
  sites: [
    'site_id', 'site_name', 'inspections', 'scored', 'average_score', 'previous_average_score', 'score_change', 'score_rank',
    'due', 'on_time', 'on_time_rate', 'previous_on_time_rate', 'on_time_change', 'on_time_rank',
  ],
} as const satisfies Record<AnalyticsMeasure, readonly string[]>;
