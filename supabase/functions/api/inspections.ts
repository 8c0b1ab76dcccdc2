// Inspections: `GET·POST /orgs/{org}/inspections`, `GET·PATCH /orgs/{org}/inspections/{id}`,
// `POST …/{id}/start|submit|review|cancel`. Every member reads them; managers schedule, edit,
// review and cancel; fillers start and submit (inspectors only theirs or unassigned ones). Each
// move is one update of `status`: the database decides whether it is allowed
// (`private.enforce_inspection_transition` in supabase/schema.sql) and stamps who, when and where.
import { z } from 'zod';
import { containsPattern, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
import {
  type Inspection,
  INSPECTION_MANAGERS,
  inspectionCreateSchema,
  type InspectionDetail,
  inspectionDetailSchema,
  inspectionListQuerySchema,
  inspectionReviewSchema,
  inspectionSchema,
  inspectionStartSchema,
  type InspectionStatus,
  inspectionUpdateSchema,
} from '../_shared/schemas/inspections.ts';
import { iso, requireRole, roleAllowed, roleStatement } from './access.ts';
import { mailNewAssignees } from './action-mail.ts';
import { SELECT_ANSWERS } from './answer-statements.ts';
import { answerOf, type AnswerRow } from './answers.ts';
import { attachmentOf, type AttachmentRow } from './attachments.ts';
import { localDayBetween } from './local-days.ts';
import { MISSED, OUTCOMES } from './occurrence-outcomes.ts';
import { orgParams } from './orgs.ts';
import {
  bySiteSql,
  inSiteGroup,
  orgWideSql,
  type ReadPlan,
  readPlanStatement,
  rememberedReadPlan,
  rememberReadPlan,
  seenSitesSql,
} from './site-groups.ts';
import { SELECT_TEMPLATE_VERSIONS, templateVersionOf, type TemplateVersionRow } from './templates.ts';

/** An inspections row with its site, version and assignee names, as postgres.js returns it. */
export type InspectionRow =
  & Omit<
    Inspection,
    | 'score' | 'max_score' | 'due_at' | 'started_at' | 'submitted_at' | 'reviewed_at' | 'canceled_at' | 'created_at' | 'updated_at'
    | 'occurrence_at' | 'first_submitted_at'
  >
  & {
    // numeric columns arrive as strings.
    score: string;
    max_score: string;
    due_at: Date | null;
    started_at: Date | null;
    submitted_at: Date | null;
    reviewed_at: Date | null;
    canceled_at: Date | null;
    created_at: Date;
    updated_at: Date;
    occurrence_at: Date | null;
    first_submitted_at: Date | null;
    template_version_id: string;
    created_at_key: string;
  };

const inspectionParams = z.strictObject({ org: idSchema, id: idSchema });

/** Overdue is derived, never stored: due_at has passed while the work is open (inspections as `i`). */
export const OVERDUE = inline`(i.status in ('scheduled', 'in_progress') and i.due_at is not null and i.due_at < now())`;
export const overdueCondition = (tx: Tx) => tx.unsafe(OVERDUE.text);


type InspectionFilterQuery = {
  status?: string[];
  q?: string;
  site_id?: string;
  site_group_id?: string;
  assignee_id?: string;
  overdue?: boolean;
  updated_since?: string;
  schedule_id?: string;
  missed?: boolean;
  outcome?: 'on_time' | 'late' | 'missed';
  due_from?: string;
  due_to?: string;
  due_before?: string;
  template_id?: string;
  submitted_day_from?: string;
  submitted_day_to?: string;
  due_day_from?: string;
  due_day_to?: string;
  failed_item?: string;
};

/**
 * The list's filters, on inspections `i` and their sites `s`, with the values as literals
 * (sql-literal.ts), so the list can be read in one round trip; the CSV reports apply the same
 * through `inspectionFilters` (report-csv/records.ts).
 */
function inspectionFilterSql(orgId: string, query: InspectionFilterQuery): InlineSql {
  return inline`
    i.org_id = ${orgId}
    and ${query.status ? inline`i.status in ${query.status}` : inline`true`}
    and ${query.q ? inline`(i.title ilike ${containsPattern(query.q)} or s.name ilike ${containsPattern(query.q)})` : inline`true`}
    and ${query.site_id ? inline`i.site_id = ${query.site_id}` : inline`true`}
    and ${inSiteGroup(inline`i.site_id`, orgId, query.site_group_id)}
    and ${query.assignee_id === 'none' ? inline`i.assignee_id is null` : query.assignee_id ? inline`i.assignee_id = ${query.assignee_id}` : inline`true`}
    and ${query.overdue === undefined ? inline`true` : query.overdue ? OVERDUE : inline`not ${OVERDUE}`}
    and ${query.schedule_id ? inline`i.schedule_id = ${query.schedule_id}` : inline`true`}
    and ${query.missed === undefined ? inline`true` : query.missed ? MISSED : inline`not ${MISSED}`}
    and ${query.outcome ? OUTCOMES[query.outcome] : inline`true`}
    and ${query.due_from ? inline`i.due_at >= ${query.due_from}::timestamptz` : inline`true`}
    and ${query.due_to ? inline`i.due_at < ${query.due_to}::timestamptz` : inline`true`}
    -- Inclusive: a change in the same instant as the caller's last sync is not missed.
    and ${query.updated_since ? inline`i.updated_at >= ${query.updated_since}::timestamptz` : inline`true`}
    and ${query.due_before ? inline`i.due_at < ${query.due_before}::timestamptz` : inline`true`}
    and ${query.template_id ? inline`i.template_id = ${query.template_id}` : inline`true`}
    and ${localDayBetween(inline`i.submitted_at`, inline`s.timezone`, query.submitted_day_from, query.submitted_day_to)}
    and ${localDayBetween(inline`i.due_at`, inline`s.timezone`, query.due_day_from, query.due_day_to)}
    -- As analytics counts a failed item: a failed answer to an item the rules do not hide.
    and ${query.failed_item
      ? inline`exists (select 1 from public.answers x where x.inspection_id = i.id and x.item_key = ${query.failed_item}
                        and x.failed and x.item_key <> all (i.hidden_item_keys))`
      : inline`true`}
  `;
}

export const inspectionFilters = (tx: Tx, orgId: string, query: InspectionFilterQuery) => tx.unsafe(inspectionFilterSql(orgId, query).text);

/** What a list shows of each inspection `i`, beside it: its site `s`, version `v` and assignee `p`. */
const INSPECTION_COLUMNS = inline`
  i.*, s.name as site_name, s.timezone as site_timezone, v.version as template_version, v.name as template_name,
  p.display_name as assignee_name,
  -- Progress as the run page counts it: the items that show (hidden_item_keys, kept by the
  -- answers trigger), answered with a value, or for photo items with a confirmed photo. Counted
  -- past the answers' and photos' policies, the rule asked once for the inspection
  -- (private.answered_count_of_inspection; docs/site-groups.md, "Hot paths").
  v.item_count - cardinality(i.hidden_item_keys) as item_count,
  (select c.answered_count from private.answered_count_of_inspection c where c.inspection_id = i.id) as answered_count,
  ${OVERDUE} as overdue,
  ${MISSED} as missed,
  -- The cursor keeps created_at's microseconds: JavaScript dates stop at milliseconds.
  to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_key
`;

/** The tables INSPECTION_COLUMNS reads beside the inspection `i`. */
const INSPECTION_JOINS = inline`
  join public.sites s on s.id = i.site_id
  join public.template_versions v on v.id = i.template_version_id
  left join public.profiles p on p.user_id = i.assignee_id
`;

/** Inspections with what a list shows beside them. */
export const SELECT_INSPECTIONS = inline`
  select ${INSPECTION_COLUMNS}
  from public.inspections i
  ${INSPECTION_JOINS}
`;
const selectInspections = (tx: Tx) => tx.unsafe(SELECT_INSPECTIONS.text);

const round = (value: number | null) => (value === null ? null : Math.round(value));

export function inspectionOf(row: InspectionRow): Inspection {
  return {
    id: row.id,
    org_id: row.org_id,
    site_id: row.site_id,
    site_name: row.site_name,
    site_timezone: row.site_timezone,
    template_id: row.template_id,
    template_version: row.template_version,
    template_name: row.template_name,
    title: row.title,
    assignee_id: row.assignee_id,
    assignee_name: row.assignee_name,
    due_at: iso(row.due_at),
    status: row.status,
    overdue: row.overdue,
    score: Number(row.score),
    max_score: Number(row.max_score),
    failed_count: row.failed_count,
    item_count: row.item_count,
    answered_count: row.answered_count,
    hidden_item_keys: row.hidden_item_keys,
    started_at: iso(row.started_at),
    started_by: row.started_by,
    start_latitude: row.start_latitude,
    start_longitude: row.start_longitude,
    start_accuracy_m: row.start_accuracy_m,
    start_distance_m: round(row.start_distance_m),
    start_outside_geofence: row.start_outside_geofence,
    submitted_at: iso(row.submitted_at),
    submitted_by: row.submitted_by,
    reviewed_at: iso(row.reviewed_at),
    reviewed_by: row.reviewed_by,
    review_note: row.review_note,
    canceled_at: iso(row.canceled_at),
    canceled_reason: row.canceled_reason,
    schedule_id: row.schedule_id,
    occurrence_at: iso(row.occurrence_at),
    first_submitted_at: iso(row.first_submitted_at),
    missed: row.missed,
    external_ref: row.external_ref,
    version: row.version,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The fields a body gives; an absent one stays as it is (or takes the column's default). */
function givenFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

async function readInspection(tx: Tx, orgId: string, id: string): Promise<InspectionRow> {
  const [row] = await tx<InspectionRow[]>`${selectInspections(tx)} where i.org_id = ${orgId} and i.id = ${id}`;
  if (!row) throw ApiError.notFound('inspection');
  return row;
}

/**
 * Applies one update as the caller and returns the inspection as it is afterwards. RLS hides the
 * row from members who may not change it (viewers, inspectors on someone else's): a 403 when they
 * can read it, else a 404; the transitions trigger raises the product errors itself.
 */
async function updateInspection(tx: Tx, orgId: string, id: string, changes: Record<string, unknown>): Promise<Inspection> {
  const [updated] = await tx`
    update public.inspections set ${tx(changes)} where org_id = ${orgId} and id = ${id} returning id
  `;
  // Read after the update, so one query serves both the result and the 404 of a missing row.
  const row = await readInspection(tx, orgId, id);
  if (!updated) throw ApiError.forbidden();
  return inspectionOf(row);
}

/** The list's page by the organization's newest-first index: right for everyone, fast for org-wide callers. */
function walkedPageSql(orgId: string, query: InspectionFilterQuery, after: unknown[] | null, limit: number): InlineSql {
  return inline`
    ${SELECT_INSPECTIONS}
    where ${inspectionFilterSql(orgId, query)} and ${pageCursor('i', after)}
    order by i.created_at desc, i.id desc
    limit ${limit}
  `;
}

/**
 * The list's page by private.inspections_by_site_group, which keeps each inspection's site group
 * in the order of the list: its index-only walk drops the inspections of sites the caller does
 * not see by their group, without looking each one's site up, and only the inspections it keeps
 * are read (under their own policy, as always). Right for everyone; fast for a limited caller who
 * sees too many sites to read the list site by site (docs/site-groups.md, "Hot paths").
 */
function groupWalkedPageSql(orgId: string, query: InspectionFilterQuery, after: unknown[] | null, limit: number): InlineSql {
  return inline`
    select ${INSPECTION_COLUMNS}
    from private.inspections_by_site_group w
    join public.inspections i on i.id = w.inspection_id
    ${INSPECTION_JOINS}
    where w.org_id = ${orgId} and ${inspectionFilterSql(orgId, query)} and ${pageCursor('w', after)}
    order by w.created_at desc, w.inspection_id desc
    limit ${limit}
  `;
}

/** The list's order: newest first, on public.inspections `i` or on private.inspections_by_site_group `w`. */
const ORDER_COLUMNS = {
  i: [inline`i.created_at`, inline`i.id`],
  w: [inline`w.created_at`, inline`w.inspection_id`],
} as const;

/** After the cursor's inspection, in the list's order. */
function pageCursor(on: keyof typeof ORDER_COLUMNS, after: unknown[] | null): InlineSql {
  const [createdAt, id] = ORDER_COLUMNS[on];
  return after ? inline`(${createdAt}, ${id}) < (${after[0] as string}::text::timestamptz, ${after[1] as string}::uuid)` : inline`true`;
}

/**
 * The list's page, its ids found the cheapest way for the caller and then read whole: site by site
 * when bySiteSql holds (a limited caller who sees few sites), by private.inspections_by_site_group
 * for other limited callers, by the organization's index for org-wide ones. The gate is decided
 * once, before any branch runs (its filters hold no column, so Postgres evaluates them first and
 * skips the branches they rule out), so this is right for any caller whatever it was last time.
 */
export function gatedPageSql(orgId: string, query: InspectionFilterQuery, after: unknown[] | null, limit: number): InlineSql {
  const filters = inspectionFilterSql(orgId, query);
  return inline`
    with gate as materialized (select ${orgWideSql(orgId)} as org_wide, ${bySiteSql(orgId)} as by_site),
    page as (
      (
        select p.id, p.created_at
        from (${seenSitesSql(orgId)}) seen
        cross join lateral (
          select i.id, i.created_at from public.inspections i join public.sites s on s.id = i.site_id
          where i.site_id = seen.id and ${filters} and ${pageCursor('i', after)}
          order by i.created_at desc, i.id desc
          limit ${limit}
        ) p
        where (select g.by_site from gate g)
        order by p.created_at desc, p.id desc
        limit ${limit}
      )
      union all
      (
        select w.inspection_id, w.created_at
        from private.inspections_by_site_group w
        join public.inspections i on i.id = w.inspection_id
        join public.sites s on s.id = i.site_id
        where w.org_id = ${orgId} and ${filters} and ${pageCursor('w', after)}
          and not (select g.by_site or g.org_wide from gate g)
        order by w.created_at desc, w.inspection_id desc
        limit ${limit}
      )
      union all
      (
        select i.id, i.created_at from public.inspections i join public.sites s on s.id = i.site_id
        where ${filters} and ${pageCursor('i', after)} and (select g.org_wide from gate g)
        order by i.created_at desc, i.id desc
        limit ${limit}
      )
    )
    ${SELECT_INSPECTIONS}
    where i.id in (select page.id from page)
    order by i.created_at desc, i.id desc
  `;
}

/**
 * Keeps the joins of the next statement in the order written (for the transaction: the read's
 * message). Without a filter the group walk drives the page whatever the planner weighs, and its
 * search over five tables was 0.3 ms of a limited member's 3.6 ms list statement
 * (docs/site-groups.md, "Hot paths"); with one, the planner may rightly start elsewhere (a site's
 * inspections by their site's index), so it is left to choose.
 */
const JOINS_IN_WRITTEN_ORDER = inline`select set_config('join_collapse_limit', '1', true)`;

/** Every filter of the list (the type makes a new one be named here). */
const FILTERS: Record<keyof InspectionFilterQuery, true> = {
  status: true, q: true, site_id: true, site_group_id: true, assignee_id: true, overdue: true, updated_since: true,
  schedule_id: true, missed: true, outcome: true, due_from: true, due_to: true, due_before: true,
  template_id: true, submitted_day_from: true, submitted_day_to: true, due_day_from: true, due_day_to: true, failed_item: true,
};

/** Whether the list's query narrows it by any filter (the cursor is not one). */
const isFiltered = (query: InspectionFilterQuery) =>
  (Object.keys(FILTERS) as (keyof InspectionFilterQuery)[]).some((name) => query[name] !== undefined);

/**
 * The statements that read the page for a caller whose read plan is known (rememberedReadPlan), or
 * the gated one; the page is the last one's rows.
 */
function pageStatements(plan: ReadPlan | undefined, orgId: string, query: InspectionFilterQuery, after: unknown[] | null, limit: number): InlineSql[] {
  if (!plan || plan.bySite) return [gatedPageSql(orgId, query, after, limit)];
  if (plan.orgWide) return [walkedPageSql(orgId, query, after, limit)];
  const page = groupWalkedPageSql(orgId, query, after, limit);
  return isFiltered(query) ? [page] : [JOINS_IN_WRITTEN_ORDER, page];
}

export const listInspections = route({
  method: 'GET',
  response: { list: inspectionSchema },
  path: '/orgs/:org/inspections',
  params: orgParams,
  query: inspectionListQuerySchema,
  handler: async ({ principal, params, query, read }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    // Read by the statement for the caller's plan when it is known; else the gated statement, which
    // finds out in SQL (site-groups.ts, rememberedReadPlan).
    const plan = rememberedReadPlan(principal, params.org);
    // The membership check and the page in one round trip (issue 15): RLS shows a non-member no
    // rows, and the check's 404 wins when it fails. Not known yet: the plan to remember too.
    const page = pageStatements(plan, params.org, query, after, query.limit + 1);
    const [role, ...results] = await read([roleStatement(params.org), ...page, ...(plan ? [] : [readPlanStatement(params.org)])]);
    const [rows, planRows] = [results[page.length - 1], results[page.length]];
    roleAllowed(role);
    if (planRows) rememberReadPlan(principal, params.org, planRows as never);
    return pageOf(rows as InspectionRow[], query.limit, inspectionOf, (row) => [row.created_at_key, row.id]);
  },
});

export const createInspection = route({
  method: 'POST',
  response: inspectionSchema,
  path: '/orgs/:org/inspections',
  params: orgParams,
  body: inspectionCreateSchema,
  status: 201,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, INSPECTION_MANAGERS);
      // The database pins the template's latest version and words the default title.
      const [created] = await tx`insert into public.inspections ${tx({ org_id: params.org, ...givenFields(body) })} returning id`;
      return inspectionOf(await readInspection(tx, params.org, created.id));
    });
  },
});

