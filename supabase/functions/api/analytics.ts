// Analytics (issue 28; docs/analytics.md): `GET /orgs/{org}/analytics/{scores|on-time|failed-items|
// actions|sites}` and the same as `….csv`. Every member and key of the organization reads them; the
// figures cover the sites the caller may see (row-level security on the rollups, which
// analytics-sql.ts reads). Each JSON answer carries the range it covers, its defaults filled in, and
// `data`; each CSV has the rows of `data` as records.
import type { z } from 'zod';
import { csvNumber, csvPlain, csvRecord, csvText } from '../_shared/csv.ts';
import type { Rows } from '../_shared/db.ts';
import { route } from '../_shared/http.ts';
import {
  type Actions,
  actionsSchema,
  ANALYTICS_CSV_COLUMNS,
  type AnalyticsMeasure,
  analyticsQuerySchema,
  type FailedItems,
  failedItemsQuerySchema,
  failedItemsSchema,
  type OnTime,
  onTimeSchema,
  type Scores,
  scoresSchema,
  type SiteRanking,
  siteRankingQuerySchema,
  siteRankingSchema,
} from '../_shared/schemas/analytics.ts';
import type { InlineSql } from '../_shared/sql-literal.ts';
import { roleAllowed, roleStatement } from './access.ts';
import { measureStatement, previousRange, scopeOf } from './analytics-sql.ts';
import { orgParams } from './orgs.ts';
import { streamCsv } from './report-csv/stream.ts';
import { organizationSlug } from './reports.ts';

type PeriodQuery = z.output<typeof analyticsQuerySchema>;

/** The measure's rows, with the role check in the same round trip (404 for a non-member). */
async function measureRows(read: (statements: readonly InlineSql[]) => Promise<Rows[]>, org: string, statement: InlineSql) {
  const [role, rows] = await read([roleStatement(org), statement]);
  roleAllowed(role);
  return rows;
}

export const getAnalyticsScores = route({
  method: 'GET',
  response: scoresSchema,
  summary: 'Average score of submitted and approved inspections, by week or month',
  path: '/orgs/:org/analytics/scores',
  params: orgParams,
  query: analyticsQuerySchema,
  handler: async ({ params, query, read }): Promise<Scores> => {
    const scope = scopeOf(params.org, query);
    const rows = await measureRows(read, params.org, measureStatement('scores', params.org, query));
    return { from: scope.from, to: scope.to, interval: query.interval, data: rows as Scores['data'] };
  },
});

export const getAnalyticsOnTime = route({
  method: 'GET',
  response: onTimeSchema,
  summary: "Schedules' occurrences done on time, late and missed, by week or month",
  path: '/orgs/:org/analytics/on-time',
  params: orgParams,
  query: analyticsQuerySchema,
  handler: async ({ params, query, read }): Promise<OnTime> => {
    const scope = scopeOf(params.org, query);
    const rows = await measureRows(read, params.org, measureStatement('on-time', params.org, query));
    return { from: scope.from, to: scope.to, interval: query.interval, data: rows as OnTime['data'] };
  },
});

export const getAnalyticsFailedItems = route({
  method: 'GET',
  response: failedItemsSchema,
  summary: 'The most failed items, per template or per site',
  path: '/orgs/:org/analytics/failed-items',
  params: orgParams,
  query: failedItemsQuerySchema,
  handler: async ({ params, query, read }): Promise<FailedItems> => {
    const scope = scopeOf(params.org, query);
    const rows = await measureRows(read, params.org, measureStatement('failed-items', params.org, query));
    return { from: scope.from, to: scope.to, group_by: query.group_by, data: rows as FailedItems['data'] };
  },
});

export const getAnalyticsActions = route({
  method: 'GET',
  response: actionsSchema,
  summary: 'Corrective actions opened, resolved, verified and overdue, and their median times, by priority',
  path: '/orgs/:org/analytics/actions',
  params: orgParams,
  query: analyticsQuerySchema,
  handler: async ({ params, query, read }): Promise<Actions> => {
    const scope = scopeOf(params.org, query);
    const rows = await measureRows(read, params.org, measureStatement('actions', params.org, query));
    return { from: scope.from, to: scope.to, interval: query.interval, data: rows as Actions['data'] };
  },
});

export const getAnalyticsSites = route({
  method: 'GET',
  response: siteRankingSchema,
  summary: 'Sites ranked by average score and on-time rate, with their change from the period before',
  path: '/orgs/:org/analytics/sites',
  params: orgParams,
  query: siteRankingQuerySchema,
  handler: async ({ params, query, read }): Promise<SiteRanking> => {
    const scope = scopeOf(params.org, query);
    const previous = previousRange(scope);
    const rows = await measureRows(read, params.org, measureStatement('sites', params.org, query));
    return { from: scope.from, to: scope.to, previous_from: previous.from, previous_to: previous.to, sort: query.sort, data: rows as SiteRanking['data'] };
  },
});

// --- CSV ---------------------------------------------------------------------------------------

/** Text a person typed (names, labels) is neutralized against formulas; the rest is ours. */
const TEXT_COLUMNS = new Set(['template_name', 'item_label', 'site_name', 'item_key']);
const PLAIN_COLUMNS = new Set(['period_start', 'priority', 'template_id', 'site_id']);

function recordOf(columns: readonly string[]) {
  return (row: Record<string, unknown>) =>
    csvRecord(columns.map((column) => {
      const value = row[column] as string | number | null;
      if (TEXT_COLUMNS.has(column)) return csvText(value as string | null);
      if (PLAIN_COLUMNS.has(column)) return csvPlain(value as string | null);
      return csvNumber(value);
    }));
}

function csvRoute<Q extends typeof analyticsQuerySchema | typeof failedItemsQuerySchema | typeof siteRankingQuerySchema>(
  measure: AnalyticsMeasure,
  query: Q,
  summary: string,
) {
  return route({
    method: 'GET',
    response: { file: 'text/csv' },
    summary,
    path: `/orgs/:org/analytics/${measure}.csv`,
    params: orgParams,
    query,
    handler: async ({ params, query: values, db, requestId }) => {
      const scope = scopeOf(params.org, values as PeriodQuery);
      const statement = measureStatement(measure, params.org, values as PeriodQuery);
      const columns = ANALYTICS_CSV_COLUMNS[measure];
      return await streamCsv<Record<string, unknown>>(
        { db, requestId },
        async (tx) => `${await organizationSlug(tx, params.org)}-analytics-${measure}-${scope.from}-${scope.to}.csv`,
        columns,
        (tx) => tx.unsafe(statement.text),
        recordOf(columns),
      );
    },
  });
}

export const exportAnalyticsScoresCsv = csvRoute('scores', analyticsQuerySchema, 'The scores measure as CSV');
export const exportAnalyticsOnTimeCsv = csvRoute('on-time', analyticsQuerySchema, 'The on-time measure as CSV');
export const exportAnalyticsFailedItemsCsv = csvRoute('failed-items', failedItemsQuerySchema, 'The failed-items measure as CSV');
export const exportAnalyticsActionsCsv = csvRoute('actions', analyticsQuerySchema, 'The actions measure as CSV');
export const exportAnalyticsSitesCsv = csvRoute('sites', siteRankingQuerySchema, 'The sites measure as CSV');
