-- Who may touch files (PRODUCT.md §7 "Storage"). Buckets `evidence` (inspection photos) and
-- `exports` (reports) are declared in supabase/config.toml; every object's first path segment
-- is its organization's id: `<org>/<inspection>/<item>/<uuid>.<ext>`.
-- Members read their organization's files. Nobody uploads directly: evidence arrives only
-- through signed upload URLs that the api function issues after checking role, inspection state
-- and item, and exports are written by the export worker.

-- The caller's organization ids as text, to compare with a path segment without casting it
-- (a malformed segment must not turn into an error). security definer like its sibling.
create or replace function private.org_folders_of_current_user(roles public.org_role[] default null)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select org_id::text from private.org_ids_of_current_user(roles) as org_id;
$$;

revoke all on function private.org_folders_of_current_user(public.org_role[]) from public, anon;
grant execute on function private.org_folders_of_current_user(public.org_role[]) to authenticated, service_role;

create policy "Members can read their organization's evidence and exports"
  on storage.objects
  for select
  to authenticated
  using (
    bucket_id in ('evidence', 'exports')
    and (storage.foldername(name))[1] in (select private.org_folders_of_current_user())
  );

-- Removing a photo from an inspection (the api checks that the inspection is still in progress).
create policy "Members who fill inspections can delete their organization's evidence"
  on storage.objects
  for delete
  to authenticated
  using (
    bucket_id = 'evidence'
    and (storage.foldername(name))[1] in (select private.org_folders_of_current_user('{owner,admin,manager,inspector}'))
  );

-- No insert or update policies: uploads go through signed upload URLs only (see above).
