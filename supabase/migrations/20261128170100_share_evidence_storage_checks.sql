-- Both photo kinds, inspection photos (public.attachments) and action photos
-- (public.action_attachments), share bucket `evidence` and were checked against it by two copies
-- of the same SQL (issue 25): two upload policies and two delete policies on storage.objects
-- (20261121001550, 20261121001560, 20261124100600) that differ only in the table and in who may
-- change the parent's photos, and two confirm triggers (20261121001500, 20261124100600) with the
-- same check of the stored object. Here each check is one private helper, and the policies and
-- triggers are made again through it. What each admits is unchanged
-- (tests/db/146-evidence-storage-checks.test.sql compares them with the policies they replace).
--
-- The helpers run as the caller (not security definer), as the policies' own subqueries did: the
-- photo rows, the parents and storage.objects are read under the caller's row-level security.

-- An evidence object a photo row names, whose parent the caller may change now: an inspection
-- in progress they fill, an action open or in progress they work. `uploading`: the upload of a
-- pending photo the caller checked in within the last two hours (a signed upload URL's lifetime).
create function private.photo_object_changeable(object_name text, uploading boolean)
returns boolean
language sql
stable
set search_path = ''
as $$
  with photo as (
    select a.uploaded_by, a.confirmed_at, a.created_at
    from public.attachments a
    join public.inspections i on i.id = a.inspection_id
    where a.object_path = object_name
      and i.status = 'in_progress'
      and private.can_fill_inspection(a.inspection_id)
    union all
    select a.uploaded_by, a.confirmed_at, a.created_at
    from public.action_attachments a
    join public.actions x on x.id = a.action_id
    where a.object_path = object_name
      and x.status in ('open', 'in_progress')
      and private.can_work_action(a.action_id)
  )
  select exists (
    select 1
    from photo
    where not uploading
       or (photo.uploaded_by = (select auth.uid())
           and photo.confirmed_at is null
           and photo.created_at > now() - interval '2 hours')
  );
$$;

comment on function private.photo_object_changeable(text, boolean) is
  'True when an evidence object is a photo (of an inspection or an action) whose parent the caller may change now; with uploading, a pending photo the caller checked in within two hours.';

revoke all on function private.photo_object_changeable(text, boolean) from public, anon;
grant execute on function private.photo_object_changeable(text, boolean) to authenticated;

drop policy "People filling an inspection can upload the photo they checked in" on storage.objects;
drop policy "People working an action can upload the photo they checked in" on storage.objects;
drop policy "People filling an inspection in progress can delete its photos" on storage.objects;
drop policy "People working an open action can delete its photos" on storage.objects;

-- Uploads: only to the path of a pending photo the caller checked in (Storage signs an upload URL
-- only when the caller may insert the object, so nobody uploads evidence the api did not check in).
create policy "People changing photos can upload the photo they checked in"
  on storage.objects
  for insert
  to authenticated
  with check (bucket_id = 'evidence' and private.photo_object_changeable(name, true));

-- Deletes: a photo's file, while its parent may change (the trigger of 20261128130300 removes the
-- photo's row with it, as the same caller).
create policy "People changing photos can delete them"
  on storage.objects
  for delete
  to authenticated
  using (bucket_id = 'evidence' and private.photo_object_changeable(name, false));

-- Confirming a photo needs its object in Storage with the declared size and type (the api checked
-- its magic bytes before). Read as the caller, who sees their organization's evidence through the
-- storage.objects select policy.
create function private.require_photo_stored_as_declared(object_name text, byte_size bigint, content_type text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not exists (
    select 1 from storage.objects o
    where o.bucket_id = 'evidence' and o.name = object_name
      and (o.metadata ->> 'size')::bigint = byte_size
      and o.metadata ->> 'mimetype' = content_type
  ) then
    raise exception 'validation_failed' using detail = json_build_object('field', 'file', 'message', 'Upload the photo as declared before confirming it.')::text;
  end if;
end;
$$;

comment on function private.require_photo_stored_as_declared(text, bigint, text) is
  'Raises validation_failed unless the evidence object is stored with the declared size and type (confirming a photo).';

revoke all on function private.require_photo_stored_as_declared(text, bigint, text) from public, anon;
grant execute on function private.require_photo_stored_as_declared(text, bigint, text) to authenticated, service_role;

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
  perform private.require_photo_stored_as_declared(new.object_path, new.byte_size, new.content_type);
  new.confirmed_at := now();
  return new;
end;
$$;

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
  perform private.require_photo_stored_as_declared(new.object_path, new.byte_size, new.content_type);
  new.confirmed_at := now();
  return new;
end;
$$;
