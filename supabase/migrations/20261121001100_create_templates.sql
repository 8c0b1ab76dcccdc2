-- Templates (PRODUCT.md §3, §4): a checklist an organization edits as a draft and publishes as
-- immutable numbered versions; inspections pin the version they were scheduled with, so a
-- later edit never changes an inspection already under way.
-- Publishing is an insert into template_versions that names only the template: the database
-- copies the draft, numbers the version and moves the template's pointer, so no caller can
-- number, backdate or alter a version (docs/templates.md).

create type public.template_status as enum ('draft', 'published', 'archived');
comment on type public.template_status is 'draft → published → archived (PRODUCT.md §4).';

-- Items in a definition, all sections together.
create or replace function private.template_item_count(definition jsonb)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select count(*)::integer
  from jsonb_array_elements(case when jsonb_typeof(definition -> 'sections') = 'array' then definition -> 'sections' else '[]' end) s,
       jsonb_array_elements(case when jsonb_typeof(s -> 'items') = 'array' then s -> 'items' else '[]' end) i;
$$;

-- What is wrong with a one-line text field (label, title, option, unit): null when it is a
-- string of 1..max_length characters without surrounding spaces.
create or replace function private.template_text_problem(value jsonb, max_length integer, nullable boolean default false)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when value is null then 'Add this field' || case when nullable then ' (null when unused).' else '.' end
    when jsonb_typeof(value) = 'null' and nullable then null
    when jsonb_typeof(value) <> 'string' then 'Use text' || case when nullable then ' or null.' else '.' end
    when char_length(value #>> '{}') < 1 then 'Enter some text.'
    when char_length(value #>> '{}') > max_length then 'Use at most ' || max_length || ' characters.'
    when (value #>> '{}') ~ '^\s|\s$' then 'Remove the spaces at the start and end.'
  end;
$$;

-- The database's copy of the definition rules of _shared/schemas/templates.ts: null when the
-- definition is valid, else '<path>: <message>' for the first problem, the path as the API
-- reports it (sections.0.items.2.options). Immutable so check constraints may use it.
create or replace function private.template_definition_problem(definition jsonb)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  key_pattern constant text := '^[a-z0-9][a-z0-9_-]{0,63}$';
  base_keys constant text[] := array['key', 'kind', 'label', 'help', 'required', 'weight'];
  section jsonb;
  item jsonb;
  s integer := 0;
  i integer;
  path text;
  problem text;
  section_keys text[] := '{}';
  item_keys text[] := '{}';
  kind_keys text[];
  expected_keys text[];
  unknown_key text;
  missing_key text;
  options text[];
  failing text[];
  entry jsonb;
  n integer;
begin
  if jsonb_typeof(definition) is distinct from 'object' then
    return ': Send the definition as an object with sections.';
  end if;
  select k into unknown_key from jsonb_object_keys(definition) k where k <> 'sections' limit 1;
  if unknown_key is not null then
    return unknown_key || ': This field is not allowed.';
  end if;
  if jsonb_typeof(definition -> 'sections') is distinct from 'array' then
    return 'sections: List the sections.';
  end if;
  if jsonb_array_length(definition -> 'sections') > 50 then
    return 'sections: Use at most 50 sections.';
  end if;
  if private.template_item_count(definition) > 500 then
    return 'sections: Use at most 500 items in a template (this one has ' || private.template_item_count(definition) || ').';
  end if;

  for section in select value from jsonb_array_elements(definition -> 'sections') loop
    path := 'sections.' || s;
    if jsonb_typeof(section) <> 'object' then
      return path || ': Describe the section as an object.';
    end if;
    select k into unknown_key from jsonb_object_keys(section) k where k not in ('key', 'title', 'items') limit 1;
    if unknown_key is not null then
      return path || '.' || unknown_key || ': This field is not allowed.';
    end if;
    if jsonb_typeof(section -> 'key') is distinct from 'string' or (section ->> 'key') !~ key_pattern then
      return path || '.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.';
    end if;
    if (section ->> 'key') = any (section_keys) then
      return path || '.key: Use a key no other section has.';
    end if;
    section_keys := section_keys || (section ->> 'key');
    problem := private.template_text_problem(section -> 'title', 120);
    if problem is not null then
      return path || '.title: ' || problem;
    end if;
    if jsonb_typeof(section -> 'items') is distinct from 'array' then
      return path || '.items: List the section''s items.';
    end if;

    i := 0;
    for item in select value from jsonb_array_elements(section -> 'items') loop
      path := 'sections.' || s || '.items.' || i;
      if jsonb_typeof(item) <> 'object' then
        return path || ': Describe the item as an object.';
      end if;
      -- null for an unknown kind (checked before joining it to the base keys, which would hide it).
      kind_keys := case item ->> 'kind'
        when 'pass_fail' then '{}'::text[]
        when 'yes_no' then array['fail_on']
        when 'number' then array['min', 'max', 'unit']
        when 'text' then '{}'::text[]
        when 'single_choice' then array['options', 'failing_options']
        when 'multi_choice' then array['options', 'failing_options']
        when 'date' then '{}'::text[]
        when 'photo' then array['max_photos']
        when 'signature' then '{}'::text[]
      end;
      if jsonb_typeof(item -> 'kind') is distinct from 'string' or kind_keys is null then
        return path || '.kind: Choose a kind: pass_fail, yes_no, number, text, single_choice, multi_choice, date, photo, signature.';
      end if;
      expected_keys := base_keys || kind_keys;
      -- Exactly the kind's keys: readers never meet a setting of another kind or a missing one.
      select k into unknown_key from jsonb_object_keys(item) k where k <> all (expected_keys) limit 1;
      if unknown_key is not null then
        return path || '.' || unknown_key || ': This field is not allowed.';
      end if;
      select k into missing_key from unnest(expected_keys) k where not item ? k limit 1;
      if missing_key is not null then
        return path || '.' || missing_key || ': Add this field.';
      end if;

      if jsonb_typeof(item -> 'key') <> 'string' or (item ->> 'key') !~ key_pattern then
        return path || '.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.';
      end if;
      if (item ->> 'key') = any (item_keys) then
        return path || '.key: Use a key no other item has.';
      end if;
      item_keys := item_keys || (item ->> 'key');
      problem := private.template_text_problem(item -> 'label', 500);
      if problem is not null then
        return path || '.label: ' || problem;
      end if;
      problem := private.template_text_problem(item -> 'help', 2000, true);
      if problem is not null then
        return path || '.help: ' || problem;
      end if;
      if jsonb_typeof(item -> 'required') <> 'boolean' then
        return path || '.required: Use true or false.';
      end if;
      if jsonb_typeof(item -> 'weight') <> 'number' or (item ->> 'weight')::numeric not between 0 and 100 then
        return path || '.weight: Enter a weight from 0 to 100.';
      end if;

      case item ->> 'kind'
      when 'yes_no' then
        if jsonb_typeof(item -> 'fail_on') <> 'null' and (item -> 'fail_on') not in ('"yes"', '"no"') then
          return path || '.fail_on: Choose yes, no or neither.';
        end if;
      when 'number' then
        if jsonb_typeof(item -> 'min') not in ('number', 'null') then
          return path || '.min: Enter a number, or leave it empty.';
        end if;
        if jsonb_typeof(item -> 'max') not in ('number', 'null') then
          return path || '.max: Enter a number, or leave it empty.';
        end if;
        if (item ->> 'min')::numeric > (item ->> 'max')::numeric then
          return path || '.max: Use a maximum at least as large as the minimum.';
        end if;
        problem := private.template_text_problem(item -> 'unit', 20, true);
        if problem is not null then
          return path || '.unit: ' || problem;
        end if;
      when 'single_choice', 'multi_choice' then
        if jsonb_typeof(item -> 'options') <> 'array' or jsonb_array_length(item -> 'options') = 0 then
          return path || '.options: Add at least one option.';
        end if;
        if jsonb_array_length(item -> 'options') > 50 then
          return path || '.options: Use at most 50 options.';
        end if;
        options := '{}';
        n := 0;
        for entry in select value from jsonb_array_elements(item -> 'options') loop
          problem := private.template_text_problem(entry, 120);
          if problem is not null then
            return path || '.options.' || n || ': ' || problem;
          end if;
          if (entry #>> '{}') = any (options) then
            return path || '.options.' || n || ': Remove the repeated option.';
          end if;
          options := options || (entry #>> '{}');
          n := n + 1;
        end loop;
        if jsonb_typeof(item -> 'failing_options') <> 'array' then
          return path || '.failing_options: List the failing options.';
        end if;
        failing := '{}';
        n := 0;
        for entry in select value from jsonb_array_elements(item -> 'failing_options') loop
          if jsonb_typeof(entry) <> 'string' or not (entry #>> '{}') = any (options) then
            return path || '.failing_options.' || n || ': Choose failing options from the item''s options.';
          end if;
          if (entry #>> '{}') = any (failing) then
            return path || '.failing_options.' || n || ': Remove the repeated failing option.';
          end if;
          failing := failing || (entry #>> '{}');
          n := n + 1;
        end loop;
      when 'photo' then
        if jsonb_typeof(item -> 'max_photos') <> 'number'
           or (item ->> 'max_photos')::numeric <> trunc((item ->> 'max_photos')::numeric)
           or (item ->> 'max_photos')::numeric not between 1 and 10 then
          return path || '.max_photos: Enter a whole number of photos from 1 to 10.';
        end if;
      else
        null;
      end case;
      i := i + 1;
    end loop;
    s := s + 1;
  end loop;
  return null;
end;
$$;

comment on function private.template_definition_problem(jsonb) is
  'Null when a template definition is valid, else ''<path>: <message>'' for its first problem.';

-- The same rule as a form error: validation_failed on field definition.<path> (the constraint
-- alone would only say "check violation"). Checked up front so the API's field names apply.
create or replace function private.assert_template_definition(definition jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
declare
  problem text := private.template_definition_problem(definition);
begin
  if problem is not null then
    raise exception 'validation_failed' using detail = json_build_object(
      'field', rtrim('definition.' || split_part(problem, ': ', 1), '.'),
      'message', substr(problem, strpos(problem, ': ') + 2))::text;
  end if;
end;
$$;

revoke all on function private.assert_template_definition(jsonb) from public, anon;
grant execute on function private.assert_template_definition(jsonb) to authenticated, service_role;

-- Check constraints run their functions with the writer's privileges.
revoke all on function private.template_item_count(jsonb), private.template_text_problem(jsonb, integer, boolean),
  private.template_definition_problem(jsonb) from public, anon;
grant execute on function private.template_item_count(jsonb), private.template_text_problem(jsonb, integer, boolean),
  private.template_definition_problem(jsonb) to authenticated, service_role;

create table public.templates (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint templates_name_check check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  description text
    constraint templates_description_check check (char_length(description) between 1 and 2000 and description !~ '^\s|\s$'),
  status public.template_status not null default 'draft',
  -- The working draft: sections → items (format in docs/templates.md). Published versions copy it.
  definition jsonb not null default '{"sections": []}'
    constraint templates_definition_check check (private.template_definition_problem(definition) is null),
  -- Number of the newest published version; null until the first publish.
  latest_version integer
    constraint templates_latest_version_check check (latest_version >= 1),
  -- Optimistic concurrency for two people editing the same draft (PATCH base_revision).
  revision integer not null default 1,
  archived_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A draft has never been published; a published template has a version; archived may be either.
  constraint templates_status_version_check check (
    (status = 'draft' and latest_version is null) or (status = 'published' and latest_version is not null) or status = 'archived'
  ),
  constraint templates_archived_at_check check ((status = 'archived') = (archived_at is not null))
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
  definition jsonb not null
    constraint template_versions_definition_check check (
      private.template_definition_problem(definition) is null and private.template_item_count(definition) >= 1
    ),
  published_by uuid default auth.uid() references auth.users (id) on delete set null,
  published_at timestamptz not null default now(),
  constraint template_versions_template_id_version_key unique (template_id, version)
);

comment on table public.template_versions is 'Immutable published snapshots of a template; inspections pin one.';

create index template_versions_org_id_idx on public.template_versions (org_id);
create index template_versions_published_by_idx on public.template_versions (published_by);

-- Whether the draft differs from the newest published version (always, before the first).
-- As the caller: members read both tables.
create or replace function private.has_unpublished_changes(template public.templates)
returns boolean
language sql
stable
set search_path = ''
as $$
  select not exists (
    select 1 from public.template_versions v
    where v.template_id = template.id and v.version = template.latest_version
      and v.name = template.name and v.description is not distinct from template.description
      and v.definition = template.definition
  );
$$;

revoke all on function private.has_unpublished_changes(public.templates) from public, anon;
grant execute on function private.has_unpublished_changes(public.templates) to authenticated, service_role;

-- A new template is a draft at revision 1; publishing and archiving come later, as updates.
create or replace function private.prepare_template()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status <> 'draft' or new.latest_version is not null or new.archived_at is not null then
    raise exception 'A template starts as a draft; publish it to make version 1.' using errcode = '23514';
  end if;
  new.revision := 1;
  perform private.assert_template_definition(new.definition);
  return new;
end;
$$;

-- Every change of a template: archived ones are frozen, the status only moves forward, the
-- pointer only to the newest version, and the revision counts changes of the draft.
create or replace function private.guard_template_change()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  draft_changed boolean := (new.name, new.description, new.definition) is distinct from (old.name, old.description, old.definition);
begin
  -- Deleting the user who created it (created_by set null) is the one change an archived template takes.
  if old.status = 'archived' and to_jsonb(new) - '{created_by,updated_at}'::text[] <> to_jsonb(old) - '{created_by,updated_at}'::text[] then
    raise exception 'invalid_transition' using detail = json_build_object('thing', 'template', 'status', 'archived',
      'verb', case when new.latest_version is distinct from old.latest_version then 'published' else 'edited' end)::text;
  end if;
  -- draft → published (by publishing) → archived; a draft nobody published may be archived too.
  if new.status <> old.status and not (
    (old.status = 'draft' and new.status = 'published') or new.status = 'archived'
  ) then
    raise exception 'invalid_transition' using detail = json_build_object('thing', 'template', 'status', old.status,
      'verb', case new.status when 'draft' then 'returned to draft' else new.status::text end)::text;
  end if;
  if new.latest_version is distinct from old.latest_version and new.latest_version is distinct from (
    select max(v.version) from public.template_versions v where v.template_id = new.id
  ) then
    raise exception 'latest_version must be the newest published version' using errcode = '23514';
  end if;
  new.archived_at := case when new.status = 'archived' then coalesce(old.archived_at, now()) end;
  new.revision := old.revision + case when draft_changed then 1 else 0 end;
  if new.definition is distinct from old.definition then
    perform private.assert_template_definition(new.definition);
  end if;
  return new;
end;
$$;

-- Publishing: the version is the locked template's draft under the next number. As the caller:
-- the lock (select … for update) sees only templates the caller may update, so nobody else
-- learns anything about a template from the errors below. Publishing a draft identical to the
-- newest version inserts nothing.
create or replace function private.copy_draft_into_version()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  template public.templates;
begin
  select * into template from public.templates t where t.id = new.template_id for update;
  if template.id is null then
    raise exception 'new row violates row-level security policy for table "template_versions"' using errcode = '42501';
  end if;
  if template.status = 'archived' then
    raise exception 'invalid_transition' using detail = json_build_object('thing', 'template', 'status', 'archived', 'verb', 'published')::text;
  end if;
  if private.template_item_count(template.definition) = 0 then
    raise exception 'validation_failed' using detail = json_build_object('field', 'definition', 'message', 'Add at least one item before publishing.')::text;
  end if;
  if not private.has_unpublished_changes(template) then
    return null;
  end if;
  new.org_id := template.org_id;
  new.version := coalesce(template.latest_version, 0) + 1;
  new.name := template.name;
  new.description := template.description;
  new.definition := template.definition;
  return new;
end;
$$;

-- After a version is inserted the template points at it. security definer because callers
-- may not set latest_version or status = published themselves; the version insert it follows
-- has already passed RLS and the MFA check as the caller.
create or replace function private.point_template_at_version()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.templates t
  set latest_version = new.version,
      status = case when t.status = 'draft' then 'published'::public.template_status else t.status end
  where t.id = new.template_id;
  return null;
end;
$$;

-- Versions never change, for every role including the table's owner. Deleting one is only
-- possible as part of deleting its organization (the cascade), when that row is already gone.
create or replace function private.refuse_template_version_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.organizations o where o.id = old.org_id) then
    return old;
  end if;
  -- Deleting the user who published it sets published_by null; nothing else may change.
  if tg_op = 'UPDATE' and new.published_by is null and to_jsonb(new) - 'published_by' = to_jsonb(old) - 'published_by' then
    return new;
  end if;
  raise exception 'template versions are immutable' using errcode = '42501';
end;
$$;

revoke all on function private.prepare_template(), private.guard_template_change(), private.copy_draft_into_version(),
  private.point_template_at_version(), private.refuse_template_version_change()
  from public, anon, authenticated;

create trigger templates_prepare
  before insert on public.templates
  for each row execute function private.prepare_template();

create trigger templates_guard_change
  before update on public.templates
  for each row execute function private.guard_template_change();

create trigger templates_set_updated_at
  before update on public.templates
  for each row execute function private.set_updated_at();

create trigger templates_enforce_mfa
  before insert or update or delete on public.templates
  for each row execute function private.enforce_organization_mfa();

create trigger templates_write_audit_log
  after insert or update or delete on public.templates
  for each row execute function private.write_audit_log();

-- template_created / template_updated on `org:<id>`, with the status (20261121001050).
create trigger templates_broadcast_change
  after insert or update or delete on public.templates
  for each row execute function private.broadcast_organization_change();

-- Before-row triggers fire in name order: the copy fills org_id before the MFA check reads it.
create trigger template_versions_copy_draft
  before insert on public.template_versions
  for each row execute function private.copy_draft_into_version();

create trigger template_versions_enforce_mfa
  before insert on public.template_versions
  for each row execute function private.enforce_organization_mfa();

create trigger template_versions_point_template
  after insert on public.template_versions
  for each row execute function private.point_template_at_version();

create trigger template_versions_immutable
  before update or delete on public.template_versions
  for each row execute function private.refuse_template_version_change();

create trigger template_versions_no_truncate
  before truncate on public.template_versions
  for each statement execute function private.refuse_template_version_change();

create trigger template_versions_write_audit_log
  after insert or delete on public.template_versions
  for each row execute function private.write_audit_log();

alter table public.templates enable row level security;
alter table public.template_versions enable row level security;

create policy "Members can read their organization's templates"
  on public.templates
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners, admins and managers can add templates"
  on public.templates
  for insert
  to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

create policy "Owners, admins and managers can edit and archive templates"
  on public.templates
  for update
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')))
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

-- No delete policy: templates are archived, so inspections keep their version.

create policy "Members can read their organization's template versions"
  on public.template_versions
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners, admins and managers can publish templates"
  on public.template_versions
  for insert
  to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

revoke all on table public.templates, public.template_versions from anon, authenticated;
grant select on table public.templates, public.template_versions to authenticated;
-- created_by is always the caller; status, revision, latest_version and archived_at are the triggers'.
grant insert (id, org_id, name, description, definition) on table public.templates to authenticated;
-- status: only to archive (the trigger refuses the rest; published needs a version).
grant update (name, description, definition, status) on table public.templates to authenticated;
-- Publishing names the template; the trigger fills in everything else.
grant insert (template_id) on table public.template_versions to authenticated;
grant all on table public.templates, public.template_versions to service_role;
