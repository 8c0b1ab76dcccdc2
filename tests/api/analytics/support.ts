// The analytics measures recomputed independently (issue 28 part 6): from the organization's
// inspections, answers, actions, sites and site groups read straight from the base tables, in
// TypeScript, with nothing of the rollups or of the api's SQL — local days with Intl, weeks and
// months by hand, medians by sorting. A test compares these with what the api answers.
import { db } from '../../support/database.ts';

export type Interval = 'week' | 'month';

export interface Base {
  sites: Map<string, { id: string; name: string; timezone: string; group_id: string | null }>;
  groupParents: Map<string, string | null>;
  templates: Map<string, string>;
  /** The label of an item in the newest version of its template that has it: `template/key` → label. */
  labels: Map<string, string>;
  inspections: Array<{
    id: string; site_id: string; template_id: string; status: string; score: number; max_score: number; submitted_at: Date | null;
    hidden_item_keys: string[]; schedule_id: string | null; due_at: Date | null; first_submitted_at: Date | null;
  }>;
  answers: Array<{ inspection_id: string; item_key: string; failed: boolean | null }>;
  actions: Array<{
    site_id: string; template_id: string | null; priority: string; status: string; created_at: Date; resolved_at: Date | null;
    verified_at: Date | null; due_at: Date; resolve_seconds: number | null; verify_seconds: number | null;
  }>;
}

/** Everything of the organization the measures count, as the database holds it now. */
export async function readBase(orgId: string): Promise<Base> {
  const sql = db();
  const [sites, groups, templates, versions, inspections, answers, actions] = await Promise.all([
    sql`select id, name, timezone, group_id from public.sites where org_id = ${orgId}`,
    sql`select id, parent_id from public.site_groups where org_id = ${orgId}`,
    sql`select id, name from public.templates where org_id = ${orgId}`,
    sql`select template_id, version, definition from public.template_versions where org_id = ${orgId} order by version`,
    sql`select id, site_id, template_id, status, score::float8 as score, max_score::float8 as max_score, submitted_at, hidden_item_keys,
               schedule_id, due_at, first_submitted_at
        from public.inspections where org_id = ${orgId}`,
    sql`select inspection_id, item_key, failed from public.answers where org_id = ${orgId}`,
    sql`select a.site_id, i.template_id, a.priority, a.status, a.created_at, a.resolved_at, a.verified_at, a.due_at,
               extract(epoch from a.resolved_at - a.created_at)::float8 as resolve_seconds,
               extract(epoch from a.verified_at - a.resolved_at)::float8 as verify_seconds
        from public.actions a left join public.inspections i on i.id = a.inspection_id where a.org_id = ${orgId}`,
  ]);
  const labels = new Map<string, string>();
  for (const version of versions) {
    for (const section of version.definition.sections) {
      for (const item of section.items) labels.set(`${version.template_id}/${item.key}`, item.label);
    }
  }
  return {
    sites: new Map(sites.map((s) => [s.id, s as any])),
    groupParents: new Map(groups.map((g) => [g.id, g.parent_id])),
    templates: new Map(templates.map((t) => [t.id, t.name])),
    labels,
    inspections: inspections as any,
    answers: answers as any,
    actions: actions as any,
  };
}

