-- The organization topic's one broadcaster (20261121000900) learns what templates and
-- inspections need, so they use it rather than copies of their own: their entity names, the row's
-- status in the payload (lists move a row between their status tabs without a reload), and
-- trigger arguments naming columns whose changes alone are not news on the topic (an inspection's
-- score follows every saved answer; only its run page needs that, on inspection:<id>).

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
    when 'invitations' then 'invitation'
    when 'sites' then 'site'
    when 'templates' then 'template'
    when 'inspections' then 'inspection'
    else tg_table_name
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
  perform realtime.send(payload, entity || '_' || action, 'org:' || org::text, true);
  return null;
end;
$$;

comment on function private.broadcast_organization_change() is
  'After-row trigger: broadcasts <entity>_<action> with ids (and status) on org:<id>; arguments name columns whose changes alone are not broadcast.';
