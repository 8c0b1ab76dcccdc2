-- Inspections (PRODUCT.md §3, §4): one run of a pinned template version at a site, from
-- scheduled to approved. Score, max score and failed count are kept up to date from the answers.
-- SKELETON by the lead: table, indexes, base policies. The inspections owner completes it
-- (insert/update policies, consistency checks, audit, broadcast); transitions live in the next
-- migration.

create type public.inspection_status as enum
  ('scheduled', 'in_progress', 'submitted', 'changes_requested', 'approved', 'canceled');
comment on type public.inspection_status is 'Lifecycle of an inspection; allowed moves are in public.inspection_transitions.';

create table public.inspections (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  -- Sites and templates are archived, never deleted, so these keep pointing somewhere.
  site_id uuid not null references public.sites (id),
  template_id uuid not null references public.templates (id),
  template_version_id uuid not null references public.template_versions (id),
  title text not null
    constraint inspections_title_check check (char_length(title) between 1 and 120 and title !~ '^\s|\s$'),
  assignee_id uuid references auth.users (id) on delete set null,
  due_at timestamptz,
  status public.inspection_status not null default 'scheduled',
  score numeric not null default 0,
  max_score numeric not null default 0,
  failed_count integer not null default 0,
  started_at timestamptz,
  started_by uuid references auth.users (id) on delete set null,
  start_latitude double precision
    constraint inspections_start_latitude_check check (start_latitude between -90 and 90),
  start_longitude double precision
    constraint inspections_start_longitude_check check (start_longitude between -180 and 180),
  start_accuracy_m double precision
    constraint inspections_start_accuracy_m_check check (start_accuracy_m >= 0),
  -- Distance from the start location to the site; null when either position is unknown.
  start_distance_m double precision,
  -- True when started farther from the site than its geofence (allowed, flagged); null unknown.
  start_outside_geofence boolean,
  submitted_at timestamptz,
  submitted_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz,
  reviewed_by uuid references auth.users (id) on delete set null,
  review_note text
    constraint inspections_review_note_check check (char_length(review_note) between 1 and 2000),
  canceled_at timestamptz,
  canceled_by uuid references auth.users (id) on delete set null,
  external_ref text
    constraint inspections_external_ref_check check (char_length(external_ref) between 1 and 255 and external_ref !~ '^\s|\s$'),
  -- Row version: bumped by every update, for optimistic concurrency.
  version integer not null default 1,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint inspections_org_id_external_ref_key unique (org_id, external_ref),
  constraint inspections_start_position_check check ((start_latitude is null) = (start_longitude is null))
);

comment on table public.inspections is 'One run of a pinned template version at a site.';

-- The list's default order (newest first) and its org_id policy column.
create index inspections_org_id_created_at_idx on public.inspections (org_id, created_at desc, id desc);
create index inspections_org_id_status_idx on public.inspections (org_id, status);
create index inspections_org_id_updated_at_idx on public.inspections (org_id, updated_at);
create index inspections_site_id_idx on public.inspections (site_id);
create index inspections_template_id_idx on public.inspections (template_id);
create index inspections_template_version_id_idx on public.inspections (template_version_id);
create index inspections_assignee_id_idx on public.inspections (assignee_id);
create index inspections_started_by_idx on public.inspections (started_by);
create index inspections_submitted_by_idx on public.inspections (submitted_by);
create index inspections_reviewed_by_idx on public.inspections (reviewed_by);
create index inspections_canceled_by_idx on public.inspections (canceled_by);
create index inspections_created_by_idx on public.inspections (created_by);

create trigger inspections_set_updated_at
  before update on public.inspections
  for each row execute function private.set_updated_at();

alter table public.inspections enable row level security;

create policy "Members can read their organization's inspections"
  on public.inspections
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

revoke all on table public.inspections from anon, authenticated;
grant select on table public.inspections to authenticated;
grant all on table public.inspections to service_role;

-- How a status reads in a sentence ("This inspection is in progress, so it can't be approved.").
-- Shared by every trigger that refuses a change because of an inspection's status.
create or replace function private.inspection_status_label(status public.inspection_status)
returns text
language sql
immutable
set search_path = ''
as $$
  select case status
    when 'in_progress' then 'in progress'
    when 'changes_requested' then 'sent back for changes'
    else status::text
  end;
$$;

revoke all on function private.inspection_status_label(public.inspection_status) from public, anon;
grant execute on function private.inspection_status_label(public.inspection_status) to authenticated, service_role;

-- Refuses an assignee who is not an owner, admin, manager or inspector of the organization:
-- viewers and outsiders cannot fill an inspection in.
create or replace function private.check_inspection_assignee(org uuid, assignee uuid)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if assignee is not null and not exists (
    select 1 from public.memberships m
    where m.org_id = org and m.user_id = assignee and m.role in ('owner', 'admin', 'manager', 'inspector')
  ) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'assignee_id',
        'message', 'Choose a member of this organization who can fill in inspections.')::text;
  end if;
