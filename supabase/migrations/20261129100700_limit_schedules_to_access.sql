-- Schedules by site access (issue 27; docs/site-groups.md, "Schedules"). A schedule runs at
-- several sites, so:
--
--   - a limited member reads a schedule when it sees at least one of its sites, and of its sites
--     (schedule_sites) only those it sees; the occurrences are inspections, which follow their
--     site already (20261129100600). A schedule without sites (a new one, before its sites are
--     added in the same request) is read by every member of the organization: it is at no site.
--   - a limited manager creates a schedule (with no site yet, as every schedule starts), adds and
--     takes off only sites it sees, and changes, pauses, resumes or deletes a schedule only when
--     it sees every one of its sites: otherwise it would change the work at sites it does not see.

create view private.site_group_of_schedule_site as
  select ss.schedule_id, ss.site_id, ss.org_id, s.group_id
  from public.schedule_sites ss
  join public.sites s on s.id = ss.site_id
  where ss.org_id = any (array(select private.org_ids_of_current_user()));

comment on view private.site_group_of_schedule_site is 'Each site of each schedule of the caller''s organizations with its site group, read past the policies: for the schedules policies.';

revoke all on private.site_group_of_schedule_site from public, anon;
grant select on private.site_group_of_schedule_site to authenticated, service_role;

-- True when the caller, with one of the roles, sees every site of the schedule (a schedule with
-- none: true). Security definer: the schedule_sites policy would hide the sites it does not see.
create or replace function private.sees_every_site_of_schedule(schedule uuid, roles public.org_role[] default null)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  org uuid;
begin
  select s.org_id into org from public.schedules s where s.id = schedule;
  if org is null then
    return false;
  end if;
  if org in (select private.org_ids_with_every_site(roles)) then
    return true;
  end if;
  return not exists (
    select 1
    from public.schedule_sites ss
    join public.sites st on st.id = ss.site_id
    where ss.schedule_id = schedule
      and (st.group_id is null or st.group_id not in (select private.limited_site_group_ids(roles)))
  );
end;
$$;

comment on function private.sees_every_site_of_schedule(uuid, public.org_role[]) is
  'True when the caller, with one of the given roles (null: any), sees every site of the schedule (org-wide, or each site in its groups).';

revoke all on function private.sees_every_site_of_schedule(uuid, public.org_role[]) from public, anon;
grant execute on function private.sees_every_site_of_schedule(uuid, public.org_role[]) to authenticated, service_role;

alter policy "Members can read their organization's schedules" on public.schedules
  using (
    org_id in (select private.org_ids_with_every_site())
    or id in (
      select v.schedule_id from private.site_group_of_schedule_site v
      where v.group_id in (select private.limited_site_group_ids())
    )
    or (org_id in (select private.org_ids_of_current_user())
        and not exists (select 1 from private.site_group_of_schedule_site v where v.schedule_id = schedules.id))
  );

alter policy "Owners, admins and managers can change, pause and delete schedu" on public.schedules
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
        and private.sees_every_site_of_schedule(id, '{owner,admin,manager}'))
  )
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
        and private.sees_every_site_of_schedule(id, '{owner,admin,manager}'))
  );

alter policy "Members can read their organization's schedule sites" on public.schedule_sites
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_site v where v.site_id = schedule_sites.site_id)
       in (select private.limited_site_group_ids())
  );

alter policy "Owners, admins and managers can add sites to schedules" on public.schedule_sites
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (select v.group_id from private.site_group_of_site v where v.site_id = schedule_sites.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

alter policy "Owners, admins and managers can take sites off schedules" on public.schedule_sites
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (select v.group_id from private.site_group_of_site v where v.site_id = schedule_sites.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

-- ...and, for a limited manager, only on schedules whose every site it sees: checked once per
-- schedule and statement (a row check would read the schedule's up to 10,000 sites again for
-- each site added).
create or replace function private.require_every_site_of_schedule_seen()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  schedule uuid;
begin
  if not private.is_client_request() then
    return null;
  end if;
  for schedule in
    select distinct c.schedule_id from changed c
    where c.org_id not in (select private.org_ids_with_every_site('{owner,admin,manager}'))
      -- Not when the organization is being deleted (its sites and schedules go with it).
      and exists (select 1 from public.organizations o where o.id = c.org_id)
  loop
    if not private.sees_every_site_of_schedule(schedule, '{owner,admin,manager}') then
      raise exception 'forbidden';
    end if;
  end loop;
  return null;
end;
$$;

revoke all on function private.require_every_site_of_schedule_seen() from public, anon, authenticated;

create trigger schedule_sites_require_every_site_seen_after_insert
  after insert on public.schedule_sites
  referencing new table as changed
  for each statement execute function private.require_every_site_of_schedule_seen();

create trigger schedule_sites_require_every_site_seen_after_delete
  after delete on public.schedule_sites
  referencing old table as changed
  for each statement execute function private.require_every_site_of_schedule_seen();

-- A site the caller does not see is refused as another organization's is.
create or replace function private.prepare_schedule_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
begin
  new.org_id := (select s.org_id from public.schedules s where s.id = new.schedule_id);
  if new.org_id is not null
     and (not client or new.org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')))
     and (not exists (select 1 from public.sites st where st.id = new.site_id and st.org_id = new.org_id)
          or (client and not private.can_see_site(new.org_id, new.site_id, '{owner,admin,manager}'))) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_ids', 'message', 'Choose sites of this organization.')::text;
  end if;
  return new;
end;
$$;
