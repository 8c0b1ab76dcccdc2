-- Two security definer helpers the api and the Storage policy call with an id told more than the
-- caller may know:
--   private.site_group_of_evidence_object(path) answered the group of any inspection or action
--     the path named, of any organization: a member limited to North learnt South's group ids,
--     and another organization's owner learnt this one's. It now answers only for an inspection
--     or action at a site the caller sees (private.can_see_site, one point check), else null —
--     what the Storage read policy compares with the caller's groups, so it admits the same.
--   private.site_group_subtree_ids(group) answered every group below any group of the caller's
--     organizations. It now answers only the groups of that subtree the caller sees: all of them
--     where it is org-wide, else those among its limited groups (and below them). A filter by a
--     group above the caller's own therefore keeps the caller's part of it, and a filter by a
--     group outside finds nothing — as if the group did not exist.

create or replace function private.site_group_of_evidence_object(object_name text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  folders text[] := storage.foldername(object_name);
  uuid_pattern constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  found_org uuid;
  found_site uuid;
  found_group uuid;
begin
  if folders[1] !~ uuid_pattern then
    return null;
  end if;
  if folders[2] = 'actions' then
    if folders[3] !~ uuid_pattern then
      return null;
    end if;
    select a.org_id, a.site_id, s.group_id into found_org, found_site, found_group
    from public.actions a join public.sites s on s.id = a.site_id
    where a.id = folders[3]::uuid and a.org_id = folders[1]::uuid;
  elsif folders[2] ~ uuid_pattern then
    select i.org_id, i.site_id, s.group_id into found_org, found_site, found_group
    from public.inspections i join public.sites s on s.id = i.site_id
    where i.id = folders[2]::uuid and i.org_id = folders[1]::uuid;
  end if;
  if found_site is null or not private.can_see_site(found_org, found_site) then
    return null;
  end if;
  return found_group;
end;
$$;

comment on function private.site_group_of_evidence_object(text) is 'The site group of the inspection or action an evidence object''s path names, when the caller sees its site; else null. For the storage read policy.';

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
    where t.ancestor_id = site_group
      and (t.org_id in (select private.org_ids_with_every_site())
           or t.descendant_id in (select private.limited_site_group_ids()));
end;
$$;

comment on function private.site_group_subtree_ids(uuid) is 'The group and every group below it that the caller sees (org-wide: all of them; limited: those among its groups and below them); none for a group outside. For filters by group.';
