-- A photo's file deleted straight through Storage (supabase-js `storage.from('evidence')
-- .remove([path])`: DELETE /storage/v1/object/evidence with the user's own token) while the
-- inspection was in progress left its attachment row behind, confirmed, with no file and no audit
-- entry (issue 24). The delete policies of 20261121001560 and 20261124100600 admit it, and must:
-- the api removes a photo's file with the caller's own token too (PRODUCT.md §7: the service role
-- is never used for a person's request), and Storage, on its own connection, cannot tell the api's
-- request from a direct one.
--
-- So a person's Storage delete of a photo's file now removes the photo's row in the same
-- transaction. Storage deletes the storage.objects row as the caller (their role and JWT claims,
-- under RLS) and only then, once that committed, the file; this trigger deletes the row of
-- `attachments` or `action_attachments` that names the object, as the same caller, so every rule
-- of that delete holds in Storage's transaction too: its policy, the inspection's or action's
-- state (under its lock), MFA; the audit entry names the caller, and the change is announced. If
-- any of them refuses, Storage's delete fails and the file stays. Through the api or around it,
-- a photo's row and its file now go together.
--
-- Only for `authenticated` callers. The service role is the api's for an API key (docs/api-keys.md):
-- it deletes the row first, as the key, and the file after it in the same transaction, still
-- holding that row's lock, so this trigger must not touch the row then; a worker's deletes are
-- its own business too.
--
-- A trigger on storage.objects, not a policy with side effects: hosted gives `postgres` the
-- TRIGGER right on Storage's tables (it may not change them otherwise, nor delete their rows by
-- SQL, and needs neither here).

create or replace function private.remove_photo_of_deleted_object()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user <> 'authenticated' then
    return null;
  end if;
  delete from public.attachments a where a.object_path = old.name;
  if found then
    return null;
  end if;
  delete from public.action_attachments a where a.object_path = old.name;
  if found then
    return null;
  end if;
  -- The delete policies admit only files whose row the caller may remove; should one ever admit
  -- more, the file stays rather than leave its row behind (a row the caller can see: every member
  -- sees their organization's photos, and no policy admits another organization's files).
  if exists (select 1 from public.attachments a where a.object_path = old.name)
     or exists (select 1 from public.action_attachments a where a.object_path = old.name) then
    raise exception 'The photo''s row cannot be removed with its file.' using errcode = 'insufficient_privilege';
  end if;
  return null;
end;
$$;

comment on function private.remove_photo_of_deleted_object() is
  'After a person''s Storage delete of an evidence object: removes the photo row naming it, as that person.';

revoke all on function private.remove_photo_of_deleted_object() from public, anon, authenticated;

create trigger evidence_objects_remove_photo_rows
  after delete on storage.objects
  for each row
  when (old.bucket_id = 'evidence')
  execute function private.remove_photo_of_deleted_object();
