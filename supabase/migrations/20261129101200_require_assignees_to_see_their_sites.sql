-- Work is given only to people who can see where it is (issue 27; docs/site-groups.md,
-- "Assignees"). Decided where the issue is silent: assigning an inspection or an action to a
-- member who does not see its site, or a schedule to people who do not see every one of its
-- sites, is refused with a field error, rather than making work its assignee cannot open. Checked
-- on what clients write (the background run materialises what was checked).
--
-- Later changes of access (a member's groups, a site moved to another group) do not reassign
-- anything: the work stays assigned, the assignee no longer sees it, and its reminders stop
-- (private.occurrence_reminder_recipients). Whoever sees the site can reassign it.

-- True when the member sees the site: a member of its organization, org-wide or limited to the
-- site's group or one above it. For checks about someone other than the caller.
create or replace function private.member_sees_site(org uuid, member uuid, site uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1
    from public.memberships m
    join public.sites s on s.id = site and s.org_id = org
    where m.org_id = org and m.user_id = member
      and (not m.site_access_limited
           or exists (
             select 1 from public.membership_site_groups g
             join private.site_group_tree t on t.ancestor_id = g.site_group_id
             where g.org_id = org and g.user_id = member and t.descendant_id = s.group_id))
  );
$$;

comment on function private.member_sees_site(uuid, uuid, uuid) is
  'True when this member of the organization sees the site (org-wide, or limited to its group or one above it).';

revoke all on function private.member_sees_site(uuid, uuid, uuid) from public, anon, authenticated;

-- Inspections and actions: a client's new assignee must see the site. Runs after the prepare and
-- transition triggers (by name), which have checked the site and that the assignee is a member
-- who may do the work; a caller who is not a member is refused by RLS and told nothing here.
create or replace function private.require_assignee_to_see_site()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.assignee_id is null
     or (tg_op = 'UPDATE' and new.assignee_id is not distinct from old.assignee_id)
     or not private.is_client_request()
     or new.org_id not in (select private.org_ids_of_current_user()) then
    return new;
  end if;
  if not private.member_sees_site(new.org_id, new.assignee_id, new.site_id) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'assignee_id', 'message', 'Choose a member who can see this site.')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.require_assignee_to_see_site() from public, anon, authenticated;

create trigger inspections_require_assignee_to_see_site
  before insert or update of assignee_id on public.inspections
  for each row execute function private.require_assignee_to_see_site();

create trigger actions_require_assignee_to_see_site
  before insert or update of assignee_id on public.actions
  for each row execute function private.require_assignee_to_see_site();

-- Schedules: its assignee and everyone in its rotation must see every site of it, when a client
-- names them and when a client adds sites.
create or replace function private.schedule_people_not_seeing(schedule uuid, people uuid[], only_sites uuid[] default null)
returns setof uuid
language sql
stable
set search_path = ''
as $$
  select distinct p.user_id
  from unnest(people) as p (user_id)
  join public.schedules sc on sc.id = schedule
  join public.memberships m on m.org_id = sc.org_id and m.user_id = p.user_id
  where m.site_access_limited
    and exists (
      select 1
      from public.schedule_sites ss
      join public.sites s on s.id = ss.site_id
      where ss.schedule_id = schedule
        and (only_sites is null or ss.site_id = any (only_sites))
        and not exists (
          select 1 from public.membership_site_groups g
          join private.site_group_tree t on t.ancestor_id = g.site_group_id
          where g.org_id = m.org_id and g.user_id = m.user_id and t.descendant_id = s.group_id)
    );
$$;

comment on function private.schedule_people_not_seeing(uuid, uuid[], uuid[]) is
  'Those of these people (members of the schedule''s organization) who do not see some site of the schedule (or of only_sites among its sites).';

revoke all on function private.schedule_people_not_seeing(uuid, uuid[], uuid[]) from public, anon, authenticated;

create or replace function private.require_schedule_people_to_see_its_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  added_to record;
begin
  if not private.is_client_request() then
    return null;
  end if;
  if tg_table_name = 'schedules' then
    if new.assignee_id is not null and exists (select private.schedule_people_not_seeing(new.id, array[new.assignee_id])) then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'assignee_id', 'message', 'Choose a member who can see every site of this schedule.')::text;
    end if;
    if exists (select private.schedule_people_not_seeing(new.id, new.rotation_user_ids)) then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'rotation_user_ids', 'message', 'Choose members who can see every site of this schedule.')::text;
    end if;
    return null;
  end if;
  for added_to in
    select a.schedule_id, array_agg(a.site_id) as site_ids, s.assignee_id, s.rotation_user_ids
    from added a join public.schedules s on s.id = a.schedule_id
    group by a.schedule_id, s.assignee_id, s.rotation_user_ids
  loop
    if exists (select private.schedule_people_not_seeing(added_to.schedule_id,
                 array_remove(array_prepend(added_to.assignee_id, added_to.rotation_user_ids), null), added_to.site_ids)) then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'site_ids', 'message', 'Choose sites the schedule''s assignees can see.')::text;
    end if;
  end loop;
  return null;
end;
$$;

revoke all on function private.require_schedule_people_to_see_its_sites() from public, anon, authenticated;

create trigger schedules_require_people_to_see_its_sites
  after update of assignee_id, rotation_user_ids on public.schedules
  for each row
  when (old.assignee_id is distinct from new.assignee_id or old.rotation_user_ids is distinct from new.rotation_user_ids)
  execute function private.require_schedule_people_to_see_its_sites();

create trigger schedule_sites_require_people_to_see_them
  after insert on public.schedule_sites
  referencing new table as added
  for each statement execute function private.require_schedule_people_to_see_its_sites();
