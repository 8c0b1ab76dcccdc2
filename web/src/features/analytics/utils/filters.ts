// The analytics page's filters live in its address (`/o/:org/analytics?from=…&to=…&interval=month&
// group=…&site=…&template=…`), so a view can be shared or bookmarked (docs/analytics.md, "Screens").
// The address is read with the api's own rules (analyticsQuerySchema): what the api would refuse is
// left out and said so, never sent; and every figure links to the list of the rows it counts, with
// the lists' filters (the same local days, sites, group and template).
import {
  type AnalyticsInterval,
  analyticsQuerySchema,
  ANALYTICS_INTERVALS,
  periodStart,
  shiftPeriod,
} from '@schemas/analytics';
import type { ActionPriority } from '@schemas/action-states';
import { isId } from '@schemas/ids';
import { isCalendarDate } from '@schemas/template-items';
import { deviceTimeZone } from '@/lib/zoned-time';
import { todayIn } from '@/features/schedules/utils/schedule-time';

export interface AnalyticsFilters {
  /** First local day (`YYYY-MM-DD`), or '' for the api's default: twelve periods up to `to`. */
  from: string;
  /** Last local day, included, or '' for the device's today (`deviceToday`). */
  to: string;
  interval: AnalyticsInterval;
  /** A site group's id (and the groups under it), or ''. */
  group: string;
  site: string;
  template: string;
}

const DEFAULT_INTERVAL: AnalyticsInterval = 'week';

export const NO_FILTERS: AnalyticsFilters = { from: '', to: '', interval: DEFAULT_INTERVAL, group: '', site: '', template: '' };

export interface ParsedFilters {
  filters: AnalyticsFilters;
  /** Parameters of the address that were not used, each with why (shown above the figures). */
  ignored: Array<{ name: string; reason: string }>;
}

const date = (value: string | null) => (value !== null && isCalendarDate(value) ? value : '');
const id = (value: string | null) => (value !== null && isId(value) ? value.toLowerCase() : '');

/**
 * The device's today (`YYYY-MM-DD`), what the page asks for when the address names no `to`: the
 * api's own default is its (UTC) today, which leaves a site ahead of UTC without its current day
 * until UTC catches up (Auckland's Monday morning is still Sunday there) — docs/analytics.md, "Screens".
 */
export function deviceToday(now: number = Date.now(), timeZone: string = deviceTimeZone()): string {
  return todayIn(timeZone, now);
}

/**
 * Reads the filters from an address's query; a malformed or refused value is dropped, and listed in
 * `ignored`. The range is judged with `today` as its end when the address names none, as it is sent.
 */
export function parseAnalyticsFilters(search: URLSearchParams, today: string = deviceToday()): ParsedFilters {
  const ignored: ParsedFilters['ignored'] = [];
  const interval = search.get('interval');
  const filters: AnalyticsFilters = {
    from: date(search.get('from')),
    to: date(search.get('to')),
    interval: (ANALYTICS_INTERVALS as readonly string[]).includes(interval ?? '') ? (interval as AnalyticsInterval) : DEFAULT_INTERVAL,
    group: id(search.get('group')),
    site: id(search.get('site')),
    template: id(search.get('template')),
  };
  const reasons: Record<string, string> = { from: 'not a date (YYYY-MM-DD)', to: 'not a date (YYYY-MM-DD)', interval: 'use week or month', group: 'not an id', site: 'not an id', template: 'not an id' };
  for (const [name, reason] of Object.entries(reasons)) {
    const value = search.get(name);
    const used = name === 'interval' ? filters.interval === value : filters[name as keyof AnalyticsFilters] !== '';
    if (value !== null && value !== '' && !used) ignored.push({ name, reason });
  }
  // Each date as the api judges one (2000–2100), then the range (an end before the start, more than
  // 366 days): a refused range loses its start, so the default twelve periods up to the end stand.
  const reasonOf = (error: { issues: Array<{ message: string }> }) => error.issues[0].message.replace(/\.$/, '').toLowerCase();
  for (const field of ['from', 'to'] as const) {
    if (!filters[field]) continue;
    const alone = analyticsQuerySchema.safeParse({ interval: filters.interval, from: filters[field], to: filters[field] });
    if (!alone.success) {
      ignored.push({ name: field, reason: reasonOf(alone.error) });
      filters[field] = '';
    }
  }
  for (const field of ['from', 'to'] as const) {
    const range = analyticsQuerySchema.safeParse(apiQuery(filters, today));
    if (range.success) break;
    if (filters[field]) ignored.push({ name: field, reason: reasonOf(range.error) });
    filters[field] = '';
  }
  return { filters, ignored };
}

/** The address's query for `filters`: only what differs from the defaults, in a stable order. */
export function analyticsSearch(filters: AnalyticsFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.interval !== DEFAULT_INTERVAL) params.set('interval', filters.interval);
  if (filters.group) params.set('group', filters.group);
  if (filters.site) params.set('site', filters.site);
  if (filters.template) params.set('template', filters.template);
  return params;
}

