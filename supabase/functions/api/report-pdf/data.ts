// The report's data (docs/reports.md): everything one inspection's PDF shows, read as the caller in
// one transaction (row-level security decides, as everywhere), before anything is drawn. Signature
// images are read apart and only when they will be drawn (images.ts holds them to a budget).
import type { Tx } from '../../_shared/db.ts';
import { ApiError } from '../../_shared/errors.ts';
import type { ActionPriority, ActionStatus } from '../../_shared/schemas/action-states.ts';
import type { InspectionStatus } from '../../_shared/schemas/inspection-states.ts';
import { HEADER_BASE64_LENGTH, PNG_DATA_URL_PREFIX, pngHeaderOfDataUrl } from '../../_shared/schemas/png.ts';
import { SIGNATURE_MAX_PIXELS, type TemplateDefinition } from '../../_shared/schemas/templates.ts';
import { ANALYTICS_DEFAULT_PERIODS, type AnalyticsInterval, periodStart, shiftPeriod } from '../../_shared/schemas/analytics.ts';
import { scoresStatement } from '../analytics-sql.ts';
import { PixelBudget, REPORT_DECODE_PIXELS, SIGNATURE_IMAGES_MAX_CHARACTERS, megapixels } from './images.ts';

export interface ReportPhoto {
  id: string;
  item_key: string;
  object_path: string;
  content_type: string;
  byte_size: number;
  uploaded_by_name: string | null;
  created_at: Date;
}

export interface ReportAction {
  item_key: string | null;
  title: string;
  priority: ActionPriority;
  status: ActionStatus;
  assignee_name: string | null;
  due_at: Date;
  resolution_note: string | null;
}

export interface ReportAnswer {
  /** The value, a signature's without its image (that is in ReportData.signatureImages). */
  value: unknown;
  note: string | null;
  failed: boolean | null;
  answered_by_name: string | null;
  answered_at: Date;
}

export interface ReportData {
  generatedAt: string;
  organization: { name: string; slug: string };
  inspection: {
    id: string;
    title: string;
    status: InspectionStatus;
    external_ref: string | null;
    assignee_name: string | null;
    due_at: Date | null;
    started_at: Date | null;
    started_by_name: string | null;
    submitted_at: Date | null;
    submitted_by_name: string | null;
    reviewed_at: Date | null;
    reviewed_by_name: string | null;
    review_note: string | null;
    canceled_at: Date | null;
    score: number;
    max_score: number;
    failed_count: number;
    start_distance_m: number | null;
    start_accuracy_m: number | null;
    start_outside_geofence: boolean | null;
    /** Items the template's rules hide (docs/templates.md, show_when): not asked, not counted. */
    hidden: Set<string>;
  };
  site: {
    name: string;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
    geofence_m: number;
    timezone: string;
    external_ref: string | null;
  };
  template: { name: string; version: number; definition: TemplateDefinition };
  answers: Map<string, ReportAnswer>;
  photos: ReportPhoto[];
  /** The first REPORT_MAX_ACTIONS corrective actions of the inspection, oldest first. */
  actions: ReportAction[];
  /** How many corrective actions the inspection has, listed or not. */
  actionCount: number;
  /** Everyone who worked on it: who started, answered, uploaded and submitted, in that order. */
  inspectors: string[];
  /** Each shown signature's image, or why the report leaves it out, by item key. */
  signatureImages: Map<string, SignatureImage>;
  /** What is left of the report's decoded pixels once the signatures took theirs; PNG photos take from it. */
  decodeBudget: PixelBudget;
  /** The site's score trend for the template (docs/analytics.md, "In the report"). */
  scoreTrend: ReportScoreTrend;
}

/** The site's average score per period for the inspection's template, as analytics counts it. */
export interface ReportScoreTrend {
  interval: AnalyticsInterval;
  /** The first and last local days covered: the 12 months up to the inspection's submission (or today). */
  from: string;
  to: string;
  periods: Array<{ period_start: string; inspections: number; scored: number; average_score: number | null }>;
}

/**
 * The report's trend: months, so a year of a monthly audit fills it (weeks would leave most of a
 * weekly report's periods empty for the commonest, monthly, rhythm); 12 of them, as the analytics
 * page shows by default. Fixed by the inspection, not by the day the report is made, so a report
 * made again later shows the same trend unless the inspections in it changed.
 */
export const REPORT_TREND_INTERVAL: AnalyticsInterval = 'month';

/** A signature's PNG to draw, or why the report leaves it out (placeholder wording). */
export type SignatureImage = { dataUrl: string } | { omitted: string };

