// Schedules: `GET·POST /orgs/{org}/schedules`, `GET·PATCH·DELETE /orgs/{org}/schedules/{id}`,
// `POST …/{id}/pause`, `POST …/{id}/resume`, `GET …/{id}/occurrences?from&to`, and
// `GET /orgs/{org}/compliance?from&to&group_by` (docs/schedules.md). Every member and key reads them;
// owners, admins, managers and manager keys change them. The database makes, changes and cancels
// the occurrences' inspections in the same transaction as each change (its triggers), and says
// what is refused; these handlers only choose between 404 and 403 and shape the answers.
import { z } from 'zod';
import { containsPattern, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import {
  type Compliance,
  type ComplianceFigures,
  complianceSchema,
  type ComplianceGroupBy,
  complianceQuerySchema,
  isoDuration,
  occurrencesQuerySchema,
  type OccurrenceState,
  type Schedule,
  scheduleCreateSchema,
  type ScheduleDetail,
  scheduleDetailSchema,
  scheduleListQuerySchema,
  type ScheduleOccurrence,
  scheduleOccurrenceSchema,
  scheduleSchema,
  type ScheduleSite,
  scheduleUpdateSchema,
} from '../_shared/schemas/schedules.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { iso, requireRole, roleAllowed, roleStatement, SITE_MANAGERS } from './access.ts';
import { inspectionOf, type InspectionRow, SELECT_INSPECTIONS } from './inspections.ts';
import { OUTCOMES } from './occurrence-outcomes.ts';
import { orgParams } from './orgs.ts';
import { inSiteGroup, readPlanStatement, rememberedReadPlan, rememberReadPlan, rowsAtSeenSites } from './site-groups.ts';

/** Who changes schedules (docs/product.md §6): those who manage sites and templates. */
export const SCHEDULE_MANAGERS = SITE_MANAGERS;

const scheduleParams = z.strictObject({ org: idSchema, id: idSchema });

type ScheduleRow = Omit<Schedule, 'due_after' | 'paused' | 'paused_at' | 'deleted_at' | 'next_occurrence_at' | 'created_at' | 'updated_at'> & {
  due_after_minutes: number;
  paused_at: Date | null;
  deleted_at: Date | null;
  next_occurrence_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** Schedules with what a list shows beside them (schedules as `s`). */
const SELECT_SCHEDULES = inline`
  select s.id, s.org_id, s.name, s.template_id, t.name as template_name, s.rrule,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         to_char(s.time_of_day, 'HH24:MI') as time_of_day, (extract(epoch from s.due_after) / 60)::int as due_after_minutes,
         s.assignee_id, p.display_name as assignee_name, s.rotation_user_ids, s.title_pattern,
         (select count(*)::int from public.schedule_sites ss where ss.schedule_id = s.id) as site_count,
         s.paused_at, s.deleted_at,
         -- In order by inspections_schedule_occurrence_key (schedule, occurrence, site).
         (select i.occurrence_at from public.inspections i
          where i.schedule_id = s.id and i.canceled_reason is null and i.occurrence_at >= now() and i.status = 'scheduled'
          order by i.occurrence_at limit 1) as next_occurrence_at,
         s.version, s.created_by, s.created_at, s.updated_at
  from public.schedules s
  join public.templates t on t.id = s.template_id
  left join public.profiles p on p.user_id = s.assignee_id
`;

function scheduleOf(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    template_id: row.template_id,
    template_name: row.template_name,
    rrule: row.rrule,
    start_date: row.start_date,
    end_date: row.end_date,
    time_of_day: row.time_of_day,
    due_after: isoDuration(row.due_after_minutes),
    assignee_id: row.assignee_id,
    assignee_name: row.assignee_name,
    rotation_user_ids: row.rotation_user_ids,
    title_pattern: row.title_pattern,
    site_count: row.site_count,
    paused: row.paused_at !== null,
    paused_at: iso(row.paused_at),
    deleted_at: iso(row.deleted_at),
    next_occurrence_at: iso(row.next_occurrence_at),
    version: row.version,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

async function readSchedule(tx: Tx, orgId: string, id: string): Promise<ScheduleDetail> {
  const [row] = await tx.unsafe<ScheduleRow[]>(inline`${SELECT_SCHEDULES} where s.org_id = ${orgId} and s.id = ${id}`.text);
  if (!row) throw ApiError.notFound('schedule');
  const sites = await tx<ScheduleSite[]>`
    select st.id, st.name, st.timezone, st.archived_at is not null as archived
    from public.schedule_sites ss join public.sites st on st.id = ss.site_id
    where ss.schedule_id = ${id}
    order by st.name, st.id
  `;
  return { ...scheduleOf(row), sites: [...sites] };
}

/** What a change checks before it writes: lighter than readSchedule, which the answer reads once at the end. */
interface ScheduleState {
  deleted: boolean;
  paused: boolean;
  start_date: string;
  end_date: string | null;
}

async function readScheduleState(tx: Tx, orgId: string, id: string): Promise<ScheduleState> {
  const [row] = await tx<ScheduleState[]>`
    select deleted_at is not null as deleted, paused_at is not null as paused,
           to_char(start_date, 'YYYY-MM-DD') as start_date, to_char(end_date, 'YYYY-MM-DD') as end_date
    from public.schedules where org_id = ${orgId} and id = ${id}
  `;
  if (!row) throw ApiError.notFound('schedule');
  return row;
}

/** A deleted schedule is final: what would change it is refused before anything is written. */
function refuseIfDeleted(schedule: ScheduleState, verb: string) {
  if (schedule.deleted) throw ApiError.invalidTransition('deleted', verb, 'schedule');
}

/** Adds and takes off sites; the database makes and cancels their occurrences. */
async function changeSites(tx: Tx, id: string, add: string[], remove: string[]) {
  if (remove.length > 0) await tx`delete from public.schedule_sites where schedule_id = ${id} and site_id = any(${remove}::uuid[])`;
  if (add.length > 0) {
    await tx`
      insert into public.schedule_sites (schedule_id, site_id) select ${id}, unnest(${add}::uuid[])
      on conflict (schedule_id, site_id) do nothing
    `;
  }
}

export const listSchedules = route({
  method: 'GET',
  response: { list: scheduleSchema },
  path: '/orgs/:org/schedules',
  params: orgParams,
  query: scheduleListQuerySchema,
  handler: async ({ params, query, read }) => {
    const after = decodeCursor(query.cursor, ['string', 'uuid']);
    const [role, rows] = await read([roleStatement(params.org), inline`
      ${SELECT_SCHEDULES}
      where s.org_id = ${params.org} and s.deleted_at is null
        and ${query.q ? inline`s.name ilike ${containsPattern(query.q)}` : inline`true`}
        and ${query.template_id ? inline`s.template_id = ${query.template_id}` : inline`true`}
        and ${query.site_id ? inline`exists (select 1 from public.schedule_sites ss where ss.schedule_id = s.id and ss.site_id = ${query.site_id})` : inline`true`}
        and ${query.paused === undefined ? inline`true` : query.paused ? inline`s.paused_at is not null` : inline`s.paused_at is null`}
        and ${after ? inline`(s.name, s.id) > (${after[0] as string}, ${after[1] as string}::uuid)` : inline`true`}
      order by s.name, s.id
      limit ${query.limit + 1}
    `]);
    roleAllowed(role);
    return pageOf(rows as ScheduleRow[], query.limit, scheduleOf, (row) => [row.name, row.id]);
  },
});

export const createSchedule = route({
  method: 'POST',
  response: scheduleDetailSchema,
  path: '/orgs/:org/schedules',
  params: orgParams,
  body: scheduleCreateSchema,
  status: 201,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SCHEDULE_MANAGERS);
      const { site_ids, ...fields } = body;
      const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      const [created] = await tx`insert into public.schedules ${tx({ org_id: params.org, ...given })} returning id`;
      // Adding the sites makes their occurrences of the next 14 days (private.materialise_added_schedule_sites).
      await changeSites(tx, created.id, site_ids, []);
      return await readSchedule(tx, params.org, created.id);
    });
  },
});

