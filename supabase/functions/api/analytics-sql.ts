// The SQL of the analytics measures (issue 28; docs/analytics.md, "Measures"): each reads the
// rollups (public.analytics_*_days), under the caller's row-level security, so a member's figures
// cover the sites they may see. Two figures depend on the clock rather than on a write — an
// occurrence becomes missed, an action overdue, when its due time passes — so the days not yet over
// everywhere (yesterday and later, UTC) are read from the base tables instead, by the same rule
// as compliance and the lists. The medians, which cannot be summed, are taken over the durations
// the action rollup keeps. Each statement answers the measure's final rows, so the JSON routes and
// the CSV exports (analytics.ts) share it; so does the bench (tests/bench/analytics.ts), through
// measureStatement, which is why this module imports nothing of the routes.
import { inline, InlineSql } from '../_shared/sql-literal.ts';
import {
  type AnalyticsInterval,
  type AnalyticsMeasure,
  type AnalyticsQuery,
  analyticsRange,
  daysIn,
  type FailedItemGroupBy,
  type FailedItemsQuery,
  type SiteOrder,
  type SiteRankingQuery,
} from '../_shared/schemas/analytics.ts';
import { MISSED_DUE, OUTCOMES } from './occurrence-outcomes.ts';
import { groupSubtree } from './site-group-subtree.ts';

/** What every measure is asked about: the organization, the local days, the filters. */
export interface AnalyticsScope {
  org: string;
  from: string;
  to: string;
  siteId?: string;
  templateId?: string;
  siteGroupId?: string;
}

const sql = (text: string) => new InlineSql(text);

/**
 * The first day the rollups do not hold final figures for: yesterday (UTC). A local day ends at
 * most 12 hours after the same UTC day ends (UTC−12), so every day before yesterday is over at
 * every site, and what was missed or overdue then is settled; yesterday and later are read from the
 * base tables with the clock.
 */
const UNSETTLED_FROM = sql(`((now() at time zone 'UTC')::date - 1)`);
/** An instant before the start of the unsettled days in every time zone (UTC+14 starts 14 hours early). */
const UNSETTLED_SINCE = sql(`(((now() at time zone 'UTC')::date - 2)::timestamp at time zone 'UTC')`);

/**
 * The first day of the period holding `day` (a date expression): its Monday, or its month's 1st.
 * Date arithmetic, not date_trunc, which takes a timestamp with time zone (a conversion per row in
 * the session's zone, for rows that are already local days).
 */
function periodOf(day: InlineSql, interval: AnalyticsInterval): InlineSql {
  return interval === 'week'
    ? inline`(${day} - (extract(isodow from ${day})::int - 1))`
    : inline`(${day} - (extract(day from ${day})::int - 1))`;
}

/** Every period start from `from`'s to `to`'s, as `p(period_start)`. */
function periods(scope: AnalyticsScope, interval: AnalyticsInterval): InlineSql {
  const step = interval === 'week' ? sql(`interval '1 week'`) : sql(`interval '1 month'`);
  return inline`(select g::date as period_start
    from generate_series(${periodOf(inline`${scope.from}::date`, interval)}::timestamp, ${scope.to}::date::timestamp, ${step}) g) p`;
}

/**
 * The sites of a site group and of the groups under it (the tree's closure table, as the lists
 * read it: groupSubtree), as an array computed once: `site_id = any (…)`. As `site_id in (select …)`
 * — the lists' inSiteGroup form — the planner joined them to the rollups site by site (an index
 * scan each: 170 ms for a region of 95 sites in the bench) instead of filtering the organization's
 * range.
 */
function sitesOfGroup(scope: AnalyticsScope, group: string): InlineSql {
  return inline`any (array(
    select s.id from public.sites s
    where s.org_id = ${scope.org} and s.group_id in (${groupSubtree(group)})))`;
}

/** The site, group and template filters on rows `alias` that carry site_id and template_id. */
function rowFilters(alias: string, scope: AnalyticsScope): InlineSql {
  const a = sql(alias);
  return inline`${scope.siteId ? inline`${a}.site_id = ${scope.siteId}` : sql('true')}
    and ${scope.templateId ? inline`${a}.template_id = ${scope.templateId}` : sql('true')}
    and ${scope.siteGroupId ? inline`${a}.site_id = ${sitesOfGroup(scope, scope.siteGroupId)}` : sql('true')}`;
}

