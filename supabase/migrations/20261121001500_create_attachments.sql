-- Attachments (PRODUCT.md §3, §7 "Storage"): photo evidence on an inspection item. A row is
-- created when the api issues a signed upload URL (pending) and confirmed once the object's
-- size and magic bytes were checked. The rules hold here, whatever path a write takes: only
-- while the inspection is in progress, only on a photo item of the pinned template version,
-- at most max_photos per item (confirmed ones plus pending ones younger than two hours, the
-- lifetime of a signed upload URL), and only at `<org>/<inspection>/<item>/<uuid>.<ext>`.

create table public.attachments (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  inspection_id uuid not null references public.inspections (id) on delete cascade,
  item_key text not null,
  -- `<org>/<inspection>/<item>/<uuid>.<ext>` in bucket `evidence`.
  object_path text not null,
  content_type text not null
    constraint attachments_content_type_check check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/heic')),
  byte_size bigint not null
    constraint attachments_byte_size_check check (byte_size between 1 and 10485760),
  confirmed_at timestamptz,
  uploaded_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint attachments_object_path_key unique (object_path)
);

comment on table public.attachments is 'Photos on inspection items; pending until the upload is checked.';
comment on column public.attachments.confirmed_at is 'Set once the api has checked the uploaded object; null while pending.';

create index attachments_inspection_id_item_key_idx on public.attachments (inspection_id, item_key);
create index attachments_org_id_idx on public.attachments (org_id);
create index attachments_uploaded_by_idx on public.attachments (uploaded_by);