export const getSchedule = route({
  method: 'GET',
  response: scheduleDetailSchema,
  path: '/orgs/:org/schedules/:id',
  params: scheduleParams,
  handler: async ({ params, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org);
      return await readSchedule(tx, params.org, params.id);
    });
  },
});

export const updateSchedule = route({
  method: 'PATCH',
  response: scheduleDetailSchema,
  path: '/orgs/:org/schedules/:id',
  params: scheduleParams,
  body: scheduleUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, SCHEDULE_MANAGERS);
      const current = await readScheduleState(tx, params.org, params.id);
      refuseIfDeleted(current, 'edited');
      const { site_ids, add_site_ids, remove_site_ids, ...fields } = body;
      const changes: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      // One assignee or a rotation: setting one clears the other.
      if (changes.assignee_id && changes.rotation_user_ids === undefined) changes.rotation_user_ids = [];
      if (Array.isArray(changes.rotation_user_ids) && changes.rotation_user_ids.length > 0 && changes.assignee_id === undefined) changes.assignee_id = null;
      const start = (changes.start_date as string | undefined) ?? current.start_date;
      const end = changes.end_date === undefined ? current.end_date : (changes.end_date as string | null);
      if (end !== null && end < start) throw ApiError.validation([{ field: 'end_date', message: 'End on or after the start date.' }]);

      // The columns first: the sites added after are made by the rule as it now is.
      if (Object.keys(changes).length > 0) {
        const [updated] = await tx`update public.schedules set ${tx(changes)} where org_id = ${params.org} and id = ${params.id} returning id`;
        if (!updated) throw ApiError.forbidden();
      }
      let add = add_site_ids ?? [];
      let remove = remove_site_ids ?? [];
      if (site_ids) {
        // The whole list given: its sites are read only then (a schedule may have 10,000).
        const rows = await tx<{ site_id: string }[]>`select site_id from public.schedule_sites where schedule_id = ${params.id}`;
        const currentIds = new Set(rows.map((row) => row.site_id));
        const wanted = new Set(site_ids);
        add = site_ids.filter((id) => !currentIds.has(id));
        remove = [...currentIds].filter((id) => !wanted.has(id));
      }
      if (add.length > 0 || remove.length > 0) {
        await changeSites(tx, params.id, add, remove);
        // Its sites changed: a new version of the schedule (an event and a webhook say so).
        if (Object.keys(changes).length === 0) await tx`update public.schedules set name = name where id = ${params.id}`;
      }
      return await readSchedule(tx, params.org, params.id);
    });
  },
});