/** Which of a rollup's rows `r` count: the organization's from `from` to `to` (local days), filtered. */
function rollupCondition(scope: AnalyticsScope, from: string = scope.from, to: string = scope.to): InlineSql {
  return inline`r.org_id = ${scope.org} and r.day between ${from}::date and ${to}::date and ${rowFilters('r', scope)}`;
}

/** A rollup's rows `r` that count, as a FROM item and its WHERE. */
function rollupRows(table: string, scope: AnalyticsScope, from: string = scope.from, to: string = scope.to): InlineSql {
  return inline`public.${sql(table)} r where ${rollupCondition(scope, from, to)}`;
}

/** round(x, places) as a float8, so the driver answers a number. */
const rounded = (value: InlineSql, places: number) => inline`round((${value})::numeric, ${places})::float8`;

// --- scores ----------------------------------------------------------------------------------

export function scoresStatement(scope: AnalyticsScope, interval: AnalyticsInterval): InlineSql {
  return inline`
    select p.period_start::text as period_start, coalesce(x.inspections, 0) as inspections, coalesce(x.scored, 0) as scored,
           ${rounded(sql('x.score_sum / nullif(x.scored, 0)'), 2)} as average_score
    from ${periods(scope, interval)}
    left join (
      select ${periodOf(sql('r.day'), interval)} as period_start, sum(r.inspections)::int as inspections, sum(r.scored)::int as scored,
             sum(r.score_sum) as score_sum
      from ${rollupRows('analytics_inspection_days', scope)}
      group by 1
    ) x on x.period_start = p.period_start
    order by p.period_start`;
}

// --- on time -----------------------------------------------------------------------------------

/**
 * Occurrences per site, template and local due day from `from` to `to`, as
 * `(site_id, template_id, day, due, on_time, late, missed)`: settled days from the rollup (every
 * occurrence of a day over is judged, and the unsubmitted ones are missed), the rest from the
 * inspections by compliance's own conditions (OUTCOMES, COUNTED_OCCURRENCE in schedules.ts).
 */
function occurrenceDays(scope: AnalyticsScope, from: string = scope.from, to: string = scope.to): InlineSql {
  return inline`(
    select r.site_id, r.template_id, r.day, r.occurrences as due, r.on_time, r.late, r.occurrences - r.on_time - r.late as missed
    from ${rollupRows('analytics_occurrence_days', scope, from, to)} and r.day < ${UNSETTLED_FROM}
    union all
    select o.site_id, o.template_id, o.day, 1, o.on_time::int, o.late::int, o.missed::int
    from (
      select i.site_id, i.template_id, (i.due_at at time zone s.timezone)::date as day,
             -- Each outcome as true or false: "first submitted by its due time" is null, not false, for
             -- one never submitted, and a null would make a period of missed occurrences' rate null.
             (${OUTCOMES.on_time}) is true as on_time, (${OUTCOMES.late}) is true as late, (${OUTCOMES.missed}) is true as missed
      from public.inspections i
      join public.sites s on s.id = i.site_id
      where i.org_id = ${scope.org} and i.schedule_id is not null and i.status <> 'canceled'
        and (i.due_at <= now() or i.first_submitted_at is not null)
        and i.due_at >= ${UNSETTLED_SINCE} and i.due_at < (${to}::date + 2)::timestamp at time zone 'UTC'
        and ${rowFilters('i', scope)}
    ) o
    where o.day >= ${UNSETTLED_FROM} and o.day between ${from}::date and ${to}::date
  )`;
}

/** on_time / due with compliance's 4 decimals; null when nothing was due. */
const onTimeRate = (onTime: string, due: string) => rounded(sql(`${onTime}::numeric / nullif(${due}, 0)`), 4);

