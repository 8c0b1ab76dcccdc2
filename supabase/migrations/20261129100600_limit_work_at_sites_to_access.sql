-- Everything that hangs off a site follows the site (issue 27; docs/site-groups.md): a member or
-- key limited to site groups reads and works on inspections, answers, photos, corrective actions
-- and their history only at the sites of its groups; org-wide members and keys as before.
--
-- The rule in a policy is always the same two tests, org-wide first so that an org-wide caller
-- stops there (one hashed sub-plan per statement, as before):
--
--   org_id in (select private.org_ids_with_every_site(roles))
--   or (the row's site's group) in (select private.limited_site_group_ids(roles))
--
-- The row's site's group is read through the views below, which look rows up without the
-- tables' own policies (a view runs as its owner): through the policies, each lookup would apply
-- the rule again, and a policy on answers would evaluate the helpers six times per statement
-- instead of two. The views still show only the caller's organizations (an array of one or a
-- few ids, computed once per statement: as `in (select …)` the planner joined it anew for every
-- row looked up).
--
-- The policies keep their names; the write policies that call can_fill_inspection and
-- can_work_action keep their text, since those functions now apply the rule themselves.

create view private.site_group_of_site as
  select s.id as site_id, s.org_id, s.group_id
  from public.sites s
  where s.org_id = any (array(select private.org_ids_of_current_user()));

create view private.site_group_of_inspection as
  select i.id as inspection_id, i.org_id, i.site_id, s.group_id
  from public.inspections i
  join public.sites s on s.id = i.site_id
  where i.org_id = any (array(select private.org_ids_of_current_user()));

create view private.site_group_of_action as
  select a.id as action_id, a.org_id, a.site_id, s.group_id
  from public.actions a
  join public.sites s on s.id = a.site_id
  where a.org_id = any (array(select private.org_ids_of_current_user()));

comment on view private.site_group_of_site is 'The group of each site of the caller''s organizations, read past the sites policy: for the rule in other tables'' policies.';
comment on view private.site_group_of_inspection is 'The site and site group of each inspection of the caller''s organizations, read past the policies: for the rule in policies.';
comment on view private.site_group_of_action is 'The site and site group of each corrective action of the caller''s organizations, read past the policies: for the rule in policies.';

revoke all on private.site_group_of_site, private.site_group_of_inspection, private.site_group_of_action from public, anon;
grant select on private.site_group_of_site, private.site_group_of_inspection, private.site_group_of_action to authenticated, service_role;

-- The rule for one site, and for one group of sites, as PL/pgSQL point checks: one membership
-- (or key) and at most one index probe of the caller's grants, where the set-returning helpers
-- would build the whole set. Used where a function or trigger asks about one row; policies use
-- the set-returning helpers, once per statement.
create or replace function private.sees_sites_in_group(org uuid, site_group uuid, roles public.org_role[] default null)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  caller_role public.org_role;
  limited boolean;
  key_id uuid;
begin
  if uid is not null then
    select m.role, m.site_access_limited into caller_role, limited
    from public.memberships m where m.org_id = org and m.user_id = uid;
  else
    select k.id, k.role, a.site_access_limited into key_id, caller_role, limited
    from private.current_api_key() k join public.api_keys a on a.id = k.id
    where k.org_id = org;
  end if;
  if caller_role is null or (roles is not null and not caller_role = any (roles)) then
    return false;
  end if;
  if not limited then
    return true;
  end if;
  if site_group is null then
    return false;
  end if;
  if uid is not null then
    return exists (
      select 1 from public.membership_site_groups g
      join private.site_group_tree t on t.ancestor_id = g.site_group_id
      where g.org_id = org and g.user_id = uid and t.descendant_id = site_group
    );
  end if;
  return exists (
    select 1 from public.api_key_site_groups g
    join private.site_group_tree t on t.ancestor_id = g.site_group_id
    where g.api_key_id = key_id and g.org_id = org and t.descendant_id = site_group
  );
end;
$$;

comment on function private.sees_sites_in_group(uuid, uuid, public.org_role[]) is
  'True when the caller (member or key), with one of the given roles (null: any), sees the sites of this group of this organization: org-wide, or limited to it or a group above it. A null group (ungrouped sites): org-wide callers only.';

revoke all on function private.sees_sites_in_group(uuid, uuid, public.org_role[]) from public, anon;
grant execute on function private.sees_sites_in_group(uuid, uuid, public.org_role[]) to authenticated, service_role;

