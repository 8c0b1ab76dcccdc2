-- Who may touch files (PRODUCT.md §7 "Storage"). Buckets `evidence` (inspection photos) and
-- `exports` (reports) are declared in supabase/config.toml; every object's first path segment
-- is its organization's id: `<org>/<inspection>/<item>/<uuid>.<ext>`.
-- Members read their organization's files. Nobody uploads directly: evidence arrives only
-- through signed upload URLs that the api function issues after checking role, inspection state
-- and item, and exports are written by the export worker.

-- The first path segment is compared with the ids as text, so a malformed segment is simply not
-- admitted rather than a cast error.
create policy "Members can read their organization's evidence and exports"
  on storage.objects
  for select
  to authenticated
  using (
    bucket_id in ('evidence', 'exports')
    and (storage.foldername(name))[1] in (select org_id::text from private.org_ids_of_current_user() as org_id)
  );

-- Removing a photo from an inspection (the api checks that the inspection is still in progress).
create policy "Members who fill inspections can delete their organization's evidence"
  on storage.objects
  for delete
  to authenticated
  using (
    bucket_id = 'evidence'
    and (storage.foldername(name))[1] in (
      select org_id::text from private.org_ids_of_current_user('{owner,admin,manager,inspector}') as org_id
    )
  );

-- No insert or update policies: uploads go through signed upload URLs only (see above).