export function onTimeStatement(scope: AnalyticsScope, interval: AnalyticsInterval): InlineSql {
  return inline`
    select p.period_start::text as period_start, coalesce(x.due, 0) as due, coalesce(x.on_time, 0) as on_time,
           coalesce(x.late, 0) as late, coalesce(x.missed, 0) as missed, ${onTimeRate('x.on_time', 'x.due')} as on_time_rate
    from ${periods(scope, interval)}
    left join (
      select ${periodOf(sql('d.day'), interval)} as period_start, sum(d.due)::int as due, sum(d.on_time)::int as on_time,
             sum(d.late)::int as late, sum(d.missed)::int as missed
      from ${occurrenceDays(scope)} d
      group by 1
    ) x on x.period_start = p.period_start
    order by p.period_start`;
}

// --- failed items ------------------------------------------------------------------------------

/**
 * The most failed items. The item rollup holds only failures and items not judged (hidden, n/a,
 * not answered); how many judged an item is the inspections of the versions that have it (the
 * inspection rollup, per version) less those that did not judge it.
 */
export function failedItemsStatement(scope: AnalyticsScope, groupBy: FailedItemGroupBy, limit: number): InlineSql {
  const bySite = groupBy === 'site';
  const site = (alias: string) => (bySite ? sql(`${alias}.site_id`) : sql('null::uuid'));
  const andSite = (alias: string) => (bySite ? sql(`, ${alias}.site_id`) : sql(''));
  return inline`
    with failures as (
      select r.template_id, r.item_key, ${site('r')} as site_id, sum(r.failed)::int as failed, sum(r.unjudged)::int as unjudged
      from ${rollupRows('analytics_item_days', scope)}
      group by r.template_id, r.item_key${andSite('r')}
      having sum(r.failed) > 0
    ),
    versions as (
      select r.template_version_id, ${site('r')} as site_id, sum(r.inspections)::int as inspections
      from ${rollupRows('analytics_inspection_days', scope)}
      group by r.template_version_id${andSite('r')}
    ),
    -- The scored items (the ones that can fail) of each version counted, stored with the version.
    version_items as materialized (
      select v.id, v.template_id, unnest(v.scored_item_keys) as item_key
      from public.template_versions v
      where v.id in (select n.template_version_id from versions n)
    ),
    -- Inspections whose version has the item.
    having_item as (
      select k.template_id, k.item_key, n.site_id, sum(n.inspections)::int as inspections
      from versions n
      join version_items k on k.id = n.template_version_id
      group by k.template_id, k.item_key, n.site_id
    ),
    ranked as (
      select f.template_id, f.item_key, f.site_id, f.failed, h.inspections - f.unjudged as answered
      from failures f
      join having_item h on h.template_id = f.template_id and h.item_key = f.item_key${bySite ? sql(' and h.site_id = f.site_id') : sql('')}
      order by f.failed desc, f.failed::numeric / (h.inspections - f.unjudged) desc, f.template_id, f.item_key, f.site_id
      limit ${limit}
    )
    select f.template_id, t.name as template_name, f.item_key,
           coalesce(label.text, f.item_key) as item_label,
           f.site_id, site.name as site_name,
           f.failed, f.answered, ${rounded(sql('f.failed::numeric / f.answered'), 4)} as failure_rate
    from ranked f
    join public.templates t on t.id = f.template_id
    left join public.sites site on site.id = f.site_id
    -- The label of the newest version that has the item (items keep their key across versions).
    left join lateral (
      select private.template_item(v.definition, f.item_key) ->> 'label' as text
      from public.template_versions v
      where v.template_id = f.template_id and private.template_item(v.definition, f.item_key) is not null
      order by v.version desc
      limit 1
    ) label on true
    order by f.failed desc, f.failed::numeric / f.answered desc, f.template_id, f.item_key, f.site_id`;
}

// --- actions -----------------------------------------------------------------------------------

/** The site, group and template filters on actions `a` (whose template is their inspection's). */
function actionFilters(scope: AnalyticsScope): InlineSql {
  return inline`${scope.siteId ? inline`a.site_id = ${scope.siteId}` : sql('true')}
    and ${scope.templateId ? inline`a.inspection_id in (select x.id from public.inspections x where x.org_id = ${scope.org} and x.template_id = ${scope.templateId})` : sql('true')}
    and ${scope.siteGroupId ? inline`a.site_id = ${sitesOfGroup(scope, scope.siteGroupId)}` : sql('true')}`;
}

