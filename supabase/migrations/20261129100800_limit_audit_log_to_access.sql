-- The audit log and the activity feed by site access (issue 27; docs/site-groups.md): an entry
-- about something at a site (the site itself, an inspection, an answer, a photo, an action, an
-- action's photo) is read only by those who see that site; an entry about a schedule by those who
-- read the schedule; about a site group by those who read the group. Entries about what is
-- org-wide by nature (templates, members, invitations, settings, keys, webhooks) are read as
-- before.
--
-- Each entry now records the site it is about (audit_log.site_id), written with the entry: an
-- entity's site never changes (the inspections and actions triggers refuse it), so the entry's
-- site is known for good when it is written, and reading it is one column rather than a walk
-- through the entry's JSON or its parent rows. Existing entries are filled in below.

alter table public.audit_log add column site_id uuid;

comment on column public.audit_log.site_id is 'The site the entry is about (a site, or what hangs off one: inspection, answer, photo, action); null for what is at no site. Decides who reads it.';

-- Existing entries, once: the table refuses updates (append-only), so its guard is off meanwhile.
alter table public.audit_log disable trigger audit_log_append_only;
update public.audit_log l set site_id = case l.entity
    when 'sites' then l.entity_id
    when 'inspections' then (coalesce(l.after, l.before) ->> 'site_id')::uuid
    when 'actions' then (coalesce(l.after, l.before) ->> 'site_id')::uuid
    when 'answers' then (select i.site_id from public.inspections i where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
    when 'attachments' then (select i.site_id from public.inspections i where i.id = (coalesce(l.after, l.before) ->> 'inspection_id')::uuid)
    when 'action_attachments' then (select a.site_id from public.actions a where a.id = (coalesce(l.after, l.before) ->> 'action_id')::uuid)
  end
where l.entity in ('sites', 'inspections', 'actions', 'answers', 'attachments', 'action_attachments');
alter table public.audit_log enable trigger audit_log_append_only;

create or replace function private.write_audit_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  before_row jsonb;
  after_row jsonb;
  row_data jsonb;
  kind text;
  site uuid;
begin
  -- tg_argv is null, not empty, when the trigger has no arguments.
  if tg_op <> 'INSERT' then before_row := to_jsonb(old) - coalesce(tg_argv, '{}'); end if;
  if tg_op <> 'DELETE' then after_row := to_jsonb(new) - coalesce(tg_argv, '{}'); end if;
  -- An update that changed nothing but its timestamp is not worth an entry.
  if tg_op = 'UPDATE' and before_row - 'updated_at' = after_row - 'updated_at' then
    return null;
  end if;

  kind := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;

  -- The site the entry is about, for who may read it.
  row_data := coalesce(after_row, before_row);
  site := case tg_table_name
    when 'sites' then (row_data ->> 'id')::uuid
    when 'inspections' then (row_data ->> 'site_id')::uuid
    when 'actions' then (row_data ->> 'site_id')::uuid
    when 'attachments' then (select i.site_id from public.inspections i where i.id = (row_data ->> 'inspection_id')::uuid)
    when 'action_attachments' then (select a.site_id from public.actions a where a.id = (row_data ->> 'action_id')::uuid)
  end;

  insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
  values (
    private.org_id_of(tg_table_name, row_data),
    kind,
    case when kind = 'user' then (claims ->> 'sub')::uuid end,
    case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end,
    lower(tg_op),
    tg_table_name,
    coalesce(after_row ->> 'id', before_row ->> 'id')::uuid,
    before_row,
    after_row,
    site
  );
  return null;
end;
$$;

create or replace function private.write_answer_audit_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  kind text;
  actor_user uuid;
  actor_key uuid;
begin
  -- The same actor as private.write_audit_log(), read once for the statement.
  kind := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;
  actor_user := case when kind = 'user' then (claims ->> 'sub')::uuid end;
  actor_key := case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end;

  -- Rows in the order the statement wrote them, as the per-row trigger logged them. (A transition
  -- table is only named in the branch of its event: PL/pgSQL plans each query when it first runs.)
  -- Each with its inspection's site (left join: an inspection deleted with its organization).
  if tg_op = 'INSERT' then
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select n.org_id, kind, actor_user, actor_key, 'insert', tg_table_name, n.id, null, to_jsonb(n), i.site_id
    from new_answers n
    left join public.inspections i on i.id = n.inspection_id;
  elsif tg_op = 'UPDATE' then
    -- An answer's id never changes (only value and note may be updated by clients), so it pairs
    -- each row with what it was.
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select changed.org_id, kind, actor_user, actor_key, 'update', tg_table_name, changed.id, changed.before_row, changed.after_row,
           (select i.site_id from public.inspections i where i.id = changed.inspection_id)
    from (
      select (w.answer).org_id, (w.answer).id, (w.answer).inspection_id, to_jsonb(o) as before_row, to_jsonb(w.answer) as after_row, w.written
      from (select n as answer, row_number() over () as written from new_answers n) w
      join old_answers o on o.id = (w.answer).id
    ) changed
    -- An update that changed nothing but its timestamp is not worth an entry.
    where changed.before_row - 'updated_at' <> changed.after_row - 'updated_at'
    order by changed.written;
  else
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select o.org_id, kind, actor_user, actor_key, 'delete', tg_table_name, o.id, to_jsonb(o), null, i.site_id
    from old_answers o
    left join public.inspections i on i.id = o.inspection_id;
  end if;
  return null;
end;
$$;

-- Who reads an entry: members as before (invitations for owners and admins), and of what hangs
-- off a site, schedules and site groups, only what they see. Org-wide callers stop at the first
-- test of the second part, once per statement.
alter policy "Members can read the audit entries of what they may read" on public.audit_log
  using (
    org_id in (select private.org_ids_of_current_user())
    and (entity <> 'invitations' or org_id in (select private.org_ids_of_current_user('{owner,admin}')))
    and (
      org_id in (select private.org_ids_with_every_site())
      or case
        when site_id is not null then
          (select v.group_id from private.site_group_of_site v where v.site_id = audit_log.site_id)
            in (select private.limited_site_group_ids())
        when entity in ('schedules', 'schedule_sites') then entity_id in (select s.id from public.schedules s)
        when entity = 'site_groups' then entity_id in (select g.id from public.site_groups g)
        else true
      end
    )
  );