export const deleteSchedule = route({
  method: 'DELETE',
  empty: true,
  path: '/orgs/:org/schedules/:id',
  params: scheduleParams,
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      await requireRole(tx, params.org, SCHEDULE_MANAGERS);
      const current = await readScheduleState(tx, params.org, params.id);
      // Deleting twice is fine: it is deleted.
      if (current.deleted) return;
      // The database cancels its future occurrences not yet started ("schedule deleted").
      const [deleted] = await tx`update public.schedules set deleted_at = now() where org_id = ${params.org} and id = ${params.id} returning id`;
      // Read but not changeable (RLS): refused, never a 204 that deleted nothing.
      if (!deleted) throw ApiError.forbidden();
    });
  },
});

/** Pause or resume; doing it twice is fine (the schedule is as asked). */
function pauseRoute(path: string, paused: boolean) {
  return route({
    method: 'POST',
    response: scheduleDetailSchema,
    path,
    params: scheduleParams,
    handler: async ({ params, db }) => {
      return await db(async (tx) => {
        await requireRole(tx, params.org, SCHEDULE_MANAGERS);
        const current = await readScheduleState(tx, params.org, params.id);
        refuseIfDeleted(current, paused ? 'paused' : 'resumed');
        // Pausing cancels the future occurrences not yet started; resuming makes them again.
        if (current.paused !== paused) {
          // RLS leaves a schedule the caller may read but not change (a limited manager's, with
          // sites outside their groups) as it is: refused, never a 200 that changed nothing.
          const [changed] = await tx`
            update public.schedules set paused_at = ${paused ? new Date() : null} where org_id = ${params.org} and id = ${params.id} returning id
          `;
          if (!changed) throw ApiError.forbidden();
        }
        return await readSchedule(tx, params.org, params.id);
      });
    },
  });
}

export const pauseSchedule = pauseRoute('/orgs/:org/schedules/:id/pause', true);
export const resumeSchedule = pauseRoute('/orgs/:org/schedules/:id/resume', false);

interface OccurrenceRow {
  site_id: string;
  site_name: string;
  site_timezone: string;
  occurrence_at: Date;
  occurrence_key: string;
  due_at: Date;
  local_start: string;
  n: string | null;
  inspection_id: string | null;
}

/**
 * A page of a schedule's occurrences in [lo, hi): those its rule has now (made or not) and those
 * made under an earlier rule that still stand (not the ones an edit replaced), each with the
 * inspection made for it (a live one before one the schedule canceled), ordered by start and site.
 */
