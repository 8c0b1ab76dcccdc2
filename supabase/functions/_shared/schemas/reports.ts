// Reports (`/orgs/{org}/reports/*.csv`, `/orgs/{org}/inspections/{id}/report.pdf`): the CSV
// exports take the inspection list's filters, without its paging, and stream every matching row
// (docs/reports.md). The column lists are the files' contract with spreadsheets and BI tools:
// columns are only ever added at the end.
import { inspectionListQuerySchema } from './inspections.ts';

/** `?q=&status=&site_id=&assignee_id=&overdue=&updated_since=`: the list's filters; no limit or cursor. */
export const reportQuerySchema = inspectionListQuerySchema.omit({ limit: true, cursor: true });

/** inspections.csv: one record per inspection, newest first (the list's order). */
export const INSPECTION_CSV_COLUMNS = [
  'inspection_id',
  'title',
  'status',
  'site_id',
  'site_name',
  'site_external_ref',
  'site_timezone',
  'external_ref',
  'template_id',
  'template_name',
  'template_version',
  'assignee_id',
  'assignee_name',
  'due_at',
  'overdue',
  'started_at',
  'started_by',
  'started_by_name',
  'submitted_at',
  'submitted_by',
  'submitted_by_name',
  'reviewed_at',
  'reviewed_by',
  'reviewed_by_name',
  'score',
  'max_score',
  'score_percent',
  'failed_count',
  'start_distance_m',
  'start_outside_geofence',
  'created_at',
  'updated_at',
  // The same times in UTC as `YYYY-MM-DD HH:MM:SS`, which Excel, LibreOffice and Google Sheets
  // all read as date-times (the ISO 8601 columns with an offset stay text there; docs/reports.md).
  'due_at_utc',
  'started_at_utc',
  'submitted_at_utc',
  'reviewed_at_utc',
  'created_at_utc',
  'updated_at_utc',
] as const;

/**
 * answers.csv: one record per answered item (a value, a note or a photo), inspections newest first,
 * items in template order. `hidden`: the template's rules hide the item, so its kept answer counts
 * for nothing (docs/templates.md). `value_number` and `unit` are set for number items only.
 */
export const ANSWER_CSV_COLUMNS = [
  'inspection_id',
  'inspection_title',
  'inspection_status',
  'site_id',
  'site_name',
  'site_timezone',
  'template_name',
  'template_version',
  'section_key',
  'section_title',
  'item_key',
  'item_label',
  'item_kind',
  'value',
  'failed',
  'note',
  'answered_by',
  'answered_by_name',
  'answered_at',
  'photo_count',
  'hidden',
  // A number item's answer as a plain number a spreadsheet sums and filters, and its unit apart
  // (`value` keeps "-19 °C" for people); answered_at in UTC as a spreadsheet date-time.
  'value_number',
  'unit',
  'answered_at_utc',
] as const;

export type InspectionCsvColumn = (typeof INSPECTION_CSV_COLUMNS)[number];
export type AnswerCsvColumn = (typeof ANSWER_CSV_COLUMNS)[number];
