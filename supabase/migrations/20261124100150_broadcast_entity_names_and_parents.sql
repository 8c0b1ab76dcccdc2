-- The organization topic's one broadcaster (20261121000900, 20261121001050) learns two things
-- corrective actions need, without a case per new table: an entity is named by its table in the
-- singular (actions → action, action_attachments → action_attachment), and a payload names the
-- rows its row hangs from (inspection_id, action_id, site_id) and its assignee, so a screen can
-- tell whether an event is about what it shows ("a photo on this action", "assigned to me")
-- without a round trip.

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
  perform realtime.send(payload, entity || '_' || action, 'org:' || org::text, true);
  return null;
end;
$$;

comment on function private.broadcast_organization_change() is
  'After-row trigger: broadcasts <entity>_<action> with ids (status, parents, assignee) on org:<id>; arguments name columns whose changes alone are not broadcast.';
