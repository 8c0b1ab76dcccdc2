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
