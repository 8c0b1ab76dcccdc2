-- Evidence is removed only the way the api removes it (PRODUCT.md §4: answers and photos change
-- only while an inspection is in progress). Issue 4's policy let any inspector or manager delete
-- any file of the organization straight through Storage, whatever the inspection's state or
-- assignee, so a submitted or approved inspection could lose its photos. Now a file may be
-- deleted only when it is the object of an attachment whose inspection is in progress and filled
-- by the caller. The api deletes the attachment row and then the object in one transaction;
-- Storage checks on its own connection, where the row is still there until that commit.

drop policy "Members who fill inspections can delete their organization's evidence" on storage.objects;

create policy "People filling an inspection in progress can delete its photos"
  on storage.objects
  for delete
  to authenticated
  using (
    bucket_id = 'evidence'
    and exists (
      select 1
      from public.attachments a
      join public.inspections i on i.id = a.inspection_id
      where a.object_path = storage.objects.name
        and i.status = 'in_progress'
        and private.can_fill_inspection(a.inspection_id)
    )
  );
