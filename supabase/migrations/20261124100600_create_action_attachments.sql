-- Evidence of a fix (PRODUCT.md §3, §7 "Storage"): photos on a corrective action, in bucket
-- `evidence` under the organization's folder at `<org>/actions/<action>/<uuid>.<ext>`, checked in
-- and confirmed exactly as inspection photos are (20261121001500): the api issues a signed upload
-- URL for a pending row, then confirms the object by size and magic bytes. The rules hold here,
-- whatever path a write takes: only by someone who works the action, only while it is open or in
-- progress (once resolved, its evidence is what the verifier judges), at most 10 photos per
-- action (confirmed ones plus pending ones younger than two hours, a signed URL's lifetime).

create table public.action_attachments (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  action_id uuid not null references public.actions (id) on delete cascade,
  object_path text not null,
  content_type text not null
    constraint action_attachments_content_type_check check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/heic')),
  byte_size bigint not null
    constraint action_attachments_byte_size_check check (byte_size between 1 and 10485760),
  confirmed_at timestamptz,
  uploaded_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint action_attachments_object_path_key unique (object_path)
);

comment on table public.action_attachments is 'Photos on corrective actions (evidence of the fix); pending until the upload is checked.';

create index action_attachments_action_id_idx on public.action_attachments (action_id);
create index action_attachments_org_id_idx on public.action_attachments (org_id);
create index action_attachments_uploaded_by_idx on public.action_attachments (uploaded_by);

-- Photos of an action change only while it is open or in progress. The action is locked (no key
-- update) so a resolve waits for a photo change and two uploads cannot both take the last place.
-- security definer to lock the action whatever the caller may update; only an action of the
-- caller's organizations (or any, for server roles) is locked.
create or replace function private.require_action_workable(action uuid)
returns public.actions
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  locked public.actions;
begin
  select * into locked from public.actions a
  where a.id = action and (not private.is_client_request() or a.org_id in (select private.org_ids_of_current_user()))
  for no key update;
  if locked.id is null or locked.status not in ('open', 'in_progress') then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'action',
        'status', coalesce(private.action_status_label(locked.status), 'gone'), 'verb', 'changed')::text;
  end if;
  return locked;
end;
$$;

revoke all on function private.require_action_workable(uuid) from public, anon;
-- The confirm trigger runs as the caller.
grant execute on function private.require_action_workable(uuid) to authenticated, service_role;

-- Before a new photo: the action's state, the limit and the path. security definer to count every
-- photo of the action, also those the caller could not see; RLS decides right after whether the
-- insert is allowed, and a caller who does not work the action is told nothing here.
create or replace function private.prepare_action_attachment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  action public.actions;
  taken integer;
  folder text := new.org_id || '/actions/' || new.action_id || '/';
begin
  if private.is_client_request() and not private.can_work_action(new.action_id) then
    return new;
  end if;
  action := private.require_action_workable(new.action_id);
  if action.org_id <> new.org_id then
    raise exception 'validation_failed' using detail = json_build_object('field', 'action_id', 'message', 'Choose an action of this organization.')::text;
  end if;

  select count(*) into taken
  from public.action_attachments a
  where a.action_id = new.action_id and (a.confirmed_at is not null or a.created_at > now() - interval '2 hours');
  if taken >= 10 then
    raise exception 'limit_exceeded' using detail = json_build_object('n', 10, 'things', 'photos')::text;
  end if;

  if left(new.object_path, length(folder)) is distinct from folder
     or substr(new.object_path, length(folder) + 1)
        !~ ('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.' || private.photo_extension(new.content_type) || '$') then
    raise exception 'validation_failed' using detail = json_build_object('field', 'object_path', 'message', 'Use the path <org>/actions/<action>/<uuid>.<ext> of this photo.')::text;
  end if;
  new.confirmed_at := null;
  return new;
end;
$$;

revoke all on function private.prepare_action_attachment() from public, anon, authenticated;

create trigger action_attachments_prepare
  before insert on public.action_attachments
  for each row execute function private.prepare_action_attachment();