create or replace function private.can_see_site(site_org uuid, site uuid, roles public.org_role[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  site_group uuid;
begin
  select s.group_id into site_group from public.sites s where s.id = site and s.org_id = site_org;
  if not found then
    return false;
  end if;
  return private.sees_sites_in_group(site_org, site_group, roles);
end;
$$;

create or replace function private.can_see_site(site_org uuid, site uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.can_see_site(site_org, site, null);
end;
$$;

-- Inspections.
alter policy "Members can read their organization's inspections" on public.inspections
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
       in (select private.limited_site_group_ids())
  );

alter policy "Owners, admins and managers can schedule inspections" on public.inspections
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

alter policy "Members who fill in inspections can update theirs" on public.inspections
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_with_every_site('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
    or (select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
    or ((select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
        in (select private.limited_site_group_ids('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
  )
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_with_every_site('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
    or (select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
    or ((select v.group_id from private.site_group_of_site v where v.site_id = inspections.site_id)
        in (select private.limited_site_group_ids('{inspector}'))
        and (assignee_id is null or assignee_id = (select auth.uid())))
  );

-- Answers and inspection photos: read where the inspection's site is seen; written by those who
-- fill the inspection (can_fill_inspection, below, now asks about the site too).
alter policy "Members can read their organization's answers" on public.answers
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_inspection v where v.inspection_id = answers.inspection_id)
       in (select private.limited_site_group_ids())
  );

alter policy "Members can read their organization's attachments" on public.attachments
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_inspection v where v.inspection_id = attachments.inspection_id)
       in (select private.limited_site_group_ids())
  );

-- Corrective actions.
alter policy "Members can read their organization's actions" on public.actions
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
       in (select private.limited_site_group_ids())
  );

alter policy "Managers open actions for anyone, inspectors for themselves" on public.actions
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_with_every_site('{inspector}')) and assignee_id = (select auth.uid()))
    or (select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
    or ((select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
        in (select private.limited_site_group_ids('{inspector}'))
        and assignee_id = (select auth.uid()))
  );

alter policy "Managers change any action, inspectors those assigned to them" on public.actions
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_with_every_site('{inspector}')) and assignee_id = (select auth.uid()))
    or (select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
    or ((select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
        in (select private.limited_site_group_ids('{inspector}'))
        and assignee_id = (select auth.uid()))
  )
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_with_every_site('{inspector}')) and assignee_id = (select auth.uid()))
    or (select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
       in (select private.limited_site_group_ids('{owner,admin,manager}'))
    or ((select v.group_id from private.site_group_of_site v where v.site_id = actions.site_id)
        in (select private.limited_site_group_ids('{inspector}'))
        and assignee_id = (select auth.uid()))
  );

alter policy "Members can read their organization's action history" on public.action_events
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_action v where v.action_id = action_events.action_id)
       in (select private.limited_site_group_ids())
  );

alter policy "Members can read their organization's action photos" on public.action_attachments
  using (
    org_id in (select private.org_ids_with_every_site())
    or (select v.group_id from private.site_group_of_action v where v.action_id = action_attachments.action_id)
       in (select private.limited_site_group_ids())
  );

-- Who fills an inspection and who works an action: as before, and only where they see the site.
-- PL/pgSQL now (its plan kept for the connection) with one role lookup, where the SQL version
-- asked for the role twice: an answer batch calls it once per answer.
create or replace function private.can_fill_inspection(inspection uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_row record;
  caller_role public.org_role;
begin
  select i.org_id, i.assignee_id, s.group_id into found_row
  from public.inspections i join public.sites s on s.id = i.site_id
  where i.id = inspection;
  if not found then
    return false;
  end if;
  caller_role := private.current_org_role(found_row.org_id);
  -- coalesce: a key has no uid, and a null here must refuse, as the SQL version's where clause did.
  if not coalesce(caller_role in ('owner', 'admin', 'manager')
                  or (caller_role = 'inspector' and (found_row.assignee_id is null or found_row.assignee_id = (select auth.uid()))), false) then
    return false;
  end if;
  return private.sees_sites_in_group(found_row.org_id, found_row.group_id);
end;
$$;

comment on function private.can_fill_inspection(uuid) is 'True when the caller fills this inspection: a manager or above, or an inspector it is assigned to (or unassigned), who sees its site.';

create or replace function private.can_work_action(action uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_row record;
  caller_role public.org_role;
begin
  select a.org_id, a.assignee_id, s.group_id into found_row
  from public.actions a join public.sites s on s.id = a.site_id
  where a.id = action;
  if not found then
    return false;
  end if;
  caller_role := private.current_org_role(found_row.org_id);
  if not coalesce(caller_role in ('owner', 'admin', 'manager')
                  or (caller_role = 'inspector' and found_row.assignee_id = (select auth.uid())), false) then
    return false;
  end if;
  return private.sees_sites_in_group(found_row.org_id, found_row.group_id);
end;
$$;

comment on function private.can_work_action(uuid) is 'True when the caller works on this action: a manager or above of its organization, or the inspector it is assigned to, who sees its site.';

-- The answer save's and photo checks' locks: a caller who does not see the inspection's (or
-- action's) site finds nothing to lock, as a non-member does.
create or replace function private.lock_inspection(inspection_id uuid)
returns table (org_id uuid, status public.inspection_status, template_version_id uuid, assignee_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
begin
  return query
    select i.org_id, i.status, i.template_version_id, i.assignee_id
    from public.inspections i
    where i.id = lock_inspection.inspection_id
      and (not private.is_client_request() or private.can_see_site(i.org_id, i.site_id))
    for no key update of i;
end;
$$;

create or replace function private.require_action_workable(action uuid)
returns public.actions
language plpgsql
security definer
set search_path = ''
as $$
declare
  locked public.actions;
begin
  select * into locked from public.actions a
  where a.id = action and (not private.is_client_request() or private.can_see_site(a.org_id, a.site_id))
  for no key update;
  if locked.id is null or locked.status not in ('open', 'in_progress') then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'action',
        'status', coalesce(private.action_status_label(locked.status), 'gone'), 'verb', 'changed')::text;
  end if;
  return locked;
end;
$$;

-- Scheduling an inspection and opening an action at a site the caller does not see is refused as
-- naming another organization's site is: the same field error, nothing said about the site.
create or replace function private.prepare_inspection()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
  site record;
  template record;
  version_template uuid;
  initially_hidden text[];
begin
  -- A missing org_id counts as not theirs: the checks below would otherwise describe another
  -- organization's site or template to anyone who names its id.
  if client
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    return new;
  end if;

  select s.org_id, s.name, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id
     or (client and not private.can_see_site(new.org_id, new.site_id, '{owner,admin,manager}')) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  if site.archived_at is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  -- Shared lock: archiving or publishing the template waits until this inspection is in.
  select t.org_id, t.name, t.status, t.latest_version into template
  from public.templates t where t.id = new.template_id
  for share;
  if not found or template.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Choose a template of this organization.')::text;
  end if;
  if template.status = 'archived' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'This template is archived. Choose an active template.')::text;
  end if;
  if template.latest_version is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Publish this template before scheduling it.')::text;
  end if;

  if new.template_version_id is null then
    select v.id, v.initially_hidden_item_keys into new.template_version_id, initially_hidden
    from public.template_versions v
    where v.template_id = new.template_id and v.version = template.latest_version;
  else
    select v.template_id, v.initially_hidden_item_keys into version_template, initially_hidden
    from public.template_versions v where v.id = new.template_version_id;
    if version_template is distinct from new.template_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'template_version_id', 'message', 'Choose a version of this template.')::text;
    end if;
  end if;

  -- The items the version's rules hide before any answer (stored with the version).
  new.hidden_item_keys := coalesce(initially_hidden, '{}');

  perform private.check_inspection_assignee(new.org_id, new.assignee_id);

  -- Both names fit 120 characters each; the title keeps the first 120 of the pair.
  new.title := coalesce(new.title, rtrim(left(template.name || ' — ' || site.name, 120)));
  return new;