export function actionsStatement(scope: AnalyticsScope, interval: AnalyticsInterval): InlineSql {
  // The median of a rollup's durations (seconds) over each period and priority, and each period,
  // from the rows that hold any.
  const medianHours = (column: string) => inline`
    select ${periodOf(sql('r.day'), interval)} as period_start, r.priority,
           ${rounded(sql('percentile_cont(0.5) within group (order by x.seconds) / 3600'), 2)} as median
    from public.analytics_action_days r
    cross join lateral unnest(r.${sql(column)}) as x (seconds)
    where ${rollupCondition(scope)} and cardinality(r.${sql(column)}) > 0
    group by grouping sets ((1, r.priority), (1))`;
  return inline`
    with counts as (
      select ${periodOf(sql('r.day'), interval)} as period_start, r.priority,
             sum(r.opened)::int as opened, sum(r.resolved)::int as resolved, sum(r.verified)::int as verified,
             sum(case when r.day < ${UNSETTLED_FROM} then r.due - r.resolved_by_due else 0 end)::int as overdue
      from ${rollupRows('analytics_action_days', scope)}
      group by grouping sets ((1, r.priority), (1))
    ),
    -- Overdue on days not yet over everywhere: past due, not resolved by then (compliance's way of
    -- counting missed, for actions); canceled ones never count.
    recent_overdue as (
      select ${periodOf(sql('o.day'), interval)} as period_start, o.priority, count(*)::int as overdue
      from (
        select (a.due_at at time zone s.timezone)::date as day, a.priority
        from public.actions a
        join public.sites s on s.id = a.site_id
        where a.org_id = ${scope.org} and a.status <> 'canceled' and ${MISSED_DUE}
          and a.due_at >= ${UNSETTLED_SINCE}
          and ${actionFilters(scope)}
      ) o
      where o.day >= ${UNSETTLED_FROM} and o.day between ${scope.from}::date and ${scope.to}::date
      group by grouping sets ((1, o.priority), (1))
    ),
    resolve_times as (${medianHours('resolve_seconds')}),
    verify_times as (${medianHours('verify_seconds')})
    select p.period_start::text as period_start, pr.priority::text as priority,
           coalesce(c.opened, 0) as opened, coalesce(c.resolved, 0) as resolved, coalesce(c.verified, 0) as verified,
           coalesce(c.overdue, 0) + coalesce(o.overdue, 0) as overdue,
           rt.median as median_hours_to_resolve, vt.median as median_hours_to_verify
    from ${periods(scope, interval)}
    cross join (values (null::public.action_priority, 0), ('low', 1), ('medium', 2), ('high', 3), ('critical', 4)) pr (priority, position)
    left join counts c on c.period_start = p.period_start and c.priority is not distinct from pr.priority
    left join recent_overdue o on o.period_start = p.period_start and o.priority is not distinct from pr.priority
    left join resolve_times rt on rt.period_start = p.period_start and rt.priority is not distinct from pr.priority
    left join verify_times vt on vt.period_start = p.period_start and vt.priority is not distinct from pr.priority
    order by p.period_start, pr.position`;
}

// --- sites -------------------------------------------------------------------------------------

const SITE_ORDER: Record<SiteOrder, string> = {
  score: 'average_score desc nulls last, on_time_rate desc nulls last',
  on_time: 'on_time_rate desc nulls last, average_score desc nulls last',
  score_change: 'score_change asc nulls last, average_score asc nulls last',
  on_time_change: 'on_time_change asc nulls last, on_time_rate asc nulls last',
};

