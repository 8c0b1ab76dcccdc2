-- Schedules (issue 26 parts 1 and 9; docs/schedules.md): a recurring programme of inspections — a
-- template run at chosen sites by a recurrence rule, at a local time of day, due a while after
-- each occurrence, assigned to one person, to a rotation of people taken in turn at each site, or
-- to nobody (any inspector may claim it). Owners, admins and managers manage them; inspectors and
-- viewers read them; API keys by their role (private.org_ids_of_current_user). At most 1,000 per
-- organization and 10,000 sites each. Deleting one marks it deleted (its past occurrences keep
-- their schedule); pausing stops its occurrences until it is resumed. Every change writes the
-- audit log, an `org:` realtime event and the webhook events schedule.created, .updated, .paused
-- and .deleted. Turning a schedule into inspections is migration 20261128200400.
--
-- Sites are listed in public.schedule_sites. Site groups (the next issue) will add a second list
-- of groups; the sites a schedule runs at are private.schedule_site_ids(schedule), which will then
-- read both, and nothing else reads schedule_sites directly.

-- A title pattern may hold only these placeholders, each filled in per occurrence.
create or replace function private.title_pattern_problem(pattern text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when regexp_replace(pattern, '\{(site|date|template)\}', '', 'g') ~ '[{}]'
      then 'Use only the placeholders {site}, {date} and {template}.'
  end;
$$;

comment on function private.title_pattern_problem(text) is
  'Why a schedule''s title pattern is refused (an unknown placeholder or a stray brace), or null; titlePatternProblem in _shared/schemas/schedules.ts says the same.';

create table public.schedules (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  template_id uuid not null references public.templates (id),
  rrule text not null check (private.recurrence_problem(rrule) is null),
  -- The rule's first day (its DTSTART's date) and an optional last day, in each site's own time zone.
  start_date date not null check (start_date between date '2000-01-01' and date '2100-12-31'),
  end_date date check (end_date >= start_date and end_date <= date '2100-12-31'),
  time_of_day time not null check (time_of_day = date_trunc('minute', time_of_day)),
  -- From an occurrence's start to its due time, in local wall-clock time: weeks, days, hours and minutes.
  due_after interval not null check (
    due_after >= interval '1 minute' and due_after <= interval '366 days'
    and extract(year from due_after) = 0 and extract(month from due_after) = 0
    and date_trunc('minute', due_after) = due_after
  ),
  assignee_id uuid references auth.users (id) on delete set null,
  rotation_user_ids uuid[] not null default '{}' check (
    cardinality(rotation_user_ids) <= 100 and array_position(rotation_user_ids, null) is null
  ),
  title_pattern text not null default '{template} — {site} — {date}' check (
    char_length(title_pattern) between 1 and 200 and title_pattern !~ '^\s|\s$'
    and title_pattern !~ '[\x00-\x1f\x7f]' and private.title_pattern_problem(title_pattern) is null
  ),
  paused_at timestamptz,
  deleted_at timestamptz,
  version integer not null default 1,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- One person or a rotation, not both; neither means anyone may claim each occurrence.
  constraint schedules_one_kind_of_assignee_check check (assignee_id is null or cardinality(rotation_user_ids) = 0)
);

comment on table public.schedules is
  'Recurring inspection programmes: a template at sites by an RRULE, a local time of day and a due window; occurrences become inspections.';
comment on column public.schedules.rrule is 'iCalendar RRULE of the supported subset (private.recurrence_problem), upper case; DTSTART is start_date at time_of_day.';
comment on column public.schedules.due_after is 'An occurrence is due this long after it starts, counted in the site''s local wall-clock time.';
comment on column public.schedules.rotation_user_ids is 'People who take the occurrences at each site in turn (the nth occurrence goes to the (n-1) mod len-th); empty for one assignee or nobody.';
comment on column public.schedules.title_pattern is 'The title of each occurrence''s inspection: {site}, {date} (the local date, YYYY-MM-DD) and {template} filled in.';

create index schedules_org_id_idx on public.schedules (org_id, created_at desc, id desc);
create index schedules_template_id_idx on public.schedules (template_id);
create index schedules_assignee_id_idx on public.schedules (assignee_id);
create index schedules_created_by_idx on public.schedules (created_by);

alter table public.schedules enable row level security;

create policy "Members can read their organization's schedules" on public.schedules
  for select to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners, admins and managers can add schedules" on public.schedules
  for insert to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

