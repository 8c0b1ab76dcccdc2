// Local days as list filters: analytics counts each inspection and action on its site's own calendar
// (docs/analytics.md), and the lists its figures link to select by the same days.
import { inline, type InlineSql } from '../_shared/sql-literal.ts';

/**
 * `column` (a timestamptz) falls on a local day in `timezone` (its row's site's) from `from` to
 * `to` (both included, either open), as analytics counts days. The UTC bounds around it
 * (a day starts at most 14 hours before, and ends at most 12 hours after, the same UTC day) let
 * the comparison skip rows that cannot match before converting each to its site's calendar.
 */
export function localDayBetween(column: InlineSql, timezone: InlineSql, from: string | undefined, to: string | undefined): InlineSql {
  if (!from && !to) return inline`true`;
  return inline`(
    ${from ? inline`${column} >= (${from}::date - 1)::timestamp at time zone 'UTC' and (${column} at time zone ${timezone})::date >= ${from}::date` : inline`true`}
    and ${to ? inline`${column} < (${to}::date + 2)::timestamp at time zone 'UTC' and (${column} at time zone ${timezone})::date <= ${to}::date` : inline`true`})`;
}
