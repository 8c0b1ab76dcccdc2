-- Lists for a member who sees few sites of a large organization (issue 27; docs/site-groups.md,
-- "Hot paths"). A list newest first walks the organization's index and drops the rows the caller
-- does not see: cheap when it sees a good share of the sites, but a member limited to one
-- sub-area of 100,000 sites walks tens of thousands of rows for a page (1.2 s measured), and one
-- whose sites have no inspection walks all of them (3.7 s). Such a caller's page is cheaper read
-- site by site: each visible site's newest inspections by an index, then the newest of those.
--
-- What this migration gives the lists for that:
--   - private.limited_site_count(org): how many sites the caller sees in the organization when it
--     is limited there (null when it is org-wide or not a member), cheap enough to ask first;
--   - an index of inspections by site, newest first, for the page read site by site (it replaces
--     the plain index on site_id, whose work it does: the foreign key, filters by site);
--   - row estimates for the helpers: a caller is limited to tens of groups, not the thousand
--     rows Postgres assumes of a set-returning function, and with that estimate a count or a
--     join over "the sites of my groups" uses the sites' group index instead of reading every
--     site of the organization (20 ms → 0.5 ms for a sub-area of 112 sites).

alter function private.limited_site_group_ids(public.org_role[]) rows 50;
alter function private.limited_site_group_ancestor_ids() rows 10;

create index inspections_site_id_created_at_idx on public.inspections (site_id, created_at desc, id desc);
drop index public.inspections_site_id_idx;

create or replace function private.limited_site_count(org uuid)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if org in (select private.org_ids_with_every_site()) or org not in (select private.org_ids_of_current_user()) then
    return null;
  end if;
  return (
    select count(*)::integer from public.sites s
    where s.org_id = org and s.group_id in (select private.limited_site_group_ids())
  );
end;
$$;

comment on function private.limited_site_count(uuid) is
  'How many sites the caller sees in the organization when it is limited to site groups there; null when it is org-wide or not a member. For choosing how to read a list (docs/site-groups.md, "Hot paths").';

revoke all on function private.limited_site_count(uuid) from public, anon;
grant execute on function private.limited_site_count(uuid) to authenticated, service_role;