/** What a measure is asked, and which sites the caller may see (all when absent). */
export interface Ask {
  from: string;
  to: string;
  interval: Interval;
  site_id?: string;
  template_id?: string;
  site_group_id?: string;
  visibleSites?: Set<string>;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day of an instant at a site (`YYYY-MM-DD`). */
export function localDay(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

const DAY = 86_400_000;
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const asDay = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return asDay(new Date(asDate(day).getTime() + days * DAY));
}

/** Monday of the week, or the 1st of the month. */
export function periodOf(day: string, interval: Interval): string {
  if (interval === 'month') return `${day.slice(0, 8)}01`;
  const weekday = asDate(day).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Every period start from `from`'s to `to`'s. */
export function periodsOf(ask: Ask): string[] {
  const out: string[] = [];
  let start = periodOf(ask.from, ask.interval);
  while (start <= ask.to) {
    out.push(start);
    if (ask.interval === 'week') start = addDays(start, 7);
    else {
      const d = asDate(start);
      start = asDay(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
    }
  }
  return out;
}

/** Whether a site is in a group or any group below it. */
function inGroup(base: Base, groupId: string | null, wanted: string): boolean {
  for (let g = groupId; g; g = base.groupParents.get(g) ?? null) if (g === wanted) return true;
  return false;
}

/** The filters and the caller's sight, on something at `siteId` of `templateId`. */
function inScope(base: Base, ask: Ask, siteId: string, templateId: string | null): boolean {
  if (ask.visibleSites && !ask.visibleSites.has(siteId)) return false;
  if (ask.site_id && siteId !== ask.site_id) return false;
  if (ask.template_id && templateId !== ask.template_id) return false;
  if (ask.site_group_id && !inGroup(base, base.sites.get(siteId)!.group_id, ask.site_group_id)) return false;
  return true;
}

const within = (day: string, ask: { from: string; to: string }) => day >= ask.from && day <= ask.to;
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const zone = (base: Base, siteId: string) => base.sites.get(siteId)!.timezone;
const COUNTED = new Set(['submitted', 'approved']);

export function expectedScores(base: Base, ask: Ask) {
  const byPeriod = new Map(periodsOf(ask).map((p) => [p, { inspections: 0, scored: 0, sum: 0 }]));
  for (const i of base.inspections) {
    if (!COUNTED.has(i.status) || !i.submitted_at || !inScope(base, ask, i.site_id, i.template_id)) continue;
    const day = localDay(i.submitted_at, zone(base, i.site_id));
    if (!within(day, ask)) continue;
    const period = byPeriod.get(periodOf(day, ask.interval))!;
    period.inspections++;
    if (i.max_score > 0) {
      period.scored++;
      period.sum += (100 * i.score) / i.max_score;
    }
  }
  return [...byPeriod].map(([period_start, p]) => ({
    period_start, inspections: p.inspections, scored: p.scored, average_score: p.scored ? round(p.sum / p.scored, 2) : null,
  }));
}

/** Each occurrence due on a day of `range` that can be judged now, with its outcome (compliance's rules). */
function judgedOccurrences(base: Base, ask: Ask, range: { from: string; to: string }, now: number) {
  const out: Array<{ site_id: string; day: string; outcome: 'on_time' | 'late' | 'missed' }> = [];
  for (const i of base.inspections) {
    if (!i.schedule_id || i.status === 'canceled' || !i.due_at || !inScope(base, ask, i.site_id, i.template_id)) continue;
    if (!(i.due_at.getTime() <= now || i.first_submitted_at)) continue;
    const day = localDay(i.due_at, zone(base, i.site_id));
    if (!within(day, range)) continue;
    const outcome = i.first_submitted_at ? (i.first_submitted_at <= i.due_at ? 'on_time' : 'late') : 'missed';
    out.push({ site_id: i.site_id, day, outcome });
  }
  return out;
}

export function expectedOnTime(base: Base, ask: Ask, now: number) {
  const byPeriod = new Map(periodsOf(ask).map((p) => [p, { due: 0, on_time: 0, late: 0, missed: 0 }]));
  for (const o of judgedOccurrences(base, ask, ask, now)) {
    const period = byPeriod.get(periodOf(o.day, ask.interval))!;
    period.due++;
    period[o.outcome]++;
  }
  return [...byPeriod].map(([period_start, p]) => ({ period_start, ...p, on_time_rate: p.due ? round(p.on_time / p.due, 4) : null }));
}

export function expectedFailedItems(base: Base, ask: Ask, groupBy: 'template' | 'site', limit: number) {
  const inspections = new Map(base.inspections.map((i) => [i.id, i]));
  const counts = new Map<string, { template_id: string; item_key: string; site_id: string | null; failed: number; answered: number }>();
  for (const a of base.answers) {
    const i = inspections.get(a.inspection_id)!;
    if (!COUNTED.has(i.status) || !i.submitted_at || a.failed === null || i.hidden_item_keys.includes(a.item_key)) continue;
    if (!inScope(base, ask, i.site_id, i.template_id) || !within(localDay(i.submitted_at, zone(base, i.site_id)), ask)) continue;
    const site_id = groupBy === 'site' ? i.site_id : null;
    const key = `${i.template_id}/${a.item_key}/${site_id}`;
    const row = counts.get(key) ?? { template_id: i.template_id, item_key: a.item_key, site_id, failed: 0, answered: 0 };
    row.answered++;
    if (a.failed) row.failed++;
    counts.set(key, row);
  }
  return [...counts.values()]
    .filter((r) => r.failed > 0)
    .sort((a, b) =>
      b.failed - a.failed || b.failed / b.answered - a.failed / a.answered || a.template_id.localeCompare(b.template_id) ||
      a.item_key.localeCompare(b.item_key) || (a.site_id ?? '').localeCompare(b.site_id ?? ''))
    .slice(0, limit)
    .map((r) => ({
      template_id: r.template_id, template_name: base.templates.get(r.template_id)!, item_key: r.item_key,
      item_label: base.labels.get(`${r.template_id}/${r.item_key}`)!, site_id: r.site_id,
      site_name: r.site_id ? base.sites.get(r.site_id)!.name : null, failed: r.failed, answered: r.answered,
      failure_rate: round(r.failed / r.answered, 4),
    }));
}

/** percentile_cont(0.5): the middle value, or the mean of the two middle ones. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const PRIORITIES = [null, 'low', 'medium', 'high', 'critical'] as const;

export function expectedActions(base: Base, ask: Ask, now: number) {
  const rows = new Map<string, { opened: number; resolved: number; verified: number; overdue: number; resolve: number[]; verify: number[] }>();
  for (const p of periodsOf(ask)) for (const priority of PRIORITIES) rows.set(`${p}/${priority}`, { opened: 0, resolved: 0, verified: 0, overdue: 0, resolve: [], verify: [] });
  const add = (day: string, priority: string, change: (row: ReturnType<typeof rows.get> & object) => void) => {
    if (!within(day, ask)) return;
    for (const p of [priority, null]) change(rows.get(`${periodOf(day, ask.interval)}/${p}`)!);
  };
  for (const a of base.actions) {
    if (a.status === 'canceled' || !inScope(base, ask, a.site_id, a.template_id)) continue;
    const tz = zone(base, a.site_id);
    add(localDay(a.created_at, tz), a.priority, (r) => r.opened++);
    if (a.resolved_at) add(localDay(a.resolved_at, tz), a.priority, (r) => { r.resolved++; r.resolve.push(a.resolve_seconds! / 3600); });
    if (a.verified_at) add(localDay(a.verified_at, tz), a.priority, (r) => { r.verified++; r.verify.push(a.verify_seconds! / 3600); });
    if (a.due_at.getTime() <= now && (!a.resolved_at || a.resolved_at > a.due_at)) add(localDay(a.due_at, tz), a.priority, (r) => r.overdue++);
  }
  return periodsOf(ask).flatMap((period_start) =>
    PRIORITIES.map((priority) => {
      const r = rows.get(`${period_start}/${priority}`)!;
      const resolve = median(r.resolve);
      const verify = median(r.verify);
      return {
        period_start, priority, opened: r.opened, resolved: r.resolved, verified: r.verified, overdue: r.overdue,
        median_hours_to_resolve: resolve === null ? null : round(resolve, 2),
        median_hours_to_verify: verify === null ? null : round(verify, 2),
      };
    }));
}

/** 1 for the highest value, ties sharing a rank; null for none. */
function ranks(values: Array<number | null>): Array<number | null> {
  return values.map((v) => (v === null ? null : 1 + values.filter((w) => w !== null && w > v).length));
}

export function expectedSites(base: Base, ask: Ask, sort: 'score' | 'on_time' | 'score_change' | 'on_time_change', limit: number, now: number) {
  const days = Math.round((asDate(ask.to).getTime() - asDate(ask.from).getTime()) / DAY) + 1;
  const previous = { from: addDays(ask.from, -days), to: addDays(ask.from, -1) };
  const sites = new Map<string, { inspections: number; scored: number; sum: number; pScored: number; pSum: number; due: number; onTime: number; pDue: number; pOnTime: number }>();
  const of = (id: string) => {
    if (!sites.has(id)) sites.set(id, { inspections: 0, scored: 0, sum: 0, pScored: 0, pSum: 0, due: 0, onTime: 0, pDue: 0, pOnTime: 0 });
    return sites.get(id)!;
  };
  for (const i of base.inspections) {
    if (!COUNTED.has(i.status) || !i.submitted_at || !inScope(base, ask, i.site_id, i.template_id)) continue;
    const day = localDay(i.submitted_at, zone(base, i.site_id));
    const current = within(day, ask);
    if (!current && !within(day, previous)) continue;
    const s = of(i.site_id);
    if (current) s.inspections++;
    if (i.max_score > 0) {
      if (current) { s.scored++; s.sum += (100 * i.score) / i.max_score; } else { s.pScored++; s.pSum += (100 * i.score) / i.max_score; }
    }
  }
  for (const o of judgedOccurrences(base, ask, { from: previous.from, to: ask.to }, now)) {
    const s = of(o.site_id);
    if (within(o.day, ask)) { s.due++; if (o.outcome === 'on_time') s.onTime++; } else { s.pDue++; if (o.outcome === 'on_time') s.pOnTime++; }
  }
  const rows = [...sites].filter(([, s]) => s.inspections > 0 || s.due > 0).map(([site_id, s]) => {
    const average = s.scored ? s.sum / s.scored : null;
    const previousAverage = s.pScored ? s.pSum / s.pScored : null;
    const rate = s.due ? s.onTime / s.due : null;
    const previousRate = s.pDue ? s.pOnTime / s.pDue : null;
    return {
      site_id, site_name: base.sites.get(site_id)!.name, inspections: s.inspections, scored: s.scored,
      average_score: average === null ? null : round(average, 2),
      previous_average_score: previousAverage === null ? null : round(previousAverage, 2),
      score_change: average === null || previousAverage === null ? null : round(average - previousAverage, 2),
      score_rank: null as number | null,
      due: s.due, on_time: s.onTime, on_time_rate: rate === null ? null : round(rate, 4), previous_on_time_rate: previousRate === null ? null : round(previousRate, 4),
      on_time_change: rate === null || previousRate === null ? null : round(rate - previousRate, 4),
      on_time_rank: null as number | null,
    };
  });
  const scoreRanks = ranks(rows.map((r) => r.average_score));
  const rateRanks = ranks(rows.map((r) => r.on_time_rate));
  rows.forEach((r, n) => { r.score_rank = scoreRanks[n]; r.on_time_rank = rateRanks[n]; });
  // Nulls last; descending for levels, ascending (biggest drop first) for changes; then name, id.
  const by = (key: 'average_score' | 'on_time_rate' | 'score_change' | 'on_time_change', descending: boolean) =>
    (a: typeof rows[number], b: typeof rows[number]) => {
      const x = a[key];
      const y = b[key];
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return descending ? y - x : x - y;
    };
  const orders = {
    score: [by('average_score', true), by('on_time_rate', true)],
    on_time: [by('on_time_rate', true), by('average_score', true)],
    score_change: [by('score_change', false), by('average_score', false)],
    on_time_change: [by('on_time_change', false), by('on_time_rate', false)],
  }[sort];
  rows.sort((a, b) => orders[0](a, b) || orders[1](a, b) || (a.site_name < b.site_name ? -1 : a.site_name > b.site_name ? 1 : 0) || a.site_id.localeCompare(b.site_id));
  return { previous_from: previous.from, previous_to: previous.to, data: rows.slice(0, limit) };
}

/**
 * Rows of an answer against the rows expected: counts equal, figures within their last decimal
 * (the database sums exact decimals, the recomputation binary floats: a half-way figure may round
 * either way).
 */
export function sameRows(actual: Array<Record<string, unknown>>, expected: Array<Record<string, unknown>>): string | null {
  if (actual.length !== expected.length) return `${actual.length} rows, expected ${expected.length}`;
  for (let n = 0; n < expected.length; n++) {
    for (const [key, want] of Object.entries(expected[n])) {
      const have = actual[n][key];
      const figure = /average_score|_rate$|_change$|^median_/.test(key);
      const tolerance = /_rate$|^on_time_change$/.test(key) ? 0.00011 : 0.0101;
      const close = want === have || (figure && typeof want === 'number' && typeof have === 'number' && Math.abs(want - have) <= tolerance);
      if (!close) return `row ${n} ${key}: ${JSON.stringify(have)}, expected ${JSON.stringify(want)} — row ${JSON.stringify(actual[n])}`;
    }
    if (Object.keys(actual[n]).length !== Object.keys(expected[n]).length) return `row ${n} has keys ${Object.keys(actual[n])}`;
  }
  return null;
}