create policy "Owners, admins and managers can change, pause and delete schedules" on public.schedules
  for update to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')))
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

revoke all on public.schedules from anon, authenticated;
grant select on public.schedules to authenticated;
grant insert (id, org_id, name, template_id, rrule, start_date, end_date, time_of_day, due_after, assignee_id,
              rotation_user_ids, title_pattern) on public.schedules to authenticated;
grant update (name, template_id, rrule, start_date, end_date, time_of_day, due_after, assignee_id, rotation_user_ids,
              title_pattern, paused_at, deleted_at) on public.schedules to authenticated;
grant all on public.schedules to service_role;

create table public.schedule_sites (
  schedule_id uuid not null references public.schedules (id) on delete cascade,
  -- Sites are archived, never deleted, but with their organization: then their rows go too.
  site_id uuid not null references public.sites (id) on delete cascade,
  -- The schedule's organization, set by the database (private.prepare_schedule_sites).
  org_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (schedule_id, site_id)
);

comment on table public.schedule_sites is 'The sites a schedule runs at (site groups will add groups beside them: private.schedule_site_ids).';

create index schedule_sites_site_id_idx on public.schedule_sites (site_id);
create index schedule_sites_org_id_idx on public.schedule_sites (org_id);

alter table public.schedule_sites enable row level security;

create policy "Members can read their organization's schedule sites" on public.schedule_sites
  for select to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners, admins and managers can add sites to schedules" on public.schedule_sites
  for insert to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

create policy "Owners, admins and managers can take sites off schedules" on public.schedule_sites
  for delete to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

revoke all on public.schedule_sites from anon, authenticated;
grant select, delete on public.schedule_sites to authenticated;
grant insert (schedule_id, site_id) on public.schedule_sites to authenticated;
grant all on public.schedule_sites to service_role;

-- The sites a schedule runs at. Site groups will add the sites of the schedule's groups here.
create or replace function private.schedule_site_ids(schedule uuid)
returns setof uuid
language sql
stable
set search_path = ''
as $$
  select ss.site_id from public.schedule_sites ss where ss.schedule_id = schedule;
$$;

grant execute on function private.schedule_site_ids(uuid) to authenticated, service_role;

-- Who a schedule may give its occurrences to: people who may fill in inspections there.
create or replace function private.check_schedule_people(org uuid, assignee uuid, rotation uuid[])
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- Definer: an API key cannot read memberships, yet may name members as assignees.
  perform private.check_inspection_assignee(org, assignee);
  if exists (
    select 1 from unnest(rotation) r (user_id)
    where not exists (
      select 1 from public.memberships m
      where m.org_id = org and m.user_id = r.user_id and m.role in ('owner', 'admin', 'manager', 'inspector')
    )
  ) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'rotation_user_ids',
        'message', 'Choose members of this organization who can fill in inspections.')::text;
  end if;
end;
$$;

-- Before insert: the limit, the template and the people; the name defaults to the template's.
create or replace function private.prepare_schedule()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  schedule_limit constant integer := 1000;
begin
  -- Not theirs (RLS refuses it next): say nothing about another organization's template or people.
  if private.is_client_request()
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    return new;
  end if;
  -- Locking the organization serializes concurrent inserts, so the limit holds under races.
  perform 1 from public.organizations o where o.id = new.org_id for no key update;
  if (select count(*) from public.schedules s where s.org_id = new.org_id and s.deleted_at is null) >= schedule_limit then
    raise exception 'limit_exceeded' using detail = json_build_object('n', schedule_limit, 'things', 'schedules')::text;
  end if;
  perform private.check_schedule_template(new.org_id, new.template_id);
  perform private.check_schedule_people(new.org_id, new.assignee_id, new.rotation_user_ids);
  new.rrule := upper(new.rrule);
  new.name := coalesce(new.name, (select left(t.name, 120) from public.templates t where t.id = new.template_id));
  new.paused_at := null;
  new.deleted_at := null;
  new.version := 1;
  return new;
end;
$$;

-- A template a schedule may run: this organization's, published and not archived.
create or replace function private.check_schedule_template(org uuid, template uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found record;
begin
  select t.org_id, t.status, t.latest_version into found from public.templates t where t.id = template;
  if not found.org_id is not distinct from org then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Choose a template of this organization.')::text;
  end if;
  if found.status = 'archived' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'This template is archived. Choose an active template.')::text;
  end if;
  if found.latest_version is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Publish this template before scheduling it.')::text;
  end if;
