// The audit log and the activity feed: `GET /orgs/{org}/audit-log` (owners, admins, managers;
// every recorded change, filterable) and `GET /orgs/{org}/activity` (every member; the last steps
// of the work — inspections scheduled and moved, actions opened and moved, sites and templates
// added, published and archived). Both read public.audit_log as the caller, so its policies decide
// which entries each member sees (supabase/schema.sql); newest first, by a keyset cursor.
import type { Tx } from '../_shared/db.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { activityQuerySchema, type AuditEntry, auditEntrySchema, auditLogQuerySchema } from '../_shared/schemas/audit.ts';
import type { Role } from '../_shared/schemas/common.ts';
import { iso, requireRole } from './access.ts';
import { orgParams } from './orgs.ts';

/** Who reads the full log (issue 11; docs/actions.md). */
const AUDIT_READERS = ['owner', 'admin', 'manager'] as const satisfies readonly Role[];

type AuditRow = Omit<AuditEntry, 'id' | 'at'> & { id: string; at: Date; at_key: string };

/** Entries with the actor's name and what each is about, as people name it. */
const selectEntries = (tx: Tx) => tx`
  select l.id, l.at, l.action, l.entity, l.entity_id, l.actor_kind,
         coalesce(l.actor_user_id, l.actor_api_key_id) as actor_id,
         -- A key's name shows to those who may read keys (owners, admins); others read "An API key".
         coalesce(nullif(actor.display_name, ''), actor.email,
                  (select k.name from public.api_keys k where k.id = l.actor_api_key_id)) as actor_name,
         coalesce(
           case l.entity
             when 'memberships' then (
               select coalesce(nullif(p.display_name, ''), p.email) from public.profiles p
               where p.user_id = (coalesce(l.after, l.before) ->> 'user_id')::uuid)
             when 'membership_site_groups' then (
               select coalesce(nullif(p.display_name, ''), p.email) from public.profiles p
               where p.user_id = (coalesce(l.after, l.before) ->> 'user_id')::uuid)
             when 'api_key_site_groups' then (
               select k.name from public.api_keys k where k.id = (coalesce(l.after, l.before) ->> 'api_key_id')::uuid)
             when 'answers' then (
               select i.title from public.inspections i where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
             when 'attachments' then (
               select i.title from public.inspections i where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
             when 'action_attachments' then (
               select a.title from public.actions a where a.id = (coalesce(l.after, l.before) ->> 'action_id')::uuid)
             when 'schedule_sites' then (
               select s.name from public.schedules s where s.id = l.entity_id)
           end,
           l.after ->> 'title', l.before ->> 'title', l.after ->> 'name', l.before ->> 'name', l.after ->> 'email', l.before ->> 'email',
           l.after ->> 'url', l.before ->> 'url'
         ) as subject,
         case l.entity
           when 'sites' then coalesce(l.after, l.before) ->> 'timezone'
           when 'inspections' then (
             select s.timezone from public.sites s where s.id = (coalesce(l.after, l.before) ->> 'site_id')::uuid)
           when 'actions' then (
             select s.timezone from public.sites s where s.id = (coalesce(l.after, l.before) ->> 'site_id')::uuid)
           when 'answers' then (
             select s.timezone from public.inspections i join public.sites s on s.id = i.site_id
             where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
           when 'attachments' then (
             select s.timezone from public.inspections i join public.sites s on s.id = i.site_id
             where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
           when 'action_attachments' then (
             select s.timezone from public.actions a join public.sites s on s.id = a.site_id
             where a.id = (coalesce(l.after, l.before) ->> 'action_id')::uuid)
         end as site_timezone,
         l.before, l.after,
         -- The cursor keeps microseconds: JavaScript dates stop at milliseconds.
         to_char(l.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_key
  from public.audit_log l
  left join public.profiles actor on actor.user_id = l.actor_user_id
`;

function entryOf(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    at: iso(row.at),
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    actor_kind: row.actor_kind,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    subject: row.subject,
    site_timezone: row.site_timezone,
    before: row.before,
    after: row.after,
  };
}

const afterCursor = (tx: Tx, after: unknown[] | null) =>
  after ? tx`(l.at, l.id) < (${after[0] as string}::text::timestamptz, ${after[1] as number})` : tx`true`;

export const listAuditLog = route({
  method: 'GET',
  response: { list: auditEntrySchema },
  path: '/orgs/:org/audit-log',
  params: orgParams,
  query: auditLogQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'number']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org, AUDIT_READERS);
      return await tx<AuditRow[]>`
        ${selectEntries(tx)}
        where l.org_id = ${params.org}
          and ${query.entity ? tx`l.entity = ${query.entity}` : tx`true`}
          and ${query.entity_id ? tx`l.entity_id = ${query.entity_id}` : tx`true`}
          and ${query.actor_id ? tx`(l.actor_user_id = ${query.actor_id} or l.actor_api_key_id = ${query.actor_id})` : tx`true`}
          and ${query.since ? tx`l.at >= ${query.since}::timestamptz` : tx`true`}
          and ${afterCursor(tx, after)}
        order by l.at desc, l.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, entryOf, (row) => [row.at_key, Number(row.id)]);
  },
});

export const listActivity = route({
  method: 'GET',
  response: { list: auditEntrySchema },
  path: '/orgs/:org/activity',
  params: orgParams,
  query: activityQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'number']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org);
      // Steps of the work, not every keystroke: new rows and status moves of inspections and
      // actions, sites added or archived, templates created, archived or published.
      return await tx<AuditRow[]>`
        ${selectEntries(tx)}
        where l.org_id = ${params.org}
          and l.entity in ('inspections', 'actions', 'sites', 'templates', 'template_versions')
          and (
            l.action = 'insert'
            or (l.entity in ('inspections', 'actions') and l.before ->> 'status' is distinct from l.after ->> 'status')
            -- Publishing is the version's own entry; archiving is the template's.
            or (l.entity = 'templates' and l.after ->> 'status' = 'archived' and l.before ->> 'status' <> 'archived')
            or (l.entity = 'sites' and l.before ->> 'archived_at' is distinct from l.after ->> 'archived_at')
          )
          and ${afterCursor(tx, after)}
        order by l.at desc, l.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, entryOf, (row) => [row.at_key, Number(row.id)]);
  },
});