/** Sites ranked over `scope` (from … to), with the figures of `previous` (the range as long before it). */
export function sitesStatement(scope: AnalyticsScope, previous: { from: string; to: string }, sort: SiteOrder, limit: number): InlineSql {
  return inline`
    with scores as (
      select r.site_id,
             sum(r.inspections) filter (where r.day >= ${scope.from}::date)::int as inspections,
             sum(r.scored) filter (where r.day >= ${scope.from}::date)::int as scored,
             sum(r.score_sum) filter (where r.day >= ${scope.from}::date) / nullif(sum(r.scored) filter (where r.day >= ${scope.from}::date), 0) as average,
             sum(r.score_sum) filter (where r.day < ${scope.from}::date) / nullif(sum(r.scored) filter (where r.day < ${scope.from}::date), 0) as previous_average
      from ${rollupRows('analytics_inspection_days', scope, previous.from, scope.to)}
      group by r.site_id
    ),
    occurrences as (
      select d.site_id,
             sum(d.due) filter (where d.day >= ${scope.from}::date)::int as due,
             sum(d.on_time) filter (where d.day >= ${scope.from}::date)::int as on_time,
             sum(d.on_time) filter (where d.day >= ${scope.from}::date)::numeric / nullif(sum(d.due) filter (where d.day >= ${scope.from}::date), 0) as rate,
             sum(d.on_time) filter (where d.day < ${scope.from}::date)::numeric / nullif(sum(d.due) filter (where d.day < ${scope.from}::date), 0) as previous_rate
      from ${occurrenceDays(scope, previous.from, scope.to)} d
      group by d.site_id
    ),
    ranked as (
      select coalesce(sc.site_id, oc.site_id) as site_id,
             coalesce(sc.inspections, 0) as inspections, coalesce(sc.scored, 0) as scored,
             ${rounded(sql('sc.average'), 2)} as average_score,
             ${rounded(sql('sc.previous_average'), 2)} as previous_average_score,
             ${rounded(sql('sc.average - sc.previous_average'), 2)} as score_change,
             coalesce(oc.due, 0) as due, coalesce(oc.on_time, 0) as on_time,
             ${rounded(sql('oc.rate'), 4)} as on_time_rate,
             ${rounded(sql('oc.previous_rate'), 4)} as previous_on_time_rate,
             ${rounded(sql('oc.rate - oc.previous_rate'), 4)} as on_time_change
      from scores sc
      full join occurrences oc on oc.site_id = sc.site_id
      where coalesce(sc.inspections, 0) > 0 or coalesce(oc.due, 0) > 0
    )
    select r.site_id, s.name as site_name, r.inspections, r.scored, r.average_score, r.previous_average_score, r.score_change,
           (case when r.average_score is not null then rank() over (partition by r.average_score is null order by r.average_score desc) end)::int as score_rank,
           r.due, r.on_time, r.on_time_rate, r.previous_on_time_rate, r.on_time_change,
           (case when r.on_time_rate is not null then rank() over (partition by r.on_time_rate is null order by r.on_time_rate desc) end)::int as on_time_rank
    from ranked r
    join public.sites s on s.id = r.site_id
    order by ${sql(SITE_ORDER[sort])}, s.name, r.site_id
    limit ${limit}`;
}

// --- a measure's statement from its query ------------------------------------------------------

const DAY_MS = 86_400_000;
const shiftDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The organization, the range with its defaults and the filters, as the statements take them. */
export function scopeOf(org: string, query: AnalyticsQuery): AnalyticsScope {
  const { from, to } = analyticsRange(query);
  return { org, from, to, siteId: query.site_id, templateId: query.template_id, siteGroupId: query.site_group_id };
}

/** The range as long as `scope`'s just before it (the sites' change). */
export function previousRange(scope: AnalyticsScope): { from: string; to: string } {
  const days = daysIn(scope);
  return { from: shiftDays(scope.from, -days), to: shiftDays(scope.from, -1) };
}

/** The statement of `measure` for `query` (parsed by the measure's schema) in organization `org`. */
export function measureStatement(measure: AnalyticsMeasure, org: string, query: AnalyticsQuery | FailedItemsQuery | SiteRankingQuery): InlineSql {
  const scope = scopeOf(org, query);
  switch (measure) {
    case 'scores':
      return scoresStatement(scope, query.interval);
    case 'on-time':
      return onTimeStatement(scope, query.interval);
    case 'actions':
      return actionsStatement(scope, query.interval);
    case 'failed-items': {
      const { group_by, limit } = query as FailedItemsQuery;
      return failedItemsStatement(scope, group_by, limit);
    }
    case 'sites': {
      const { sort, limit } = query as SiteRankingQuery;
      return sitesStatement(scope, previousRange(scope), sort, limit);
    }
  }
}