end;
$$;

-- Before update: a deleted schedule is final; pausing and deleting are stamped by the database;
-- a new template or new people are checked; what a schedule is and belongs to stays.
create or replace function private.guard_schedule_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.deleted_at is not null then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'schedule', 'status', 'deleted', 'verb', case
        when new.paused_at is not null and old.paused_at is null then 'paused'
        when new.paused_at is null and old.paused_at is not null then 'resumed'
        else 'edited'
      end)::text;
  end if;
  if (new.org_id, new.created_by, new.created_at) is distinct from (old.org_id, old.created_by, old.created_at) then
    raise exception 'forbidden';
  end if;
  if new.paused_at is distinct from old.paused_at and new.paused_at is not null then
    new.paused_at := now();
  end if;
  if new.deleted_at is distinct from old.deleted_at then
    new.deleted_at := now();
  end if;
  if new.template_id is distinct from old.template_id then
    perform private.check_schedule_template(old.org_id, new.template_id);
  end if;
  if (new.assignee_id, new.rotation_user_ids) is distinct from (old.assignee_id, old.rotation_user_ids) then
    perform private.check_schedule_people(old.org_id, new.assignee_id, new.rotation_user_ids);
  end if;
  new.rrule := upper(new.rrule);
  new.version := old.version + 1;
  return new;
end;
$$;

create trigger schedules_prepare before insert on public.schedules
  for each row execute function private.prepare_schedule();
create trigger schedules_guard_change before update on public.schedules
  for each row execute function private.guard_schedule_change();
create trigger schedules_set_updated_at before update on public.schedules
  for each row execute function private.set_updated_at();
create trigger schedules_enforce_mfa before insert or update or delete on public.schedules
  for each row execute function private.enforce_organization_mfa();
create trigger schedules_write_audit_log after insert or update or delete on public.schedules
  for each row execute function private.write_audit_log('version');
create trigger schedules_broadcast_change after insert or update on public.schedules
  for each row execute function private.broadcast_organization_change();

