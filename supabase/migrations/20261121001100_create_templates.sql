-- Templates (PRODUCT.md §3, §4): a checklist an organization edits as a draft and publishes as
-- immutable numbered versions; inspections pin the version they were scheduled with, so a
-- later edit never changes an inspection already under way.
-- SKELETON by the lead: tables, indexes, base policies. The templates owner completes it
-- (definition validation, publish, archive, audit, broadcast).

create type public.template_status as enum ('draft', 'published', 'archived');
comment on type public.template_status is 'draft → published → archived (PRODUCT.md §4).';

create table public.templates (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint templates_name_check check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  description text
    constraint templates_description_check check (char_length(description) between 1 and 2000 and description !~ '^\s|\s$'),
  status public.template_status not null default 'draft',
  -- The working draft: sections → items (format in docs/templates.md). Published versions copy it.
  definition jsonb not null default '{"sections": []}',
  -- Number of the newest published version; null until the first publish.
  latest_version integer
    constraint templates_latest_version_check check (latest_version >= 1),
  -- Optimistic concurrency for two people editing the same draft (PATCH base_revision).
  revision integer not null default 1,
  archived_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.templates is 'Checklists: a working draft plus a pointer to the newest published version.';

create index templates_org_id_name_idx on public.templates (org_id, name, id);
create index templates_created_by_idx on public.templates (created_by);

create table public.template_versions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  template_id uuid not null references public.templates (id) on delete cascade,
  version integer not null
    constraint template_versions_version_check check (version >= 1),
  name text not null,
  description text,
  definition jsonb not null,
  published_by uuid default auth.uid() references auth.users (id) on delete set null,
  published_at timestamptz not null default now(),
  constraint template_versions_template_id_version_key unique (template_id, version)
);

comment on table public.template_versions is 'Immutable published snapshots of a template; inspections pin one.';

create index template_versions_org_id_idx on public.template_versions (org_id);
create index template_versions_published_by_idx on public.template_versions (published_by);

create trigger templates_set_updated_at
  before update on public.templates
  for each row execute function private.set_updated_at();

alter table public.templates enable row level security;
alter table public.template_versions enable row level security;

create policy "Members can read their organization's templates"
  on public.templates
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Members can read their organization's template versions"
  on public.template_versions
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

revoke all on table public.templates, public.template_versions from anon, authenticated;
grant select on table public.templates, public.template_versions to authenticated;
grant all on table public.templates, public.template_versions to service_role;