function occurrencesStatement(orgId: string, id: string, lo: string, hi: string, siteId: string | undefined, after: unknown[] | null, limit: number) {
  const sites = siteId ? inline`array[${siteId}]::uuid[]` : inline`null::uuid[]`;
  return inline`
    with s as (
      select sc.id, sc.deleted_at from public.schedules sc where sc.org_id = ${orgId} and sc.id = ${id}
    ), expanded as (
      select o.site_id, o.n, o.local_at, o.occurrence_at, o.due_at
      from s, private.schedule_occurrences(s.id, ${lo}::timestamptz, ${hi}::timestamptz, ${sites}, true) o
      -- A deleted schedule has only its past: the inspections it made.
      where s.deleted_at is null
    ), made as (
      select i.id, i.site_id, i.occurrence_at, i.due_at, i.canceled_reason, i.created_at
      from public.inspections i
      where i.schedule_id = (select s.id from s) and i.occurrence_at >= ${lo}::timestamptz and i.occurrence_at < ${hi}::timestamptz
        and ${siteId ? inline`i.site_id = ${siteId}` : inline`true`}
    ), keys as (
      select e.site_id, e.occurrence_at from expanded e
      union
      select m.site_id, m.occurrence_at from made m where m.canceled_reason is distinct from 'schedule changed'
    )
    select k.site_id, st.name as site_name, st.timezone as site_timezone, k.occurrence_at,
           to_char(k.occurrence_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as occurrence_key,
           coalesce(e.due_at, chosen.due_at) as due_at,
           to_char(coalesce(e.local_at, k.occurrence_at at time zone st.timezone), 'YYYY-MM-DD"T"HH24:MI') as local_start,
           e.n::text as n, chosen.id as inspection_id
    from keys k
    join public.sites st on st.id = k.site_id
    left join expanded e on e.site_id = k.site_id and e.occurrence_at = k.occurrence_at
    left join lateral (
      select m.id, m.due_at from made m
      where m.site_id = k.site_id and m.occurrence_at = k.occurrence_at
      order by m.canceled_reason is null desc, m.created_at desc
      limit 1
    ) chosen on true
    where ${after ? inline`(k.occurrence_at, k.site_id) > (${after[0] as string}::timestamptz, ${after[1] as string}::uuid)` : inline`true`}
    order by k.occurrence_at, k.site_id
    limit ${limit + 1}
  `;
}

/** Where an occurrence stands now (OCCURRENCE_STATES in _shared/schemas/schedules.ts). */
function stateOf(due: Date, inspection: ReturnType<typeof inspectionOf> | null, scheduleStopped: boolean, now: number): OccurrenceState {
  if (!inspection) return due.getTime() > now ? (scheduleStopped ? 'paused' : 'upcoming') : 'not_scheduled';
  if (inspection.status === 'canceled') return 'canceled';
  if (inspection.first_submitted_at !== null) return Date.parse(inspection.first_submitted_at) <= due.getTime() ? 'done_on_time' : 'done_late';
  if (inspection.missed) return 'missed';
  if (inspection.status === 'in_progress') return 'in_progress';
  return inspection.occurrence_at !== null && Date.parse(inspection.occurrence_at) > now ? 'upcoming' : 'scheduled';
}

export const listScheduleOccurrences = route({
  method: 'GET',
  response: { list: scheduleOccurrenceSchema },
  path: '/orgs/:org/schedules/:id/occurrences',
  params: scheduleParams,
  query: occurrencesQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    return await db(async (tx) => {
      await requireRole(tx, params.org);
      const [schedule] = await tx`
        select paused_at is not null or deleted_at is not null as stopped, now() as now
        from public.schedules where org_id = ${params.org} and id = ${params.id}
      `;
      if (!schedule) throw ApiError.notFound('schedule');
      // Read a day, then a week, then the whole range: a schedule of 10,000 sites fills a page
      // from one day's occurrences, one of a site a month needs the range.
      const lo = after && (after[0] as string) > query.from ? (after[0] as string) : query.from;
      let rows: OccurrenceRow[] = [];
      for (const days of [1, 8, Infinity]) {
        const hi = days === Infinity || Date.parse(lo) + days * 86_400_000 >= Date.parse(query.to)
          ? query.to
          : new Date(Date.parse(lo) + days * 86_400_000).toISOString();
        rows = [...await tx.unsafe<OccurrenceRow[]>(occurrencesStatement(params.org, params.id, lo, hi, query.site_id, after, query.limit).text)];
        if (rows.length > query.limit || hi === query.to) break;
      }
      const ids = rows.map((row) => row.inspection_id).filter((id): id is string => id !== null);
      const inspections = new Map(
        ids.length === 0 ? [] : (await tx.unsafe<InspectionRow[]>(inline`${SELECT_INSPECTIONS} where i.org_id = ${params.org} and i.id in ${ids}`.text))
          .map((row) => [row.id, inspectionOf(row)] as const),
      );
      const now = (schedule.now as Date).getTime();
      return pageOf(rows, query.limit, (row): ScheduleOccurrence => {
        const inspection = row.inspection_id ? inspections.get(row.inspection_id) ?? null : null;
        return {
          site_id: row.site_id,
          site_name: row.site_name,
          site_timezone: row.site_timezone,
          occurrence_at: iso(row.occurrence_at),
          due_at: iso(row.due_at),
          local_start: row.local_start,
          n: row.n === null ? null : Number(row.n),
          state: stateOf(row.due_at, inspection, schedule.stopped as boolean, now),
          inspection,
        };
      }, (row) => [row.occurrence_key, row.site_id]);
    });
  },
});

