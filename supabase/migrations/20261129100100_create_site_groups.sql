-- Site groups (issue 27; docs/site-groups.md): a tree of up to three levels (region → area →
-- sub-area) that an organization puts its sites in, so that a member or an API key can be limited
-- to some of them. Each site is in at most one group (sites.group_id, the next migration).
--
-- The database keeps the tree a tree: `depth` (1 = top) is computed here, never sent by clients;
-- an insert under a group of depth 3, or a move that would put any group of the moved subtree
-- deeper than 3 or under itself, is refused with a check violation naming `parent_id`; at most
-- 1,000 groups per organization. Siblings may not share a name, nor may two top-level groups
-- (NULLS NOT DISTINCT). A group that still has child groups (or sites) cannot be deleted: the
-- foreign keys restrict it.
--
-- Row level security is enabled here; the policies come with the access rules in
-- 20261129100400 (until then, no client row passes).

create table public.site_groups (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  parent_id uuid,
  name text not null
    constraint site_groups_name_check check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  depth smallint not null
    constraint site_groups_depth_check check (depth between 1 and 3),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The target of the composite foreign keys that keep a parent, a site's group and an access
  -- grant in the same organization as the row pointing at it.
  constraint site_groups_org_id_id_key unique (org_id, id),
  constraint site_groups_org_id_parent_id_name_key unique nulls not distinct (org_id, parent_id, name),
  constraint site_groups_parent_fkey foreign key (org_id, parent_id)
    references public.site_groups (org_id, id) on delete restrict
);

comment on table public.site_groups is 'A tree (up to three levels) of groups an organization puts its sites in; members and API keys can be limited to some groups.';
comment on column public.site_groups.depth is 'Level in the tree, 1 at the top; kept by the database from parent_id (at most 3).';
comment on column public.site_groups.parent_id is 'The group this one is inside, in the same organization; null at the top.';

create index site_groups_created_by_idx on public.site_groups (created_by);

alter table public.site_groups enable row level security;

grant select, delete on public.site_groups to authenticated;
grant insert (id, org_id, parent_id, name) on public.site_groups to authenticated;
grant update (name, parent_id) on public.site_groups to authenticated;
grant all on public.site_groups to service_role;

-- Refuses a parent that would put a group (or the deepest group of its subtree) below level 3,
-- or a group under itself. A check violation naming parent_id, so the api answers a field error.
create or replace function private.refuse_site_group_parent(reason text, constraint_name text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using
    errcode = 'check_violation',
    message = reason,
    schema = 'public',
    table = 'site_groups',
    column = 'parent_id',
    constraint = constraint_name;
end;
$$;

revoke all on function private.refuse_site_group_parent(text, text) from public, anon;

-- Security definer: it counts and reads the organization's whole tree, which a limited manager
-- cannot see. It says nothing to a caller who is not a manager of the organization (RLS
-- refuses the row right after, as prepare_schedule does).
create or replace function private.prepare_site_group()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  group_limit constant integer := 1000;
  parent_depth smallint;
begin
  if private.is_client_request()
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    new.depth := 1;
    return new;
  end if;
  -- Locking the organization serializes inserts and moves of its groups, so the limit holds and
  -- two moves at once cannot make a cycle together.
  perform 1 from public.organizations o where o.id = new.org_id for no key update;
  if (select count(*) from public.site_groups g where g.org_id = new.org_id) >= group_limit then
    raise exception 'limit_exceeded' using detail = json_build_object('n', group_limit, 'things', 'site groups')::text;
  end if;
  if new.parent_id is null then
    new.depth := 1;
  else
    select g.depth into parent_depth from public.site_groups g where g.org_id = new.org_id and g.id = new.parent_id;
    -- An unknown parent: the foreign key refuses the row.
    new.depth := coalesce(parent_depth, 0) + 1;
    if new.depth > 3 then
      perform private.refuse_site_group_parent('Groups can be at most three levels deep.', 'site_groups_depth_check');
    end if;
  end if;
  return new;
end;
$$;

revoke all on function private.prepare_site_group() from public, anon, authenticated;

create trigger site_groups_prepare
  before insert on public.site_groups
  for each row execute function private.prepare_site_group();

-- A move: the new depth, no cycle, and the moved subtree's deepest group still at level 3 or
-- above. Security definer for the same reasons as prepare_site_group.
create or replace function private.move_site_group()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent_depth smallint;
  subtree_height smallint;
begin
  new.depth := old.depth;
  if new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  if private.is_client_request()
     and new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}')) then
    return new;
  end if;
  perform 1 from public.organizations o where o.id = new.org_id for no key update;
  if new.parent_id is null then
    new.depth := 1;
  else
    -- The new parent, or any group above it, being this group would make a cycle.
    if exists (
      with recursive above as (
        select g.id, g.parent_id from public.site_groups g where g.org_id = new.org_id and g.id = new.parent_id
        union all
        select g.id, g.parent_id from public.site_groups g join above a on g.org_id = new.org_id and g.id = a.parent_id
      )
      select 1 from above where above.id = new.id
    ) then
      perform private.refuse_site_group_parent('A group cannot be moved inside itself.', 'site_groups_parent_id_check');
    end if;
    select g.depth into parent_depth from public.site_groups g where g.org_id = new.org_id and g.id = new.parent_id;
    new.depth := coalesce(parent_depth, 0) + 1;
  end if;
  -- How many levels the group and its descendants span (1 for a group without children).
  with recursive below as (
    select g.id, 1 as height from public.site_groups g where g.id = new.id
    union all
    select g.id, b.height + 1 from public.site_groups g join below b on g.org_id = new.org_id and g.parent_id = b.id
    where b.height < 4
  )
  select max(height) into subtree_height from below;
  if new.depth + subtree_height - 1 > 3 then
    perform private.refuse_site_group_parent('Groups can be at most three levels deep.', 'site_groups_depth_check');
  end if;
  return new;
end;
$$;

revoke all on function private.move_site_group() from public, anon, authenticated;

create trigger site_groups_move
  before update of parent_id on public.site_groups
  for each row execute function private.move_site_group();

-- After a move, the moved group's descendants take their new depths (at most two levels).
create or replace function private.redepth_site_group_descendants()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with recursive below as (
    select g.id, new.depth + 1 as depth from public.site_groups g where g.org_id = new.org_id and g.parent_id = new.id
    union all
    select g.id, b.depth + 1 from public.site_groups g join below b on g.org_id = new.org_id and g.parent_id = b.id
    where b.depth < 3
  )
  update public.site_groups g set depth = below.depth
  from below
  where g.id = below.id and g.depth <> below.depth;
  return null;
end;
$$;

revoke all on function private.redepth_site_group_descendants() from public, anon, authenticated;

create trigger site_groups_redepth_descendants
  after update of parent_id on public.site_groups
  for each row when (old.depth is distinct from new.depth)
  execute function private.redepth_site_group_descendants();

create trigger site_groups_enforce_mfa
  before insert or update or delete on public.site_groups
  for each row execute function private.enforce_organization_mfa();

create trigger site_groups_set_updated_at
  before update on public.site_groups
  for each row execute function private.set_updated_at();

create trigger site_groups_write_audit_log
  after insert or update or delete on public.site_groups
  for each row execute function private.write_audit_log();
