-- The site group tree as a closure table (issue 27; docs/site-groups.md, "Hot paths"): one row per
-- group and each of its ancestors, itself included (distance 0), at most three per group.
--
-- Why: every policy on something at a site asks "which groups does the caller see", the groups it
-- is limited to and everything below them. Walked through parent_id that was a recursive query
-- over the organization's groups (0.4 ms of CPU at 1,000 groups, more than the rest of a site
-- read), evaluated once per policy in a statement, and a list of inspections has six of them.
-- From this table it is one index range per granted group (0.1 ms). Moves, the tree's height and
-- cycles are answered from it too, and so are the ancestors a site event is sent to.
--
-- Private: clients never read it; the helpers (security definer) do. Kept by the site_groups
-- triggers below; a group's rows go when it does (on delete cascade).

create table private.site_group_tree (
  ancestor_id uuid not null references public.site_groups (id) on delete cascade,
  descendant_id uuid not null references public.site_groups (id) on delete cascade,
  org_id uuid not null,
  distance smallint not null check (distance between 0 and 2),
  primary key (ancestor_id, descendant_id)
);

comment on table private.site_group_tree is 'Each site group with each of its ancestors and itself (distance 0 = itself, 1 = parent, 2 = grandparent); kept by triggers on site_groups.';

create index site_group_tree_descendant_id_idx on private.site_group_tree (descendant_id, ancestor_id);

insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance)
select g.id, g.id, g.org_id, 0 from public.site_groups g
union all
select g.parent_id, g.id, g.org_id, 1 from public.site_groups g where g.parent_id is not null
union all
select p.parent_id, g.id, g.org_id, 2 from public.site_groups g join public.site_groups p on p.id = g.parent_id where p.parent_id is not null;

-- A new group: itself, and its parent's ancestors one step further.
create or replace function private.add_site_group_to_tree()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance)
  select new.id, new.id, new.org_id, 0
  union all
  select t.ancestor_id, new.id, new.org_id, t.distance + 1
  from private.site_group_tree t
  where t.descendant_id = new.parent_id;
  return null;
end;
$$;

revoke all on function private.add_site_group_to_tree() from public, anon, authenticated;

create trigger site_groups_add_to_tree
  after insert on public.site_groups
  for each row execute function private.add_site_group_to_tree();

-- The move's checks, now from the tree: a cycle is the new parent being the group or below it; the
-- deepest group below goes as many levels down as the group does.
create or replace function private.move_site_group()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  parent_depth smallint;
  height smallint;
begin
  new.depth := old.depth;
  if new.parent_id is not distinct from old.parent_id then
    return new;
  end if;
  if private.is_client_request()
     and new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}')) then
    return new;
  end if;
  -- Locking the organization serializes moves (and inserts) of its groups: two moves at once
  -- cannot make a cycle together, and the tree below is read as it is.
  perform 1 from public.organizations o where o.id = new.org_id for no key update;
  if new.parent_id is null then
    new.depth := 1;
  else
    if exists (select 1 from private.site_group_tree t where t.ancestor_id = new.id and t.descendant_id = new.parent_id) then
      perform private.refuse_site_group_parent('A group cannot be moved inside itself.', 'site_groups_parent_id_check');
    end if;
    select g.depth into parent_depth from public.site_groups g where g.org_id = new.org_id and g.id = new.parent_id;
    new.depth := coalesce(parent_depth, 0) + 1;
  end if;
  select max(t.distance) into height from private.site_group_tree t where t.ancestor_id = new.id;
  if new.depth + coalesce(height, 0) > 3 then
    perform private.refuse_site_group_parent('Groups can be at most three levels deep.', 'site_groups_depth_check');
  end if;
  return new;
end;
$$;

