// Corrective actions: `GET·POST /orgs/{org}/actions`, `GET·PATCH /orgs/{org}/actions/{id}`,
// `POST …/{id}/transition`. Every member reads them; managers open, edit, verify, reopen and
// cancel; inspectors open actions for themselves and work those assigned to them. Each move is
// one update of `status` with its note: the database decides whether it is allowed
// (`private.enforce_action_transition` in supabase/schema.sql), stamps who and when, and records the event.
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import {
  type Action,
  ACTION_MANAGERS,
  ACTION_WORKERS,
  actionCreateSchema,
  type ActionDetail,
  actionDetailSchema,
  type ActionEvent,
  actionListQuerySchema,
  type ActionListQuery,
  type ActionMove,
  actionSchema,
  type ActionStatus,
  actionTransitionSchema,
  actionUpdateSchema,
  canWorkAction,
} from '../_shared/schemas/actions.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
import { iso, requireRole, userIdOf } from './access.ts';
import { mailNewAssignees } from './action-mail.ts';
import { actionAttachmentOf, type ActionAttachmentRow } from './action-attachments.ts';
import { localDayBetween } from './local-days.ts';
import { MISSED_DUE } from './occurrence-outcomes.ts';
import { orgParams } from './orgs.ts';
import { inSiteGroup } from './site-groups.ts';

/** An actions row with the names a list shows beside it, as postgres.js returns it. */
type ActionRow =
  & Omit<
    Action,
    'due_at' | 'resolved_at' | 'verified_at' | 'canceled_at' | 'item_passed_at' | 'created_at' | 'updated_at'
  >
  & {
    due_at: Date;
    resolved_at: Date | null;
    verified_at: Date | null;
    canceled_at: Date | null;
    item_passed_at: Date | null;
    created_at: Date;
    updated_at: Date;
    created_at_key: string;
  };

export const actionParams = z.strictObject({ org: idSchema, id: idSchema });

/** Overdue is derived, never stored: due_at has passed while the work is open (actions as `a`). */
export const OVERDUE_ACTION = inline`(a.status in ('open', 'in_progress') and a.due_at < now())`;
export const overdueActionCondition = (tx: Tx) => tx.unsafe(OVERDUE_ACTION.text);

/** Actions with what a list shows beside them: site, inspection, the item's label, the assignee. */
const selectActions = (tx: Tx) => tx`
  select a.*, s.name as site_name, s.timezone as site_timezone, i.title as inspection_title,
         private.template_item(v.definition, a.item_key) ->> 'label' as item_label,
         p.display_name as assignee_name,
         ${overdueActionCondition(tx)} as overdue,
         -- The cursor keeps created_at's microseconds: JavaScript dates stop at milliseconds.
         to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_key
  from public.actions a
  join public.sites s on s.id = a.site_id
  left join public.inspections i on i.id = a.inspection_id
  left join public.template_versions v on v.id = i.template_version_id
  left join public.profiles p on p.user_id = a.assignee_id
`;