/** Compliance's counts as the database gives them (COMPLIANCE_COUNTS). */
export interface FiguresRow {
  due: number;
  on_time: number;
  late: number;
  missed: number;
}

/** The figures with their rate, from 0 to 1 (4 decimals); null when nothing was due. */
export function figuresOf(row: FiguresRow): ComplianceFigures {
  return { due: row.due, on_time: row.on_time, late: row.late, missed: row.missed, on_time_rate: row.due === 0 ? null : Math.round((row.on_time / row.due) * 10_000) / 10_000 };
}

/**
 * The compliance counts over occurrences `i` (inspections made by schedules): due (not canceled,
 * due time passed), first submitted by the due time, after it, and never (missed, private.occurrence_missed).
 * Each filter is the inspections list's own `outcome=…` filter (OUTCOMES), so the list and the
 * figures agree.
 */
export const COMPLIANCE_COUNTS = inline`
  count(*)::int as due,
  count(*) filter (where ${OUTCOMES.on_time})::int as on_time,
  count(*) filter (where ${OUTCOMES.late})::int as late,
  count(*) filter (where ${OUTCOMES.missed})::int as missed
`;
/**
 * Which occurrences count: a schedule's, not canceled, and judged — due by now, or submitted
 * already (done early is done on time; an open one not yet due is not judged yet).
 */
export const COUNTED_OCCURRENCE = inline`(i.schedule_id is not null and i.status <> 'canceled' and (i.due_at <= now() or i.first_submitted_at is not null))`;

/** How each grouping names its rows (groups as `g`, their id `g.id`). */
const GROUPS: Record<ComplianceGroupBy, { key: InlineSql; name: InlineSql }> = {
  site: { key: inline`i.site_id`, name: inline`(select x.name from public.sites x where x.id = g.id)` },
  schedule: { key: inline`i.schedule_id`, name: inline`(select x.name from public.schedules x where x.id = g.id)` },
  template: { key: inline`i.template_id`, name: inline`(select x.name from public.templates x where x.id = g.id)` },
};

export const getCompliance = route({
  method: 'GET',
  response: complianceSchema,
  path: '/orgs/:org/compliance',
  params: orgParams,
  query: complianceQuerySchema,
  handler: async ({ principal, params, query, read }): Promise<Compliance> => {
    const group = GROUPS[query.group_by];
    // Counted over the sites the caller sees (site-groups.ts, rowsAtSeenSites).
    const plan = rememberedReadPlan(principal, params.org);
    // The membership check and the counts in one round trip; RLS shows a non-member no rows.
    const [role, rows, planRows] = await read([roleStatement(params.org), inline`
      select g.id, ${group.name} as name, g.due, g.on_time, g.late, g.missed
      from (
        select ${group.key} as id, ${COMPLIANCE_COUNTS}
        from ${rowsAtSeenSites('inspections', params.org, plan)} i
        where i.org_id = ${params.org} and ${COUNTED_OCCURRENCE}
          and i.due_at >= ${query.from}::timestamptz and i.due_at < ${query.to}::timestamptz
          and ${query.site_id ? inline`i.site_id = ${query.site_id}` : inline`true`}
          and ${inSiteGroup(inline`i.site_id`, params.org, query.site_group_id)}
          and ${query.schedule_id ? inline`i.schedule_id = ${query.schedule_id}` : inline`true`}
          and ${query.template_id ? inline`i.template_id = ${query.template_id}` : inline`true`}
        group by 1
      ) g
      order by 2, 1
    `, ...(plan ? [] : [readPlanStatement(params.org)])]);
    roleAllowed(role);
    if (planRows) rememberReadPlan(principal, params.org, planRows as never);
    const groups = (rows as (FiguresRow & { id: string; name: string })[]).map((row) => ({ id: row.id, name: row.name, ...figuresOf(row) }));
    const sum = (key: keyof FiguresRow) => groups.reduce((total, row) => total + row[key], 0);
    return {
      from: query.from,
      to: query.to,
      group_by: query.group_by,
      groups,
      total: figuresOf({ due: sum('due'), on_time: sum('on_time'), late: sum('late'), missed: sum('missed') }),
    };
  },
});
