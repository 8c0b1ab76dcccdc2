-- The views the policies look a row's site group up in (private.site_group_of_site,
-- _of_inspection, _of_action, _of_schedule_site) run as their owner, past the looked-up tables'
-- policies, and are readable by authenticated because the policies that read them run as the
-- caller. They showed every row of the caller's organizations, so a member limited to one region
-- could read the ids, sites and groups of every other region's inspections and actions by
-- querying them directly. Now they show only rows at a site the caller sees, by the rule itself
-- (docs/site-groups.md): org-wide in the row's organization, or the site's group among the
-- caller's limited groups. The policies ask the same of the row they look up, so what they admit
-- does not change; an org-wide caller never reaches the views (the policies' first test), and a
-- limited one pays the two helpers once more per statement, not per row (arrays, as before).
--
-- The schedules read policy also asked the schedule-site view whether a schedule has no site at
-- all (a new schedule, read by every member until its sites are added). Filtered, the view would
-- call a schedule whose sites are all outside "without sites" and show it; that test now asks
-- private.schedule_has_no_site, which looks past the policies for that one fact.

create or replace view private.site_group_of_site as
  select s.id as site_id, s.org_id, s.group_id
  from public.sites s
  where s.org_id = any (array(select private.org_ids_with_every_site()))
     or s.group_id = any (array(select private.limited_site_group_ids()));

comment on view private.site_group_of_site is 'The group of each site the caller sees (the rule), read past the sites policy: for the rule in other tables'' policies.';

create or replace view private.site_group_of_inspection as
  select i.id as inspection_id, i.org_id, i.site_id, s.group_id
  from public.inspections i
  join public.sites s on s.id = i.site_id
  where i.org_id = any (array(select private.org_ids_with_every_site()))
     or s.group_id = any (array(select private.limited_site_group_ids()));

comment on view private.site_group_of_inspection is 'The site and site group of each inspection at a site the caller sees (the rule), read past the policies: for the rule in policies.';

create or replace view private.site_group_of_action as
  select a.id as action_id, a.org_id, a.site_id, s.group_id
  from public.actions a
  join public.sites s on s.id = a.site_id
  where a.org_id = any (array(select private.org_ids_with_every_site()))
     or s.group_id = any (array(select private.limited_site_group_ids()));

comment on view private.site_group_of_action is 'The site and site group of each corrective action at a site the caller sees (the rule), read past the policies: for the rule in policies.';

create or replace view private.site_group_of_schedule_site as
  select ss.schedule_id, ss.site_id, ss.org_id, s.group_id
  from public.schedule_sites ss
  join public.sites s on s.id = ss.site_id
  where ss.org_id = any (array(select private.org_ids_with_every_site()))
     or s.group_id = any (array(select private.limited_site_group_ids()));

comment on view private.site_group_of_schedule_site is 'Each site the caller sees (the rule) of each schedule, with its site group, read past the policies: for the schedules policies.';

-- True when the schedule, of one of the caller's organizations, has no site at all. Security
-- definer: the caller may not see some of its sites, and "no site" must count them. It does not
-- read the schedule itself: the policy asks it about a row being inserted (insert … returning),
-- which the function's snapshot does not show yet.
create function private.schedule_has_no_site(org uuid, schedule uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return org in (select private.org_ids_of_current_user())
    and not exists (select 1 from public.schedule_sites ss where ss.org_id = org and ss.schedule_id = schedule);
end;
$$;

comment on function private.schedule_has_no_site(uuid, uuid) is 'Whether a schedule of one of the caller''s organizations has no site yet (such a schedule is read by every member).';

revoke all on function private.schedule_has_no_site(uuid, uuid) from public, anon;
grant execute on function private.schedule_has_no_site(uuid, uuid) to authenticated, service_role;

drop policy "Members can read their organization's schedules" on public.schedules;

create policy "Members can read their organization's schedules" on public.schedules
  for select to authenticated
  using (
    org_id in (select private.org_ids_with_every_site())
    or id in (
      select v.schedule_id from private.site_group_of_schedule_site v
      where v.group_id in (select private.limited_site_group_ids())
    )
    or (org_id in (select private.org_ids_of_current_user()) and private.schedule_has_no_site(org_id, id))
  );