export const getInspection = route({
  method: 'GET',
  response: inspectionDetailSchema,
  path: '/orgs/:org/inspections/:id',
  params: inspectionParams,
  handler: async ({ params, read }): Promise<InspectionDetail> => {
    // Everything the run page opens with, in one round trip (issue 15). The version is found
    // through the inspection, and RLS shows a non-member none of these rows: the membership
    // check's 404 wins, then the inspection's.
    const [role, [row], [version], answers, attachments] = await read([
      roleStatement(params.org),
      inline`${SELECT_INSPECTIONS} where i.org_id = ${params.org} and i.id = ${params.id}`,
      inline`${SELECT_TEMPLATE_VERSIONS}
        where v.id = (select i.template_version_id from public.inspections i where i.org_id = ${params.org} and i.id = ${params.id})`,
      inline`${SELECT_ANSWERS} where a.inspection_id = ${params.id} order by a.item_key`,
      inline`select * from public.attachments where inspection_id = ${params.id} order by created_at, id`,
    ]);
    roleAllowed(role);
    if (!row) throw ApiError.notFound('inspection');
    return {
      ...inspectionOf(row as InspectionRow),
      template: templateVersionOf(version as TemplateVersionRow),
      answers: (answers as AnswerRow[]).map(answerOf),
      attachments: (attachments as AttachmentRow[]).map(attachmentOf),
    };
  },
});