/** An answers row as the report reads it: a signature's image left behind, its header and length read instead. */
interface AnswerRow extends ReportAnswer {
  item_key: string;
  image_head: string | null;
  image_length: number | null;
}

/**
 * Corrective actions a report lists. An inspection's submit opens one a failed item (at most 500),
 * and people may add any number more; each takes up to a few KB of text in memory and on paper.
 */
export const REPORT_MAX_ACTIONS = 1000;

/** What the report shows, read as the caller (RLS): 404 for an inspection they cannot see. */
export async function readReportData(tx: Tx, orgId: string, inspectionId: string): Promise<ReportData> {
  const [row] = await tx`
    select i.id, i.title, i.status, i.external_ref, i.due_at, i.started_at, i.submitted_at, i.reviewed_at, i.review_note,
           i.canceled_at, i.score, i.max_score, i.failed_count, i.start_distance_m, i.start_accuracy_m, i.start_outside_geofence,
           i.hidden_item_keys, i.site_id, i.template_id,
           -- The trend ends with the inspection's local day of submission (or today's, before it).
           (coalesce(i.submitted_at, now()) at time zone s.timezone)::date::text as trend_to,
           pa.display_name as assignee_name, ps.display_name as started_by_name, pu.display_name as submitted_by_name,
           pr.display_name as reviewed_by_name,
           o.name as org_name, o.slug as org_slug,
           s.name as site_name, s.address, s.latitude, s.longitude, s.geofence_m, s.timezone, s.external_ref as site_external_ref,
           v.name as template_name, v.version as template_version, v.definition
    from public.inspections i
    join public.organizations o on o.id = i.org_id
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    left join public.profiles pa on pa.user_id = i.assignee_id
    left join public.profiles ps on ps.user_id = i.started_by
    left join public.profiles pu on pu.user_id = i.submitted_by
    left join public.profiles pr on pr.user_id = i.reviewed_by
    where i.org_id = ${orgId} and i.id = ${inspectionId}
  `;
  if (!row) throw ApiError.notFound('inspection');
  const trendTo: string = row.trend_to;
  const trendFrom = shiftPeriod(periodStart(trendTo, REPORT_TREND_INTERVAL), REPORT_TREND_INTERVAL, 1 - ANALYTICS_DEFAULT_PERIODS);
  const [answers, photos, actions, [{ action_count }], trend] = await Promise.all([
    // A signature's image (up to 200 000 characters each, 500 of them) is not read here: only its
    // header, for its size, and its length. The images the report draws are read below.
    tx<AnswerRow[]>`
      select a.item_key, a.note, a.failed, a.answered_at, p.display_name as answered_by_name,
             case when jsonb_typeof(a.value -> 'image') = 'string' then a.value - 'image' else a.value end as value,
             left(a.value ->> 'image', ${PNG_DATA_URL_PREFIX.length + HEADER_BASE64_LENGTH}) as image_head,
             length(a.value ->> 'image') as image_length
      from public.answers a left join public.profiles p on p.user_id = a.answered_by
      where a.inspection_id = ${inspectionId}
      order by a.answered_at
    `,
    tx<ReportPhoto[]>`
      select t.id, t.item_key, t.object_path, t.content_type, t.byte_size::float8 as byte_size, t.created_at,
             p.display_name as uploaded_by_name
      from public.attachments t left join public.profiles p on p.user_id = t.uploaded_by
      where t.inspection_id = ${inspectionId} and t.confirmed_at is not null
      order by t.created_at, t.id
    `,
    tx<ReportAction[]>`
      select a.item_key, a.title, a.priority, a.status, a.due_at, a.resolution_note, p.display_name as assignee_name
      from public.actions a left join public.profiles p on p.user_id = a.assignee_id
      where a.inspection_id = ${inspectionId}
      order by a.created_at, a.id
      limit ${REPORT_MAX_ACTIONS}
    `,
    tx<Array<{ action_count: number }>>`select count(*)::int as action_count from public.actions where inspection_id = ${inspectionId}`,
    // From the analytics rollups, by the analytics measure's own statement, as the caller (their RLS).
    tx.unsafe<ReportScoreTrend['periods']>(
      scoresStatement({ org: orgId, from: trendFrom, to: trendTo, siteId: row.site_id, templateId: row.template_id }, REPORT_TREND_INTERVAL).text,
    ),
  ]);
  const names = [row.started_by_name, ...answers.map((a) => a.answered_by_name), ...photos.map((p) => p.uploaded_by_name), row.submitted_by_name];
  const hidden = new Set<string>(row.hidden_item_keys ?? []);
  const decodeBudget = new PixelBudget(REPORT_DECODE_PIXELS);
  const signatureImages = await readSignatureImages(tx, inspectionId, row.definition, hidden, answers, decodeBudget);
  return {
    generatedAt: new Date().toISOString(),
    organization: { name: row.org_name, slug: row.org_slug },
    inspection: {
      id: row.id,
      title: row.title,
      status: row.status,
      external_ref: row.external_ref,
      assignee_name: row.assignee_name,
      due_at: row.due_at,
      started_at: row.started_at,
      started_by_name: row.started_by_name,
      submitted_at: row.submitted_at,
      submitted_by_name: row.submitted_by_name,
      reviewed_at: row.reviewed_at,
      reviewed_by_name: row.reviewed_by_name,
      review_note: row.review_note,
      canceled_at: row.canceled_at,
      score: Number(row.score),
      max_score: Number(row.max_score),
      failed_count: row.failed_count,
      start_distance_m: row.start_distance_m,
      start_accuracy_m: row.start_accuracy_m,
      start_outside_geofence: row.start_outside_geofence,
      hidden,
    },
    site: {
      name: row.site_name,
      address: row.address,
      latitude: row.latitude,
      longitude: row.longitude,
      geofence_m: row.geofence_m,
      timezone: row.timezone,
      external_ref: row.site_external_ref,
    },
    template: { name: row.template_name, version: row.template_version, definition: row.definition },
    answers: new Map(answers.map(({ item_key, value, note, failed, answered_by_name, answered_at }) => [
      item_key,
      { value, note, failed, answered_by_name, answered_at },
    ])),
    photos: [...photos],
    actions: [...actions],
    actionCount: action_count,
    inspectors: [...new Set(names.filter((name): name is string => typeof name === 'string' && name.length > 0))],
    signatureImages,
    decodeBudget,
    scoreTrend: { interval: REPORT_TREND_INTERVAL, from: trendFrom, to: trendTo, periods: [...trend] },
  };
}