end;
$$;

create or replace function private.prepare_action()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
  caller_role public.org_role;
  site record;
  inspection record;
begin
  if client then
    caller_role := private.current_org_role(new.org_id);
    if caller_role is null or caller_role not in ('owner', 'admin', 'manager', 'inspector') then
      return new;
    end if;
    -- An inspector opens actions for themselves (PRODUCT.md §6); the policy holds them to it.
    if caller_role = 'inspector' then
      new.assignee_id := coalesce(new.assignee_id, (select auth.uid()));
    end if;
  end if;

  if new.inspection_id is not null then
    -- Shared lock: a submit (which opens actions for failed items) waits until this one is in,
    -- and then sees it, so an item never gets a second action by a race.
    select i.org_id, i.site_id, i.template_version_id into inspection
    from public.inspections i where i.id = new.inspection_id
    for share;
    if not found or inspection.org_id <> new.org_id
       or (client and not private.can_see_site(inspection.org_id, inspection.site_id)) then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'inspection_id', 'message', 'Choose an inspection of this organization.')::text;
    end if;
    if new.site_id is null then
      new.site_id := inspection.site_id;
    elsif new.site_id <> inspection.site_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'site_id', 'message', 'Choose the site of the inspection, or leave the site out.')::text;
    end if;
    if new.item_key is not null and private.template_item(
      (select v.definition from public.template_versions v where v.id = inspection.template_version_id), new.item_key
    ) is null then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'item_key', 'message', 'Choose an item of this inspection''s template.')::text;
    end if;
  elsif new.item_key is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'item_key', 'message', 'Name the inspection the item belongs to.')::text;
  end if;

  select s.org_id, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id
     or (client and not private.can_see_site(new.org_id, new.site_id)) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  -- A failed item of an inspection still opens its action after the site was archived.
  if site.archived_at is not null and new.origin = 'manual' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  perform private.check_action_assignee(new.org_id, new.assignee_id);

  -- An action starts open; who resolved, verified or canceled it is for its moves to say.
  if new.status is distinct from 'open' then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'action', 'status', 'new', 'verb', private.action_status_label(new.status))::text;
  end if;
  new.transition_note := null;
  new.resolution_note := null;
  new.resolved_at := null;
  new.resolved_by := null;
  new.verified_at := null;
  new.verified_by := null;
  new.canceled_at := null;
  new.canceled_by := null;
  new.item_passed_at := null;
  new.version := 1;
  new.due_at := coalesce(new.due_at, private.default_action_due_at(new.priority, now()));
  if client then
    new.created_by := (select auth.uid());
  end if;
  return new;
end;
$$;
