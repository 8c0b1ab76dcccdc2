// The records of the two CSV exports (docs/reports.md, "The CSV exports"): the SQL that selects an
// export's rows with the list's filters, and each row as a CSV record, columns in the documented
// order (_shared/schemas/reports.ts).
import type { z } from 'zod';
import { csvBoolean, csvNumber, csvPlain, csvRecord, csvText } from '../../_shared/csv.ts';
import type { Tx } from '../../_shared/db.ts';
import { answerText } from '../../_shared/schemas/answer-text.ts';
import type { reportQuerySchema } from '../../_shared/schemas/reports.ts';
import { inspectionFilters, overdueCondition } from '../inspections.ts';

type ReportQuery = z.output<typeof reportQuerySchema>;

/**
 * `column` (a timestamptz) in `zone` (a site's IANA zone) as ISO 8601 with that zone's offset,
 * to the second: `2026-11-21T09:05:00-08:00`. Null stays null. In SQL, because formatting a
 * hundred thousand rows' times with Intl in the function would take seconds.
 */
const localIso = (tx: Tx, column: string, zone: string) => {
  const local = `(${column} at time zone ${zone})`;
  const utc = `(${column} at time zone 'UTC')`;
  return tx.unsafe(
    `to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS') || case when ${local} < ${utc} then '-' else '+' end || ` +
      `to_char(greatest(${local} - ${utc}, ${utc} - ${local}), 'HH24:MI')`,
  );
};

/**
 * `column` (a timestamptz) in UTC as `YYYY-MM-DD HH:MM:SS`: the one form of a date-time that
 * Excel, LibreOffice and Google Sheets all read as a date when they open a CSV (docs/reports.md).
 */