-- Confirming: once, only while the action is workable, and only when the object is in Storage
-- with the declared size and type (the api checked its magic bytes before). As the caller, who
-- reads their organization's evidence through the storage.objects select policy.
create or replace function private.confirm_action_attachment()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.confirmed_at is not null or new.confirmed_at is null then
    raise exception 'invalid_transition' using detail = json_build_object('thing', 'photo',
      'status', case when old.confirmed_at is null then 'pending' else 'confirmed' end, 'verb', 'changed')::text;
  end if;
  perform private.require_action_workable(new.action_id);
  if not exists (
    select 1 from storage.objects o
    where o.bucket_id = 'evidence' and o.name = new.object_path
      and (o.metadata ->> 'size')::bigint = new.byte_size
      and o.metadata ->> 'mimetype' = new.content_type
  ) then
    raise exception 'validation_failed' using detail = json_build_object('field', 'file', 'message', 'Upload the photo as declared before confirming it.')::text;
  end if;
  new.confirmed_at := now();
  return new;
end;
$$;

revoke all on function private.confirm_action_attachment() from public, anon, authenticated;

-- Only when confirmed_at is written: a user deleted elsewhere (uploaded_by set null) passes.
create trigger action_attachments_confirm
  before update of confirmed_at on public.action_attachments
  for each row execute function private.confirm_action_attachment();

-- Removing a photo: only while the action is workable, unless the action or its organization is
-- being deleted (the cascade takes its photos with it).
create or replace function private.guard_action_attachment_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.actions a where a.id = old.action_id)
     and exists (select 1 from public.organizations o where o.id = old.org_id) then
    perform private.require_action_workable(old.action_id);
  end if;
  return old;
end;
$$;

revoke all on function private.guard_action_attachment_delete() from public, anon, authenticated;

create trigger action_attachments_guard_delete
  before delete on public.action_attachments
  for each row execute function private.guard_action_attachment_delete();

create trigger action_attachments_write_audit_log
  after insert or update or delete on public.action_attachments
  for each row execute function private.write_audit_log();

create trigger action_attachments_enforce_mfa
  before insert or update or delete on public.action_attachments
  for each row execute function private.enforce_organization_mfa();

-- Pending check-ins are not news; a confirmed or removed photo is (the action page refreshes).
create trigger action_attachments_broadcast_change
  after update of confirmed_at or delete on public.action_attachments
  for each row execute function private.broadcast_organization_change();

alter table public.action_attachments enable row level security;

create policy "Members can read their organization's action photos"
  on public.action_attachments
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "People working an action can add photos to it"
  on public.action_attachments
  for insert
  to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_work_action(action_id)
  );

create policy "People working an action can confirm its photos"
  on public.action_attachments
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_work_action(action_id)
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_work_action(action_id)
  );

create policy "People working an action can remove its photos"
  on public.action_attachments
  for delete
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_work_action(action_id)
  );

revoke all on table public.action_attachments from anon, authenticated;
grant select, delete on table public.action_attachments to authenticated;
grant insert (id, org_id, action_id, object_path, content_type, byte_size) on table public.action_attachments to authenticated;
grant update (confirmed_at) on table public.action_attachments to authenticated;
grant all on table public.action_attachments to service_role;

-- Storage (as 20261121001550 and 20261121001560 do for inspection photos): an upload only to the
-- path of the caller's own pending photo of an action they work, while it is open or in
-- progress; a delete only of a photo of such an action. Storage signs an upload URL only when
-- the caller may insert the object, so this is what lets the api issue one with the caller's token.
create policy "People working an action can upload the photo they checked in"
  on storage.objects
  for insert
  to authenticated
  with check (
    bucket_id = 'evidence'
    and exists (
      select 1
      from public.action_attachments a
      join public.actions x on x.id = a.action_id
      where a.object_path = storage.objects.name
        and a.uploaded_by = (select auth.uid())
        and a.confirmed_at is null
        and a.created_at > now() - interval '2 hours'
        and x.status in ('open', 'in_progress')
        and private.can_work_action(a.action_id)
    )
  );

create policy "People working an open action can delete its photos"
  on storage.objects
  for delete
  to authenticated
  using (
    bucket_id = 'evidence'
    and exists (
      select 1
      from public.action_attachments a
      join public.actions x on x.id = a.action_id
      where a.object_path = storage.objects.name
        and x.status in ('open', 'in_progress')
        and private.can_work_action(a.action_id)
    )
  );
