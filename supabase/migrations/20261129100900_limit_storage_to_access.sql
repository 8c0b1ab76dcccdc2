-- Storage by site access (issue 27; docs/site-groups.md, "Storage"). Signed URLs are made by the
-- api after its own reads (which RLS already limits), but the objects' policies hold the rule too:
--
--   - evidence: an org-wide member or key reads every object of the organization as before; a
--     limited one only photos of inspections (`<org>/<inspection>/<item>/<file>`) and actions
--     (`<org>/actions/<action>/<file>`) at sites it sees. Uploads and deletes already go through
--     private.photo_object_changeable, whose can_fill_inspection / can_work_action now ask about
--     the site (20261129100600).
--   - exports: nothing is stored there yet (docs/reports.md, "Bucket exports"). Decided: an
--     export's objects go under `<org>/<user or key id>/…`, the principal that asked for it; an
--     org-wide member reads the organization's exports as before, a limited one only its own —
--     an export made by someone else may hold sites it does not see.

-- The site group of the site an evidence object's path names (its inspection's or action's), or
-- null (a path of another shape, or of something the caller's organizations do not hold).
-- Security definer: the lookup is of one row by id, for the policy below only.
create or replace function private.site_group_of_evidence_object(object_name text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  folders text[] := storage.foldername(object_name);
  uuid_pattern constant text := '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  found_group uuid;
begin
  if folders[1] !~ uuid_pattern then
    return null;
  end if;
  if folders[2] = 'actions' then
    if folders[3] !~ uuid_pattern then
      return null;
    end if;
    select s.group_id into found_group
    from public.actions a join public.sites s on s.id = a.site_id
    where a.id = folders[3]::uuid and a.org_id = folders[1]::uuid;
  elsif folders[2] ~ uuid_pattern then
    select s.group_id into found_group
    from public.inspections i join public.sites s on s.id = i.site_id
    where i.id = folders[2]::uuid and i.org_id = folders[1]::uuid;
  end if;
  return found_group;
end;
$$;

comment on function private.site_group_of_evidence_object(text) is
  'The site group of the inspection or action an evidence object''s path names, or null; for the storage read policy.';

revoke all on function private.site_group_of_evidence_object(text) from public, anon;
grant execute on function private.site_group_of_evidence_object(text) to authenticated, service_role;

alter policy "Members can read their organization's evidence and exports" on storage.objects
  using (
    bucket_id in ('evidence', 'exports')
    and (storage.foldername(name))[1] in (select org_id::text from private.org_ids_of_current_user() as org_id)
    and (
      (storage.foldername(name))[1] in (select org_id::text from private.org_ids_with_every_site() as org_id)
      or (bucket_id = 'exports' and (storage.foldername(name))[2] = (select private.current_principal_id())::text)
      or (bucket_id = 'evidence' and private.site_group_of_evidence_object(name) in (select private.limited_site_group_ids()))
    )
  );