const utcDateTime = (tx: Tx, column: string) => tx.unsafe(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`);

export interface InspectionCsvRow {
  id: string;
  title: string;
  status: string;
  site_id: string;
  site_name: string;
  site_external_ref: string | null;
  site_timezone: string;
  external_ref: string | null;
  template_id: string;
  template_name: string;
  template_version: number;
  assignee_id: string | null;
  assignee_name: string | null;
  due_at: string | null;
  overdue: boolean;
  started_at: string | null;
  started_by: string | null;
  started_by_name: string | null;
  submitted_at: string | null;
  submitted_by: string | null;
  submitted_by_name: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
  reviewed_by_name: string | null;
  score: string;
  max_score: string;
  failed_count: number;
  start_distance_m: number | null;
  start_outside_geofence: boolean | null;
  created_at: string;
  updated_at: string;
  due_at_utc: string | null;
  started_at_utc: string | null;
  submitted_at_utc: string | null;
  reviewed_at_utc: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

export function selectInspectionRows(tx: Tx, orgId: string, query: ReportQuery) {
  const at = (column: string) => localIso(tx, column, 's.timezone');
  const utc = (column: string) => utcDateTime(tx, column);
  return tx<InspectionCsvRow[]>`
    select i.id, i.title, i.status, i.site_id, s.name as site_name, s.external_ref as site_external_ref, s.timezone as site_timezone,
           i.external_ref, i.template_id, v.name as template_name, v.version as template_version,
           i.assignee_id, pa.display_name as assignee_name, ${at('i.due_at')} as due_at, ${overdueCondition(tx)} as overdue,
           ${at('i.started_at')} as started_at, i.started_by, ps.display_name as started_by_name,
           ${at('i.submitted_at')} as submitted_at, i.submitted_by, pu.display_name as submitted_by_name,
           ${at('i.reviewed_at')} as reviewed_at, i.reviewed_by, pr.display_name as reviewed_by_name,
           i.score, i.max_score, i.failed_count, round(i.start_distance_m)::int as start_distance_m, i.start_outside_geofence,
           ${at('i.created_at')} as created_at, ${at('i.updated_at')} as updated_at,
           ${utc('i.due_at')} as due_at_utc, ${utc('i.started_at')} as started_at_utc, ${utc('i.submitted_at')} as submitted_at_utc,
           ${utc('i.reviewed_at')} as reviewed_at_utc, ${utc('i.created_at')} as created_at_utc, ${utc('i.updated_at')} as updated_at_utc
    from public.inspections i
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    left join public.profiles pa on pa.user_id = i.assignee_id
    left join public.profiles ps on ps.user_id = i.started_by
    left join public.profiles pu on pu.user_id = i.submitted_by
    left join public.profiles pr on pr.user_id = i.reviewed_by
    where ${inspectionFilters(tx, orgId, query)}
    order by i.created_at desc, i.id desc
  `;
}

/** A percentage to one decimal; empty before anything scored was answered. */
function percentOf(score: number, max: number): string {
  return max > 0 ? String(Math.round((score / max) * 1000) / 10) : '';
}

export function inspectionRecord(row: InspectionCsvRow): string {
  const score = Number(row.score);
  const max = Number(row.max_score);
  return csvRecord([
    csvPlain(row.id),
    csvText(row.title),
    csvPlain(row.status),
    csvPlain(row.site_id),
    csvText(row.site_name),
    csvText(row.site_external_ref),
    csvPlain(row.site_timezone),
    csvText(row.external_ref),
    csvPlain(row.template_id),
    csvText(row.template_name),
    csvNumber(row.template_version),
    csvPlain(row.assignee_id),
    csvText(row.assignee_name),
    csvPlain(row.due_at),
    csvBoolean(row.overdue),
    csvPlain(row.started_at),
    csvPlain(row.started_by),
    csvText(row.started_by_name),
    csvPlain(row.submitted_at),
    csvPlain(row.submitted_by),
    csvText(row.submitted_by_name),
    csvPlain(row.reviewed_at),
    csvPlain(row.reviewed_by),
    csvText(row.reviewed_by_name),
    csvNumber(score),
    csvNumber(max),
    percentOf(score, max),
    csvNumber(row.failed_count),
    csvNumber(row.start_distance_m),
    csvBoolean(row.start_outside_geofence),
    csvPlain(row.created_at),
    csvPlain(row.updated_at),
    csvPlain(row.due_at_utc),
    csvPlain(row.started_at_utc),
    csvPlain(row.submitted_at_utc),
    csvPlain(row.reviewed_at_utc),
    csvPlain(row.created_at_utc),
    csvPlain(row.updated_at_utc),
  ]);
}

export interface AnswerCsvRow {
  inspection_id: string;
  inspection_title: string;
  inspection_status: string;
  site_id: string;
  site_name: string;
  site_timezone: string;
  template_name: string;
  template_version: number;
  section_key: string;
  section_title: string;
  item_key: string;
  item_label: string;
  item_kind: string;
  item_unit: string | null;
  value: unknown;
  failed: boolean | null;
  note: string | null;
  answered_by: string | null;
  answered_by_name: string | null;
  answered_at: string | null;
  answered_at_utc: string | null;
  photo_count: number;
  hidden: boolean;
}

export function selectAnswerRows(tx: Tx, orgId: string, query: ReportQuery) {
  return tx<AnswerCsvRow[]>`
    select i.id as inspection_id, i.title as inspection_title, i.status as inspection_status,
           i.site_id, s.name as site_name, s.timezone as site_timezone, v.name as template_name, v.version as template_version,
           sec.value ->> 'key' as section_key, sec.value ->> 'title' as section_title,
           item.value ->> 'key' as item_key, item.value ->> 'label' as item_label, item.value ->> 'kind' as item_kind,
           item.value ->> 'unit' as item_unit,
           a.value, a.failed, a.note, a.answered_by, p.display_name as answered_by_name,
           ${localIso(tx, 'a.answered_at', 's.timezone')} as answered_at, ${utcDateTime(tx, 'a.answered_at')} as answered_at_utc,
           photos.n as photo_count, (item.value ->> 'key') = any (i.hidden_item_keys) as hidden
    from public.inspections i
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    cross join lateral jsonb_array_elements(v.definition -> 'sections') with ordinality as sec (value, n)
    cross join lateral jsonb_array_elements(sec.value -> 'items') with ordinality as item (value, n)
    left join public.answers a on a.inspection_id = i.id and a.item_key = item.value ->> 'key'
    left join public.profiles p on p.user_id = a.answered_by
    cross join lateral (
      select count(*)::int as n from public.attachments t
      where t.inspection_id = i.id and t.item_key = item.value ->> 'key' and t.confirmed_at is not null
    ) photos
    where ${inspectionFilters(tx, orgId, query)}
      and (a.item_key is not null or photos.n > 0)
    order by i.created_at desc, i.id desc, sec.n, item.n
  `;
}

export function answerRecord(row: AnswerCsvRow): string {
  const isNumber = row.item_kind === 'number';
  return csvRecord([
    csvPlain(row.inspection_id),
    csvText(row.inspection_title),
    csvPlain(row.inspection_status),
    csvPlain(row.site_id),
    csvText(row.site_name),
    csvPlain(row.site_timezone),
    csvText(row.template_name),
    csvNumber(row.template_version),
    csvPlain(row.section_key),
    csvText(row.section_title),
    csvPlain(row.item_key),
    csvText(row.item_label),
    csvPlain(row.item_kind),
    csvText(answerText({ kind: row.item_kind, unit: row.item_unit }, row.value)),
    csvBoolean(row.failed),
    csvText(row.note),
    csvPlain(row.answered_by),
    csvText(row.answered_by_name),
    csvPlain(row.answered_at),
    csvNumber(row.photo_count),
    csvBoolean(row.hidden),
    // A number column: a negative reading stays a number, never gets the text's apostrophe.
    csvNumber(isNumber && typeof row.value === 'number' ? row.value : null),
    csvText(isNumber ? row.item_unit : null),
    csvPlain(row.answered_at_utc),
  ]);
}