export const patchInspection = route({
  method: 'PATCH',
  response: inspectionSchema,
  path: '/orgs/:org/inspections/:id',
  params: inspectionParams,
  body: inspectionUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, INSPECTION_MANAGERS);
      return await updateInspection(tx, params.org, params.id, givenFields(body));
    });
  },
});

/** A status move by a member; who may make it is for the database to say. */
async function moveTo(
  tx: Tx,
  orgId: string,
  id: string,
  changes: { status: InspectionStatus; review_note?: string | null },
  allowed?: readonly Role[],
) {
  await requireRole(tx, orgId, allowed);
  return await updateInspection(tx, orgId, id, changes);
}

export const startInspection = route({
  method: 'POST',
  response: inspectionSchema,
  path: '/orgs/:org/inspections/:id/start',
  params: inspectionParams,
  body: inspectionStartSchema,
  handler: async ({ params, body, db }) => {
    // A continue after changes keeps the first start's position, so only a first start sends one.
    const position = { start_latitude: body.latitude ?? null, start_longitude: body.longitude ?? null, start_accuracy_m: body.accuracy_m ?? null };
    return await db(async (tx) => {
      await requireRole(tx, params.org);
      const current = await readInspection(tx, params.org, params.id);
      return await updateInspection(tx, params.org, params.id, { status: 'in_progress', ...(current.started_at === null ? position : {}) });
    });
  },
});