-- The file extension each allowed type is stored under.
create or replace function private.photo_extension(content_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case content_type
    when 'image/jpeg' then 'jpg'
    when 'image/png' then 'png'
    when 'image/webp' then 'webp'
    when 'image/heic' then 'heic'
  end;
$$;

revoke all on function private.photo_extension(text) from public, anon;
grant execute on function private.photo_extension(text) to authenticated, service_role;

-- The inspection must be in progress for any change to its photos. It is locked as answers lock
-- it, so a submit or cancel waits for the photo change (and then counts it), and two uploads to
-- one item cannot both take its last place.
create or replace function private.require_inspection_in_progress(inspection uuid)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  current_status public.inspection_status;
begin
  select l.status into current_status from private.lock_inspection(inspection) l;
  if current_status is distinct from 'in_progress' then
    raise exception 'invalid_transition'
      using detail = json_build_object('status', coalesce(private.inspection_status_label(current_status), 'gone'), 'verb', 'changed')::text;
  end if;
end;
$$;

-- The confirm trigger runs as the caller, so the API role may call it (it locks only an
-- inspection of the caller's organizations).
revoke all on function private.require_inspection_in_progress(uuid) from public, anon;
grant execute on function private.require_inspection_in_progress(uuid) to authenticated, service_role;

-- Before a new attachment: the inspection's state, the item, the per-item limit and the path.
-- security definer to read the pinned version and count every attachment of the item, also
-- those the caller could not see; RLS still decides right after whether the insert is allowed.
create or replace function private.prepare_attachment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  inspection public.inspections;
  item jsonb;
  max_photos integer;
  taken integer;
  folder text := new.org_id || '/' || new.inspection_id || '/' || new.item_key || '/';
begin
  -- A caller who may not fill this inspection is refused by RLS next, told nothing about it here.
  if (select auth.uid()) is not null and not private.can_fill_inspection(new.inspection_id) then
    return new;
  end if;
  select * into inspection from public.inspections i where i.id = new.inspection_id;
  if inspection.id is null or inspection.org_id <> new.org_id then
    raise exception 'validation_failed' using detail = json_build_object('field', 'inspection_id', 'message', 'Choose an inspection of this organization.')::text;
  end if;
  perform private.require_inspection_in_progress(new.inspection_id);

  select private.template_item(v.definition, new.item_key) into item
  from public.template_versions v
  where v.id = inspection.template_version_id;
  if item is null then
    raise exception 'validation_failed' using detail = json_build_object('field', 'item_key', 'message', 'Choose an item of this inspection''s template.')::text;
  end if;
  if item ->> 'kind' is distinct from 'photo' then
    raise exception 'validation_failed' using detail = json_build_object('field', 'item_key', 'message', 'Photos can only be added to photo items.')::text;
  end if;

  -- The inspection is locked since require_inspection_in_progress: the count below holds.
  max_photos := coalesce((item ->> 'max_photos')::integer, 1);
  select count(*) into taken
  from public.attachments a
  where a.inspection_id = new.inspection_id and a.item_key = new.item_key
    and (a.confirmed_at is not null or a.created_at > now() - interval '2 hours');
  if taken >= max_photos then
    raise exception 'limit_exceeded' using detail = json_build_object('n', max_photos, 'things', 'photos')::text;
  end if;

  -- The folder is fixed by the row; the file name is a fresh uuid with the type's extension.
  if left(new.object_path, length(folder)) is distinct from folder
     or substr(new.object_path, length(folder) + 1)
        !~ ('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.' || private.photo_extension(new.content_type) || '$') then
    raise exception 'validation_failed' using detail = json_build_object('field', 'object_path', 'message', 'Use the path <org>/<inspection>/<item>/<uuid>.<ext> of this photo.')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.prepare_attachment() from public, anon, authenticated;

create trigger attachments_prepare
  before insert on public.attachments
  for each row execute function private.prepare_attachment();

-- Confirming: once, only while in progress, and only when the object is in Storage with the
-- declared size and type (the api checked its magic bytes before). As the caller, who reads
-- their organization's evidence through the storage.objects select policy.
create or replace function private.confirm_attachment()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.confirmed_at is not null or new.confirmed_at is null then
    raise exception 'invalid_transition' using detail = json_build_object('thing', 'photo',
      'status', case when old.confirmed_at is null then 'pending' else 'confirmed' end, 'verb', 'changed')::text;
  end if;
  perform private.require_inspection_in_progress(new.inspection_id);
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

revoke all on function private.confirm_attachment() from public, anon, authenticated;

-- Only when confirmed_at is written: a user deleted elsewhere (uploaded_by set null) passes.
create trigger attachments_confirm
  before update of confirmed_at on public.attachments
  for each row execute function private.confirm_attachment();

-- Removing a photo: only while the inspection is in progress, unless the inspection or its
-- organization is being deleted (the cascade takes its photos with it).
create or replace function private.guard_attachment_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.inspections i where i.id = old.inspection_id)
     and exists (select 1 from public.organizations o where o.id = old.org_id) then
    perform private.require_inspection_in_progress(old.inspection_id);
  end if;
  return old;
end;
$$;

revoke all on function private.guard_attachment_delete() from public, anon, authenticated;

create trigger attachments_guard_delete
  before delete on public.attachments
  for each row execute function private.guard_attachment_delete();

-- Sends `attachment_changed` {id, item_key, action} on the inspection's topic, where the people
-- filling it are (the topic's policies are with the answers). security definer because it
-- writes realtime.messages, which callers may not insert into themselves.
create or replace function private.broadcast_attachment_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  row_data public.attachments := coalesce(new, old);
  action text := case
    when tg_op = 'INSERT' then 'created'
    when tg_op = 'DELETE' then 'deleted'
    else 'confirmed'
  end;
begin
  perform realtime.send(
    jsonb_build_object('id', row_data.id, 'item_key', row_data.item_key, 'action', action),
    'attachment_changed',
    'inspection:' || row_data.inspection_id::text,
    true
  );
  return null;
end;
$$;

revoke all on function private.broadcast_attachment_change() from public, anon, authenticated;

-- Confirming is the only update worth announcing; deleting the uploader (uploaded_by set null) is not.
create trigger attachments_broadcast_change
  after insert or update of confirmed_at or delete on public.attachments
  for each row execute function private.broadcast_attachment_change();

create trigger attachments_write_audit_log
  after insert or update or delete on public.attachments
  for each row execute function private.write_audit_log();

create trigger attachments_enforce_mfa
  before insert or update or delete on public.attachments
  for each row execute function private.enforce_organization_mfa();

alter table public.attachments enable row level security;

create policy "Members can read their organization's attachments"
  on public.attachments
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "People filling an inspection can add photos to it"
  on public.attachments
  for insert
  to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  );

create policy "People filling an inspection can confirm its photos"
  on public.attachments
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  );

create policy "People filling an inspection can remove its photos"
  on public.attachments
  for delete
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  );

revoke all on table public.attachments from anon, authenticated;
grant select, delete on table public.attachments to authenticated;
-- uploaded_by and confirmed_at are not granted on insert: the uploader is always the caller,
-- and a photo starts pending. Confirming is the only update.
grant insert (id, org_id, inspection_id, item_key, object_path, content_type, byte_size) on table public.attachments to authenticated;
grant update (confirmed_at) on table public.attachments to authenticated;
grant all on table public.attachments to service_role;
