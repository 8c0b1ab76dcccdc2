-- A group that holds sites cannot be deleted (issue 27; docs/site-groups.md), but its organization
-- can (issue 27's own change must not make deleting an organization fail).
--
-- 20261129100200 refused it with the foreign key from sites (on delete restrict). Deleting an
-- organization deletes its sites and its groups by two cascades, one statement each, in the order
-- of their triggers' names (RI_ConstraintTrigger_a_<oid>, compared as text): when the groups'
-- cascade runs first, the restrict sees the sites not yet deleted and the organization stays.
-- So the foreign key now only sets the site's group to null when its group goes (the organization
-- case, where the site goes too a moment later), and a trigger refuses deleting a group that still
-- holds sites while its organization exists, with the foreign key's own SQLSTATE (23503) and
-- constraint name, as before.

alter table public.sites
  drop constraint sites_group_fkey,
  add constraint sites_group_fkey foreign key (org_id, group_id)
    references public.site_groups (org_id, id) on delete set null (group_id);

-- Security definer: a limited manager deleting a group inside its own may not see every site.
create or replace function private.refuse_deleting_a_group_with_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.sites s where s.group_id = old.id)
     and exists (select 1 from public.organizations o where o.id = old.org_id) then
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'update or delete on table "site_groups" violates foreign key constraint "sites_group_fkey" on table "sites"',
      schema = 'public',
      table = 'sites',
      constraint = 'sites_group_fkey';
  end if;
  return old;
end;
$$;

revoke all on function private.refuse_deleting_a_group_with_sites() from public, anon, authenticated;

create trigger site_groups_refuse_delete_with_sites
  before delete on public.site_groups
  for each row execute function private.refuse_deleting_a_group_with_sites();
