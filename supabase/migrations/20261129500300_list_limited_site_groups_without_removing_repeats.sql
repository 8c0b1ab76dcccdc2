-- private.limited_site_group_ids no longer removes repeated groups (issue 27; docs/site-groups.md,
-- "Hot paths"). A group comes twice only when the caller's own groups overlap (a region and an
-- area inside it), and every user of the helper asks whether a group is among those it returns
-- (`in (select …)`, `= any (array(select …))`, set comparisons in tests), which repeats do not
-- change. The `distinct` cost a quarter of the helper's time (20 of 80 µs for a region's 100
-- groups), and a limited member's list of inspections evaluates the helper five times.

create or replace function private.limited_site_group_ids(roles public.org_role[] default null)
returns setof uuid
language plpgsql
stable
security definer
rows 50
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      select t.descendant_id
      from public.memberships m
      join public.membership_site_groups g on g.org_id = m.org_id and g.user_id = m.user_id
      join private.site_group_tree t on t.ancestor_id = g.site_group_id
      where m.user_id = uid and m.site_access_limited and (roles is null or m.role = any (roles));
  else
    return query
      select t.descendant_id
      from private.current_api_key() k
      join public.api_keys a on a.id = k.id
      join public.api_key_site_groups g on g.api_key_id = k.id and g.org_id = k.org_id
      join private.site_group_tree t on t.ancestor_id = g.site_group_id
      where a.site_access_limited and (roles is null or k.role = any (roles));
  end if;
end;
$$;

comment on function private.limited_site_group_ids(public.org_role[]) is 'Site groups the caller sees through the groups it is limited to, with their descendants (none where it is org-wide), optionally only with one of the given roles; a group may come twice when the caller''s groups overlap: ask whether a group is among them.';