/**
 * The signatures the report draws, in the template's order, each read from its header before any
 * is fetched: one over SIGNATURE_MAX_PIXELS (stored before that rule) is left out, and so is any
 * beyond the report's decoded pixels or SIGNATURE_IMAGES_MAX_CHARACTERS of data URLs. Then the
 * chosen images are read, in the same transaction.
 */
async function readSignatureImages(
  tx: Tx,
  inspectionId: string,
  definition: TemplateDefinition,
  hidden: Set<string>,
  answers: AnswerRow[],
  budget: PixelBudget,
): Promise<Map<string, SignatureImage>> {
  const byKey = new Map(answers.map((answer) => [answer.item_key, answer]));
  const images = new Map<string, SignatureImage>();
  const chosen: string[] = [];
  let characters = 0;
  for (const item of definition.sections.flatMap((section) => section.items)) {
    const answer = byKey.get(item.key);
    // Hidden items are listed without their answer's image.
    if (item.kind !== 'signature' || hidden.has(item.key) || !answer?.image_head) continue;
    const header = pngHeaderOfDataUrl(answer.image_head);
    if (!header) {
      images.set(item.key, { omitted: 'The signature image could not be read.' });
      continue;
    }
    const pixels = header.width * header.height;
    if (pixels > SIGNATURE_MAX_PIXELS) {
      images.set(item.key, { omitted: `Signature image too large to include — ${megapixels(pixels)} MP (a report includes signatures of up to ${SIGNATURE_MAX_PIXELS / 1e6} MP).` });
    } else if (characters + (answer.image_length ?? 0) > SIGNATURE_IMAGES_MAX_CHARACTERS || !budget.take(pixels)) {
      images.set(item.key, { omitted: `Signature image not included: this report has reached its limit of ${REPORT_DECODE_PIXELS / 1e6} MP of signatures and transparent PNG photos.` });
    } else {
      characters += answer.image_length ?? 0;
      chosen.push(item.key);
    }
  }
  if (chosen.length > 0) {
    const rows = await tx<Array<{ item_key: string; image: string }>>`
      select item_key, value ->> 'image' as image from public.answers where inspection_id = ${inspectionId} and item_key in ${tx(chosen)}
    `;
    for (const { item_key, image } of rows) {
      // Saved again between the two reads: the size checked above is not this image's.
      const checked = byKey.get(item_key)!;
      const same = image.length === checked.image_length && image.startsWith(checked.image_head!);
      images.set(item_key, same ? { dataUrl: image } : { omitted: 'The signature changed while this report was made: download the report again.' });
    }
  }
  return images;
}
