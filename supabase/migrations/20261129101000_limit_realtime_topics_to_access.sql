-- Realtime by site access (issue 27; docs/site-groups.md, "Realtime"; docs/realtime.md). Realtime
-- authorizes a topic when it is joined, by these policies, so each topic's audience must be one
-- kind of principal:
--
--   org:<org>                 every event of the organization, as before; joined only by org-wide
--                             members and keys (a limited one would receive events about sites
--                             it does not see). Presence as before.
--   org:<org>:group:<group>   the events about something at a site in that group or below it:
--                             each such event is also sent to the site's group and each group
--                             above it (three sends at most). Joined by a limited principal for
--                             each group it sees (its own and those below), and by org-wide ones.
--                             Presence there too (site pages' "also looking").
--   org:<org>:shared          the events about what is at no site (the organization, members,
--                             invitations, templates, schedules without sites): joined by every
--                             member and key of the organization. No presence.
--   inspection:<id>           as before, for those who see the inspection's site.
--
-- Payloads are unchanged. A site moved from one group to another is announced to both groups'
-- topics, so those who lose it learn so at once; a group moved, to its old and new ancestors.

-- The realtime.send of one event to the group topics of the given groups and each group above
-- them, each topic once.
create or replace function private.send_to_site_group_topics(payload jsonb, event text, org uuid, site_groups uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  topic_group uuid;
begin
  for topic_group in
    select distinct t.ancestor_id from private.site_group_tree t
    where t.descendant_id = any (site_groups) and t.org_id = org
  loop
    perform realtime.send(payload, event, 'org:' || org::text || ':group:' || topic_group::text, true);
  end loop;
end;
$$;

revoke all on function private.send_to_site_group_topics(jsonb, text, uuid, uuid[]) from public, anon, authenticated;

create or replace function private.broadcast_organization_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  row_data jsonb := to_jsonb(coalesce(new, old));
  entity text := case tg_table_name
    when 'organizations' then 'organization'
    when 'memberships' then 'member'
    else regexp_replace(tg_table_name, 's$', '')
  end;
  action text := case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  org uuid := private.org_id_of(tg_table_name, row_data);
  payload jsonb;
  event text;
  groups uuid[];
begin
  if tg_op = 'UPDATE' and tg_nargs > 0 and to_jsonb(new) - tg_argv = to_jsonb(old) - tg_argv then
    return null;
  end if;
  payload := jsonb_build_object(
    'entity', entity,
    'action', action,
    'id', row_data ->> 'id',
    'org_id', org,
    'actor_id', (select auth.uid()),
    'at', now()
  );
  -- Members are people: say whose membership changed so their own tabs can react.
  if tg_table_name = 'memberships' then
    payload := payload || jsonb_build_object('user_id', row_data ->> 'user_id', 'role', row_data ->> 'role');
  end if;
  if row_data ? 'status' then
    payload := payload || jsonb_build_object('status', row_data ->> 'status');
  end if;
  -- Ids only, as everywhere on this topic; absent keys stay absent.
  payload := payload || jsonb_strip_nulls(jsonb_build_object(
    'site_id', row_data ->> 'site_id',
    'inspection_id', row_data ->> 'inspection_id',
    'action_id', row_data ->> 'action_id',
    'assignee_id', row_data ->> 'assignee_id'
  ));
  event := entity || '_' || action;
  perform realtime.send(payload, event, 'org:' || org::text, true);

  -- The same event where limited principals listen: the groups of the site it is at (before and
  -- after, for a move), or the organization's shared topic when it is at no site.
  groups := case tg_table_name
    when 'sites' then array[(to_jsonb(old) ->> 'group_id')::uuid, (to_jsonb(new) ->> 'group_id')::uuid]
    -- A group's own topic and those above it; for a move, the old and the new parent's too (the
    -- tree is rearranged by a trigger that runs after this one).
    when 'site_groups' then array[(to_jsonb(old) ->> 'id')::uuid, (to_jsonb(new) ->> 'id')::uuid,
                                  (to_jsonb(old) ->> 'parent_id')::uuid, (to_jsonb(new) ->> 'parent_id')::uuid]
    when 'inspections' then array(select s.group_id from public.sites s where s.id = (row_data ->> 'site_id')::uuid)
    when 'actions' then array(select s.group_id from public.sites s where s.id = (row_data ->> 'site_id')::uuid)
    when 'action_attachments' then array(
      select s.group_id from public.actions a join public.sites s on s.id = a.site_id where a.id = (row_data ->> 'action_id')::uuid)
    when 'schedules' then array(
      select distinct s.group_id from public.schedule_sites ss join public.sites s on s.id = ss.site_id
      where ss.schedule_id = (row_data ->> 'id')::uuid)
  end;
  if tg_table_name in ('sites', 'site_groups', 'inspections', 'actions', 'action_attachments')
     or (tg_table_name = 'schedules' and cardinality(groups) > 0) then
    -- A site in no group: only org-wide principals see it, on org:<org>.
    perform private.send_to_site_group_topics(payload, event, org, groups);
  else
    perform realtime.send(payload, event, 'org:' || org::text || ':shared', true);
  end if;
  return null;
end;
$$;

comment on function private.broadcast_organization_change() is 'After-row trigger: broadcasts <entity>_<action> with ids (status, parents, assignee) on org:<id>, and on the site''s group topics (org:<id>:group:<group>, the group and those above it) or, for what is at no site, org:<id>:shared; arguments name columns whose changes alone are not broadcast.';

create trigger site_groups_broadcast_change
  after insert or update or delete on public.site_groups
  for each row execute function private.broadcast_organization_change();

-- The group topics the caller may join: every group of the organizations where it sees every
-- site, and the groups it sees where it is limited.
create or replace function private.site_group_topics_of_current_user()
returns setof text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select 'org:' || g.org_id::text || ':group:' || g.id::text
    from public.site_groups g
    where g.org_id in (select private.org_ids_with_every_site())
       or g.id in (select private.limited_site_group_ids());
end;
$$;

comment on function private.site_group_topics_of_current_user() is 'The realtime topics org:<org>:group:<group> the caller may join.';

revoke all on function private.site_group_topics_of_current_user() from public, anon;
grant execute on function private.site_group_topics_of_current_user() to authenticated, service_role;

alter policy "Members can receive their organization's live events" on realtime.messages
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and (
      (select realtime.topic()) in (select 'org:' || org_id from private.org_ids_with_every_site() as org_id)
      or (select realtime.topic()) in (select 'org:' || org_id || ':shared' from private.org_ids_of_current_user() as org_id)
      or (select realtime.topic()) in (select private.site_group_topics_of_current_user())
    )
  );

alter policy "Members can share presence in their organization" on realtime.messages
  with check (
    realtime.messages.extension = 'presence'
    and (
      (select realtime.topic()) in (select 'org:' || org_id from private.org_ids_with_every_site() as org_id)
      or (select realtime.topic()) in (select private.site_group_topics_of_current_user())
    )
  );

alter policy "Members can receive live events of their organization's inspect" on realtime.messages
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and exists (
      select 1 from private.site_group_of_inspection v
      where v.inspection_id = (select private.inspection_id_of_topic(realtime.topic()))
        and (v.org_id in (select private.org_ids_with_every_site())
             or v.group_id in (select private.limited_site_group_ids()))
    )
  );

alter policy "Members can share presence on their organization's inspections" on realtime.messages
  with check (
    realtime.messages.extension = 'presence'
    and exists (
      select 1 from private.site_group_of_inspection v
      where v.inspection_id = (select private.inspection_id_of_topic(realtime.topic()))
        and (v.org_id in (select private.org_ids_with_every_site())
             or v.group_id in (select private.limited_site_group_ids()))
    )
  );