/** The sections' own view choices (`useViewParam`), kept in the address beside the filters. */
const VIEW_PARAMS = ['failed_by', 'priority', 'rank'] as const;

/** The address's query for `filters`, keeping the sections' view choices as `current` has them. */
export function analyticsAddress(filters: AnalyticsFilters, current: URLSearchParams): URLSearchParams {
  const params = analyticsSearch(filters);
  for (const name of VIEW_PARAMS) {
    const value = current.get(name);
    if (value !== null) params.set(name, value);
  }
  return params;
}

/**
 * The query every measure takes (`from`, `to`, `interval`, `site_group_id`, `site_id`, `template_id`):
 * always with a `to`, the device's today when the filters have none.
 */
export function apiQuery(filters: AnalyticsFilters, today: string = deviceToday()): Record<string, string> {
  const query: Record<string, string> = { interval: filters.interval };
  if (filters.from) query.from = filters.from;
  query.to = filters.to || today;
  if (filters.group) query.site_group_id = filters.group;
  if (filters.site) query.site_id = filters.site;
  if (filters.template) query.template_id = filters.template;
  return query;
}

// --- What each figure links to ------------------------------------------------------------------

export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** The local days a period's row counts: its week or month, cut by the range the answer covers. */
export function periodDays(start: string, interval: AnalyticsInterval, range: DayRange): DayRange {
  const end = previousDay(shiftPeriod(start, interval, 1));
  return { from: start < range.from ? range.from : start, to: end > range.to ? range.to : end };
}

/** "Week of 2 Nov 2026" or "Nov 2026": a period by its first day. */
export function periodLabel(start: string, interval: AnalyticsInterval, style: 'short' | 'long' = 'long'): string {
  const day = new Date(`${start}T00:00:00Z`);
  if (interval === 'month') return day.toLocaleDateString('en-GB', { month: 'short', year: style === 'long' ? 'numeric' : '2-digit', timeZone: 'UTC' });
  const text = day.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', ...(style === 'long' ? { year: 'numeric' } : {}), timeZone: 'UTC' });
  return style === 'long' ? `Week of ${text}` : text;
}

/** The periods a range covers, first day of each (for a chart's empty state). */
export function periodsOf(range: DayRange, interval: AnalyticsInterval): string[] {
  const starts: string[] = [];
  for (let start = periodStart(range.from, interval); start <= range.to; start = shiftPeriod(start, interval, 1)) starts.push(start);
  return starts;
}

/** The site, group and template a list keeps from the page's filters. */
function scopeParams(filters: AnalyticsFilters, params: URLSearchParams) {
  if (filters.site) params.set('site', filters.site);
  if (filters.group) params.set('group', filters.group);
  if (filters.template) params.set('template_id', filters.template);
}

export interface InspectionLink {
  /** Submitted and approved inspections last submitted on these days (scores, failed items, sites). */
  submitted?: DayRange;
  /** Schedules' occurrences due on these days, by how they went (on-time). */
  due?: DayRange;
  outcome?: 'on_time' | 'late' | 'missed';
  failedItem?: string;
  template?: string;
  site?: string;
}

/** The inspections list (`/o/:org/inspections?…`) of the rows a figure counts. */
export function inspectionsHref(orgSlug: string, filters: AnalyticsFilters, link: InspectionLink): string {
  const params = new URLSearchParams();
  scopeParams(filters, params);
  if (link.site) params.set('site', link.site);
  if (link.template) params.set('template_id', link.template);
  if (link.submitted) {
    params.set('status', 'submitted,approved');
    params.set('submitted_day_from', link.submitted.from);
    params.set('submitted_day_to', link.submitted.to);
  }
  if (link.due) {
    params.set('due_day_from', link.due.from);
    params.set('due_day_to', link.due.to);
  }
  if (link.outcome) params.set('outcome', link.outcome);
  if (link.failedItem) params.set('failed_item', link.failedItem);
  return `/o/${orgSlug}/inspections?${params}`;
}

export type ActionFigure = 'opened' | 'resolved' | 'verified' | 'overdue';

/** The actions list (`/o/:org/actions?…`) of the actions a figure counts: canceled ones never count. */
export function actionsHref(orgSlug: string, filters: AnalyticsFilters, figure: ActionFigure, days: DayRange, priority: ActionPriority | null): string {
  const params = new URLSearchParams();
  scopeParams(filters, params);
  params.set('status', 'open,in_progress,resolved,verified');
  if (priority) params.set('priority', priority);
  const day = figure === 'overdue' ? 'due' : figure;
  params.set(`${day}_day_from`, days.from);
  params.set(`${day}_day_to`, days.to);
  if (figure === 'overdue') params.set('missed_due', 'true');
  return `/o/${orgSlug}/actions?${params}`;
}