export const submitInspection = route({
  method: 'POST',
  response: inspectionSchema,
  path: '/orgs/:org/inspections/:id/submit',
  params: inspectionParams,
  handler: async ({ params, db, afterCommit }) => {
    return await db(async (tx) => {
      const submitted = await moveTo(tx, params.org, params.id, { status: 'submitted' });
      // The submit opened an action per failed item in this transaction (created now): tell
      // their assignees, unless that is the submitter.
      const opened = await tx<{ id: string }[]>`
        select id from public.actions where inspection_id = ${params.id} and origin = 'submit' and created_at = now()
      `;
      afterCommit(await mailNewAssignees(tx, opened.map((row) => row.id)));
      return submitted;
    });
  },
});

export const reviewInspection = route({
  method: 'POST',
  response: inspectionSchema,
  path: '/orgs/:org/inspections/:id/review',
  params: inspectionParams,
  body: inspectionReviewSchema,
  handler: async ({ params, body, db }) => {
    const status = body.decision === 'approve' ? 'approved' : 'changes_requested';
    return await db((tx) => moveTo(tx, params.org, params.id, { status, review_note: body.note ?? null }, INSPECTION_MANAGERS));
  },
});

export const cancelInspection = route({
  method: 'POST',
  response: inspectionSchema,
  path: '/orgs/:org/inspections/:id/cancel',
  params: inspectionParams,
  handler: async ({ params, db }) => {
    return await db((tx) => moveTo(tx, params.org, params.id, { status: 'canceled' }, INSPECTION_MANAGERS));
  },
});