-- Before insert of a schedule's site: the schedule's organization, and a site of it (before the
-- foreign key's own check, so a made-up id is a field error too). Definer: the caller may not be a
-- member; RLS refuses the row right after, and the message says nothing of another organization.
create or replace function private.prepare_schedule_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.org_id := (select s.org_id from public.schedules s where s.id = new.schedule_id);
  if new.org_id is not null and not exists (select 1 from public.sites st where st.id = new.site_id and st.org_id = new.org_id)
     and (not private.is_client_request() or new.org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_ids', 'message', 'Choose sites of this organization.')::text;
  end if;
  return new;
end;
$$;

-- After a statement adds schedule sites: none archived, and at most 10,000 a schedule. Per
-- statement, so adding 10,000 sites is one check and one count, not 10,000.

create or replace function private.check_schedule_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  site_limit constant integer := 10000;
  over uuid;
begin
  if exists (select 1 from added a join public.sites s on s.id = a.site_id where s.archived_at is not null) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_ids', 'message', 'Some of these sites are archived. Choose active sites.')::text;
  end if;
  -- Locking each schedule serializes concurrent additions, so the limit holds under races.
  perform 1 from public.schedules s where s.id in (select a.schedule_id from added a) order by s.id for no key update;
  select a.schedule_id into over
  from (select distinct a.schedule_id from added a) a
  where (select count(*) from public.schedule_sites ss where ss.schedule_id = a.schedule_id) > site_limit
  limit 1;
  if over is not null then
    raise exception 'limit_exceeded' using detail = json_build_object('n', site_limit, 'things', 'sites in a schedule')::text;
  end if;
  return null;
end;
$$;

-- One audit entry per schedule and statement, with the sites added or taken off.
create or replace function private.write_schedule_sites_audit_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  kind text := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;
begin
  if tg_op = 'INSERT' then
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
    select min(a.org_id::text)::uuid, kind,
           case when kind = 'user' then (claims ->> 'sub')::uuid end,
           case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end,
           'insert', 'schedule_sites', a.schedule_id, null,
           jsonb_build_object('schedule_id', a.schedule_id, 'site_ids', jsonb_agg(a.site_id order by a.site_id))
    from added a group by a.schedule_id;
  else
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
    select min(r.org_id::text)::uuid, kind,
           case when kind = 'user' then (claims ->> 'sub')::uuid end,
           case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end,
           'delete', 'schedule_sites', r.schedule_id,
           jsonb_build_object('schedule_id', r.schedule_id, 'site_ids', jsonb_agg(r.site_id order by r.site_id)), null
    from removed r
    -- A schedule's organization being deleted takes its sites with it: nothing left to log against.
    where exists (select 1 from public.organizations o where o.id = r.org_id)
    group by r.schedule_id;
  end if;
  return null;
end;
$$;

comment on function private.write_schedule_sites_audit_rows() is
  'After-statement trigger on schedule_sites: one audit entry per schedule with the site ids added or taken off.';

-- Named to run before schedule_sites_enforce_mfa, which reads the organization it sets.
create trigger schedule_sites_copy_org_id before insert on public.schedule_sites
  for each row execute function private.prepare_schedule_sites();
create trigger schedule_sites_enforce_mfa before insert or delete on public.schedule_sites
  for each row execute function private.enforce_organization_mfa();
create trigger schedule_sites_check after insert on public.schedule_sites
  referencing new table as added for each statement execute function private.check_schedule_sites();
create trigger schedule_sites_write_audit_log_after_insert after insert on public.schedule_sites
  referencing new table as added for each statement execute function private.write_schedule_sites_audit_rows();
create trigger schedule_sites_write_audit_log_after_delete after delete on public.schedule_sites
  referencing old table as removed for each statement execute function private.write_schedule_sites_audit_rows();

-- Webhook events of schedules, through the outbox (private.enqueue_webhook_event): created; paused;
-- deleted; and updated for any other change (a resume, an edit, its sites).
create or replace function private.webhook_event_of_schedule_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  event_type text;
begin
  if tg_op = 'INSERT' then
    event_type := 'schedule.created';
  elsif new.deleted_at is not null and old.deleted_at is null then
    event_type := 'schedule.deleted';
  elsif new.paused_at is not null and old.paused_at is null then
    event_type := 'schedule.paused';
  elsif to_jsonb(new) - 'updated_at' <> to_jsonb(old) - 'updated_at' then
    event_type := 'schedule.updated';
  end if;
  if event_type is not null then
    perform private.enqueue_webhook_event(new.org_id, event_type, 'schedule', to_jsonb(new) - 'version');
  end if;
  return null;
end;
$$;

create trigger schedules_enqueue_webhook_event after insert or update on public.schedules
  for each row execute function private.webhook_event_of_schedule_change();

-- The event types endpoints may choose (WEBHOOK_EVENT_TYPES in _shared/schemas/webhooks.ts), now with
-- the schedules' (and inspection.missed: migration 20261128200500 sends it).
create or replace function private.webhook_event_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array[
    'inspection.created', 'inspection.started', 'inspection.submitted', 'inspection.approved',
    'inspection.changes_requested', 'inspection.canceled', 'inspection.missed',
    'action.created', 'action.in_progress', 'action.resolved', 'action.verified', 'action.reopened', 'action.canceled',
    'site.created', 'site.updated', 'site.archived',
    'template.created', 'template.updated', 'template.published', 'template.archived',
    'schedule.created', 'schedule.updated', 'schedule.paused', 'schedule.deleted',
    'webhook.test'
  ]::text[];
$$;

revoke all on function private.check_schedule_people(uuid, uuid, uuid[]) from public, anon, authenticated;
revoke all on function private.check_schedule_template(uuid, uuid) from public, anon, authenticated;
revoke all on function private.prepare_schedule() from public, anon, authenticated;
revoke all on function private.guard_schedule_change() from public, anon, authenticated;
revoke all on function private.prepare_schedule_sites() from public, anon, authenticated;
revoke all on function private.check_schedule_sites() from public, anon, authenticated;
revoke all on function private.write_schedule_sites_audit_rows() from public, anon, authenticated;
revoke all on function private.webhook_event_of_schedule_change() from public, anon, authenticated;
-- A check constraint's function runs as the writer; the sites of a schedule are read by its readers.
revoke all on function private.title_pattern_problem(text) from public, anon;
grant execute on function private.title_pattern_problem(text) to authenticated, service_role;
revoke all on function private.schedule_site_ids(uuid) from public, anon;
