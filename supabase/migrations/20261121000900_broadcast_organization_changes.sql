-- Live organization (PRODUCT.md §7 "Realtime"): every change to an organization, its members,
-- invitations and sites is broadcast on the private topic `org:<id>`, and only members may join
-- that topic. Clients invalidate their queries on these events; payloads carry ids, never
-- secrets or personal data beyond what the member list already shows.

-- Sends `<entity>_<action>` (e.g. site_updated) to `org:<org id>`. security definer because it
-- writes realtime.messages, which callers may not insert into themselves.
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
    else tg_table_name
  end;
  action text := case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  org uuid := private.org_id_of(tg_table_name, row_data);
  payload jsonb;
begin
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
  perform realtime.send(payload, entity || '_' || action, 'org:' || org::text, true);
  return null;
end;
$$;

comment on function private.broadcast_organization_change() is
  'After-row trigger: broadcasts <entity>_<action> with ids on the private topic org:<id>.';

revoke all on function private.broadcast_organization_change() from public, anon, authenticated;

create trigger organizations_broadcast_change
  after insert or update or delete on public.organizations
  for each row execute function private.broadcast_organization_change();

create trigger memberships_broadcast_change
  after insert or update or delete on public.memberships
  for each row execute function private.broadcast_organization_change();

create trigger invitations_broadcast_change
  after insert or update or delete on public.invitations
  for each row execute function private.broadcast_organization_change();

create trigger sites_broadcast_change
  after insert or update or delete on public.sites
  for each row execute function private.broadcast_organization_change();

-- Realtime evaluates these as the joining user with realtime.topic() set to the channel's topic:
-- select decides who may join and receive, insert who may send (presence, broadcast). The topic
-- is compared as text, so a made-up topic is simply not admitted rather than a cast error.
create policy "Members can receive their organization's live events"
  on realtime.messages
  for select
  to authenticated
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and (select realtime.topic()) in (select 'org:' || org_id from private.org_ids_of_current_user() as org_id)
  );

-- Members share presence ("who is looking at this site"); data changes are broadcast only by
-- the database, so clients may not send broadcasts on the organization topic.
create policy "Members can share presence in their organization"
  on realtime.messages
  for insert
  to authenticated
  with check (
    realtime.messages.extension = 'presence'
    and (select realtime.topic()) in (select 'org:' || org_id from private.org_ids_of_current_user() as org_id)
  );