export function actionOf(row: ActionRow): Action {
  return {
    id: row.id,
    org_id: row.org_id,
    site_id: row.site_id,
    site_name: row.site_name,
    site_timezone: row.site_timezone,
    inspection_id: row.inspection_id,
    inspection_title: row.inspection_title,
    item_key: row.item_key,
    item_label: row.item_label,
    origin: row.origin,
    title: row.title,
    description: row.description,
    priority: row.priority,
    assignee_id: row.assignee_id,
    assignee_name: row.assignee_name,
    due_at: iso(row.due_at),
    status: row.status,
    overdue: row.overdue,
    resolution_note: row.resolution_note,
    resolved_at: iso(row.resolved_at),
    resolved_by: row.resolved_by,
    verified_at: iso(row.verified_at),
    verified_by: row.verified_by,
    canceled_at: iso(row.canceled_at),
    item_passed_at: iso(row.item_passed_at),
    version: row.version,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

async function readAction(tx: Tx, orgId: string, id: string): Promise<ActionRow> {
  const [row] = await tx<ActionRow[]>`${selectActions(tx)} where a.org_id = ${orgId} and a.id = ${id}`;
  if (!row) throw ApiError.notFound('action');
  return row;
}

/**
 * Applies one update as the caller and returns the action as it is afterwards. RLS hides the row
 * from members who may not change it (viewers, inspectors on someone else's): a 403 when they can
 * read it, else a 404; the transitions trigger raises the product errors itself.
 */
async function updateAction(tx: Tx, orgId: string, id: string, changes: Record<string, unknown>): Promise<ActionRow> {
  const [updated] = await tx`update public.actions set ${tx(changes)} where org_id = ${orgId} and id = ${id} returning id`;
  const row = await readAction(tx, orgId, id);
  if (!updated) throw ApiError.forbidden();
  return row;
}

/** The fields a body gives; an absent one stays as it is (or takes the column's default). */
function givenFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The list's filters that select what an analytics figure counts, on actions `a` at sites `s`. */
function analyticsFilterSql(query: ActionListQuery): InlineSql {
  return inline`
    ${query.template_id ? inline`a.inspection_id in (select x.id from public.inspections x where x.org_id = a.org_id and x.template_id = ${query.template_id})` : inline`true`}
    and ${localDayBetween(inline`a.created_at`, inline`s.timezone`, query.opened_day_from, query.opened_day_to)}
    and ${localDayBetween(inline`a.resolved_at`, inline`s.timezone`, query.resolved_day_from, query.resolved_day_to)}
    and ${localDayBetween(inline`a.verified_at`, inline`s.timezone`, query.verified_day_from, query.verified_day_to)}
    and ${localDayBetween(inline`a.due_at`, inline`s.timezone`, query.due_day_from, query.due_day_to)}
    and ${query.missed_due === undefined ? inline`true` : query.missed_due ? MISSED_DUE : inline`not ${MISSED_DUE}`}`;
}

export const listActions = route({
  method: 'GET',
  response: { list: actionSchema },
  path: '/orgs/:org/actions',
  params: orgParams,
  query: actionListQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org);
      const overdue = overdueActionCondition(tx);
      return await tx<ActionRow[]>`
        ${selectActions(tx)}
        where a.org_id = ${params.org}
          and ${query.status ? tx`a.status in ${tx(query.status)}` : tx`true`}
          and ${query.priority ? tx`a.priority in ${tx(query.priority)}` : tx`true`}
          and ${query.assignee_id ? tx`a.assignee_id = ${query.assignee_id}` : tx`true`}
          and ${query.site_id ? tx`a.site_id = ${query.site_id}` : tx`true`}
          and ${tx.unsafe(inSiteGroup(inline`a.site_id`, params.org, query.site_group_id).text)}
          and ${query.inspection_id ? tx`a.inspection_id = ${query.inspection_id}` : tx`true`}
          and ${query.overdue === undefined ? tx`true` : query.overdue ? overdue : tx`not ${overdue}`}
          -- Inclusive: a change in the same instant as the caller's last sync is not missed.
          and ${query.updated_since ? tx`a.updated_at >= ${query.updated_since}::timestamptz` : tx`true`}
          and ${tx.unsafe(analyticsFilterSql(query).text)}
          and ${after ? tx`(a.created_at, a.id) < (${after[0] as string}::text::timestamptz, ${after[1] as string}::uuid)` : tx`true`}
        order by a.created_at desc, a.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, actionOf, (row) => [row.created_at_key, row.id]);
  },
});

export const createAction = route({
  method: 'POST',
  response: actionSchema,
  path: '/orgs/:org/actions',
  params: orgParams,
  body: actionCreateSchema,
  status: 201,
  handler: async ({ params, body, db, afterCommit }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, ACTION_WORKERS);
      // The database defaults the site (an inspection's), the due date (the priority's) and an
      // inspector's action to themselves.
      const [created] = await tx`insert into public.actions ${tx({ org_id: params.org, ...givenFields(body) })} returning id`;
      const row = await readAction(tx, params.org, created.id);
      afterCommit(await mailNewAssignees(tx, [row.id]));
      return actionOf(row);
    });
  },
});

/** The moves the caller may make now, read from the database's own table of moves. */
async function movesFor(tx: Tx, role: Role, userId: string | null, row: ActionRow): Promise<ActionMove[]> {
  if (!canWorkAction(role, userId, row)) return [];
  return await tx<ActionMove[]>`
    select t.to_status as to, t.verb, t.note_message
    from public.action_transitions t
    where t.from_status = ${row.status} and ${role}::public.org_role = any (t.roles)
    order by t.to_status
  `;
}

type ActionEventRow = Omit<ActionEvent, 'id' | 'at'> & { id: string; at: Date };

export const getAction = route({
  method: 'GET',
  response: actionDetailSchema,
  path: '/orgs/:org/actions/:id',
  params: actionParams,
  handler: async ({ principal, params, db }): Promise<ActionDetail> => {
    const userId = userIdOf(principal);
    return await db(async (tx) => {
      const role = await requireRole(tx, params.org);
      const row = await readAction(tx, params.org, params.id);
      const [events, attachments, moves] = await Promise.all([
        tx<ActionEventRow[]>`
          select e.id, e.kind, e.from_status, e.to_status, e.assignee_id, pa.display_name as assignee_name, e.note,
                 e.actor_kind, e.actor_user_id as actor_id, pc.display_name as actor_name, e.at
          from public.action_events e
          left join public.profiles pa on pa.user_id = e.assignee_id
          left join public.profiles pc on pc.user_id = e.actor_user_id
          where e.action_id = ${params.id}
          order by e.at, e.id
        `,
        tx<ActionAttachmentRow[]>`select * from public.action_attachments where action_id = ${params.id} order by created_at, id`,
        movesFor(tx, role, userId, row),
      ]);
      return {
        ...actionOf(row),
        events: events.map((event) => ({ ...event, id: Number(event.id), at: iso(event.at) })),
        attachments: attachments.map(actionAttachmentOf),
        moves,
      };
    });
  },
});

export const patchAction = route({
  method: 'PATCH',
  response: actionSchema,
  path: '/orgs/:org/actions/:id',
  params: actionParams,
  body: actionUpdateSchema,
  handler: async ({ params, body, db, afterCommit }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, ACTION_MANAGERS);
      const [before] = await tx<{ assignee_id: string | null }[]>`
        select assignee_id from public.actions where org_id = ${params.org} and id = ${params.id}
      `;
      const row = await updateAction(tx, params.org, params.id, givenFields(body));
      if (before && row.assignee_id !== before.assignee_id) afterCommit(await mailNewAssignees(tx, [row.id]));
      return actionOf(row);
    });
  },
});

export const transitionAction = route({
  method: 'POST',
  response: actionSchema,
  path: '/orgs/:org/actions/:id/transition',
  params: actionParams,
  body: actionTransitionSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, ACTION_WORKERS);
      const row = await updateAction(tx, params.org, params.id, { status: body.to as ActionStatus, transition_note: body.note ?? null });
      return actionOf(row);
    });
  },
});