end;
$$;

revoke all on function private.check_inspection_assignee(uuid, uuid) from public, anon, authenticated;

-- Whether the caller may fill an inspection in (PRODUCT.md §6): owners, admins and managers of
-- its organization always; inspectors when it is assigned to them or to nobody. The one copy of
-- the rule behind the answers and attachments policies. security definer so policies can read
-- the inspection whatever the caller's own policies allow.
create or replace function private.can_fill_inspection(inspection uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.inspections i
    join public.memberships m on m.org_id = i.org_id and m.user_id = (select auth.uid())
    where i.id = inspection
      and (m.role in ('owner', 'admin', 'manager')
           or (m.role = 'inspector' and (i.assignee_id is null or i.assignee_id = (select auth.uid()))))
  );
$$;

comment on function private.can_fill_inspection(uuid) is
  'True when the caller fills this inspection: a manager or above, or an inspector it is assigned to (or unassigned).';

revoke all on function private.can_fill_inspection(uuid) from public, anon;
grant execute on function private.can_fill_inspection(uuid) to authenticated, service_role;

-- Before a new inspection: the site and template belong to the organization and are usable, the
-- pinned version is the template's latest published one unless given, the assignee can fill it
-- in, and the title defaults to "<template> — <site>". security definer so the checks read the
-- rows whatever the caller's own visibility; a caller who may not schedule in the organization
-- is left to RLS, which refuses the insert right after (42501) without learning anything here.
create or replace function private.prepare_inspection()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  site record;
  template record;
  version_template uuid;
begin
  -- A missing org_id counts as not theirs: the checks below would otherwise describe another
  -- organization's site or template to anyone who names its id.
  if (select auth.uid()) is not null
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    return new;
  end if;

  select s.org_id, s.name, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  if site.archived_at is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  -- Shared lock: archiving or publishing the template waits until this inspection is in.
  select t.org_id, t.name, t.status, t.latest_version into template
  from public.templates t where t.id = new.template_id
  for share;
  if not found or template.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Choose a template of this organization.')::text;
  end if;
  if template.status = 'archived' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'This template is archived. Choose an active template.')::text;
  end if;
  if template.latest_version is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Publish this template before scheduling it.')::text;
  end if;

  if new.template_version_id is null then
    select v.id into new.template_version_id
    from public.template_versions v
    where v.template_id = new.template_id and v.version = template.latest_version;
  else
    select v.template_id into version_template from public.template_versions v where v.id = new.template_version_id;
    if version_template is distinct from new.template_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'template_version_id', 'message', 'Choose a version of this template.')::text;
    end if;
  end if;

  perform private.check_inspection_assignee(new.org_id, new.assignee_id);

  -- Both names fit 120 characters each; the title keeps the first 120 of the pair.
  new.title := coalesce(new.title, rtrim(left(template.name || ' — ' || site.name, 120)));
  return new;
end;
$$;

comment on function private.prepare_inspection() is
  'Before-insert trigger: site, template and assignee consistency, pins the latest version, default title.';

revoke all on function private.prepare_inspection() from public, anon, authenticated;

create trigger inspections_prepare
  before insert on public.inspections
  for each row execute function private.prepare_inspection();

-- Score columns change with every saved answer; the answers keep their own history, so the
-- inspection's entries record only its own changes (status, assignment, dates, notes).
create trigger inspections_write_audit_log
  after insert or update or delete on public.inspections
  for each row execute function private.write_audit_log('score', 'max_score', 'failed_count', 'version');

create trigger inspections_enforce_mfa
  before insert or update or delete on public.inspections
  for each row execute function private.enforce_organization_mfa();

create policy "Owners, admins and managers can schedule inspections"
  on public.inspections
  for insert
  to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

-- Inspectors work on inspections assigned to them or to nobody (an unassigned inspection is open
-- to every inspector); which moves each role may make is decided by the transitions trigger.
create policy "Members who fill in inspections can update theirs"
  on public.inspections
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
  );

-- No delete policy: inspections are canceled, never deleted, so their history stays.

-- Lifecycle columns (started_at, submitted_by, …), the score and created_by are set by triggers
-- and defaults only; the start position and the review note come with their transition.
grant insert (id, org_id, site_id, template_id, template_version_id, title, assignee_id, due_at, external_ref)
  on table public.inspections to authenticated;
grant update (title, assignee_id, due_at, external_ref, status, start_latitude, start_longitude, start_accuracy_m, review_note)
  on table public.inspections to authenticated;