-- After a move: the moved subtree leaves its old ancestors and joins the new parent's, and its
-- groups below take their new depths.
create or replace function private.redepth_site_group_descendants()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.site_group_tree t
  where t.descendant_id in (select b.descendant_id from private.site_group_tree b where b.ancestor_id = new.id)
    and t.ancestor_id not in (select b.descendant_id from private.site_group_tree b where b.ancestor_id = new.id);
  insert into private.site_group_tree (ancestor_id, descendant_id, org_id, distance)
  select a.ancestor_id, b.descendant_id, new.org_id, a.distance + 1 + b.distance
  from private.site_group_tree a
  cross join private.site_group_tree b
  where a.descendant_id = new.parent_id and b.ancestor_id = new.id;
  update public.site_groups g set depth = new.depth + b.distance
  from private.site_group_tree b
  where b.ancestor_id = new.id and b.distance > 0 and g.id = b.descendant_id and g.depth <> new.depth + b.distance;
  return null;
end;
$$;

drop trigger site_groups_redepth_descendants on public.site_groups;
create trigger site_groups_rearrange_tree
  after update of parent_id on public.site_groups
  for each row when (old.parent_id is distinct from new.parent_id)
  execute function private.redepth_site_group_descendants();

-- The helpers, from the tree.
create or replace function private.limited_site_group_ids(roles public.org_role[] default null)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      select distinct t.descendant_id
      from public.memberships m
      join public.membership_site_groups g on g.org_id = m.org_id and g.user_id = m.user_id
      join private.site_group_tree t on t.ancestor_id = g.site_group_id
      where m.user_id = uid and m.site_access_limited and (roles is null or m.role = any (roles));
  else
    return query
      select distinct t.descendant_id
      from private.current_api_key() k
      join public.api_keys a on a.id = k.id
      join public.api_key_site_groups g on g.api_key_id = k.id and g.org_id = k.org_id
      join private.site_group_tree t on t.ancestor_id = g.site_group_id
      where a.site_access_limited and (roles is null or k.role = any (roles));
  end if;
end;
$$;

create or replace function private.limited_site_group_ancestor_ids()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      select distinct t.ancestor_id
      from public.memberships m
      join public.membership_site_groups g on g.org_id = m.org_id and g.user_id = m.user_id
      join private.site_group_tree t on t.descendant_id = g.site_group_id and t.distance > 0
      where m.user_id = uid and m.site_access_limited;
  else
    return query
      select distinct t.ancestor_id
      from private.current_api_key() k
      join public.api_keys a on a.id = k.id
      join public.api_key_site_groups g on g.api_key_id = k.id and g.org_id = k.org_id
      join private.site_group_tree t on t.descendant_id = g.site_group_id and t.distance > 0
      where a.site_access_limited;
  end if;
end;
$$;

-- For the api's group filters ("a group includes its descendants"): the group and every group
-- below it, of the caller's organizations only.
create or replace function private.site_group_subtree_ids(site_group uuid)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select t.descendant_id from private.site_group_tree t
    where t.ancestor_id = site_group and t.org_id in (select private.org_ids_of_current_user());
end;
$$;

comment on function private.site_group_subtree_ids(uuid) is
  'The group and every group below it, when it is of one of the caller''s organizations (else none): for filters by group. What the caller sees of them is RLS''s business.';

revoke all on function private.site_group_subtree_ids(uuid) from public, anon;
grant execute on function private.site_group_subtree_ids(uuid) to authenticated, service_role;

-- The group and the groups above it, nearest first: where an event about a site in it is sent.
create or replace function private.site_group_and_ancestor_ids(site_group uuid)
returns setof uuid
language sql
stable
set search_path = ''
as $$
  select t.ancestor_id from private.site_group_tree t where t.descendant_id = site_group order by t.distance;
$$;

comment on function private.site_group_and_ancestor_ids(uuid) is
  'The group itself and its ancestors, nearest first (for the realtime topics of a site''s events).';

revoke all on function private.site_group_and_ancestor_ids(uuid) from public, anon, authenticated;
