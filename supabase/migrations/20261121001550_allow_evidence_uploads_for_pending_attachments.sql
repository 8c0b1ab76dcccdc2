-- Signed upload URLs without the service role (PRODUCT.md §7: the service role is for workers).
-- Storage signs an upload URL only when the caller may insert the object (it dry-runs the insert
-- as the caller), so the api asks for the URL with the caller's own token, and this policy admits
-- exactly one kind of path: the object of a pending attachment the caller created in the last
-- two hours (a signed upload URL's lifetime) while still filling that inspection, and only while
-- it is in progress (photos change only then, and a submitted one's evidence is final). Every other
-- path, and every upload outside bucket `evidence`, stays refused, so nobody uploads evidence
-- that the api did not check in first.
-- The upload itself (PUT with the token) is written by Storage as its own superuser, as hosted
-- Storage does. A direct upload by the same caller to the same pending path is admitted too: it
-- is the same object under the same checks (bucket size and type limits, then the api's confirm).

create policy "People filling an inspection can upload the photo they checked in"
  on storage.objects
  for insert
  to authenticated
  with check (
    bucket_id = 'evidence'
    and exists (
      select 1
      from public.attachments a
      join public.inspections i on i.id = a.inspection_id
      where a.object_path = storage.objects.name
        and a.uploaded_by = (select auth.uid())
        and a.confirmed_at is null
        and a.created_at > now() - interval '2 hours'
        and i.status = 'in_progress'
        and private.can_fill_inspection(a.inspection_id)
    )
  );
