-- Sites and site groups as the caller's access allows (issue 27; docs/site-groups.md).
--
-- Sites: an org-wide member (or key) reads every site of the organization, as before; a limited
-- one only the sites in its groups and their descendants. Managers and above add and edit sites
-- where they see them: a limited manager only into, within and between its own groups (never
-- ungrouped, which would take the site out of its own sight). The two tests are the rule's
-- (private.can_see_site), written out so that each helper runs once per statement.
--
-- Site groups: org-wide members read the whole tree; a limited one reads its groups, their
-- descendants, and the groups above them (names only, so that the tree can be drawn; their
-- other sites stay unseen). Managers and above manage groups (PRODUCT.md §6): org-wide ones
-- anywhere, a limited manager only strictly inside its groups — a group whose parent it sees,
-- moved only under a group it sees — so never at the top level, never its own groups themselves,
-- and never in a way that changes what members limited elsewhere see.

create policy "Members can read the site groups they see" on public.site_groups
  for select to authenticated
  using (
    org_id in (select private.org_ids_with_every_site())
    or id in (select private.limited_site_group_ids())
    -- Also a group just added under one of them, which the helper's snapshot does not hold yet
    -- (an insert's RETURNING is checked against this policy).
    or parent_id in (select private.limited_site_group_ids())
    or id in (select private.limited_site_group_ancestor_ids())
  );

create policy "Managers can add site groups where they see sites" on public.site_groups
  for insert to authenticated
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or parent_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

create policy "Managers can rename and move site groups where they see sites" on public.site_groups
  for update to authenticated
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or parent_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  )
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or parent_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

create policy "Managers can delete site groups where they see sites" on public.site_groups
  for delete to authenticated
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or parent_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

-- The sites policies keep their names (tests and docs name them); "their organization's sites"
-- now means the ones they see.
alter policy "Members can read their organization's sites" on public.sites
  using (
    org_id in (select private.org_ids_with_every_site())
    or group_id in (select private.limited_site_group_ids())
  );

alter policy "Owners, admins and managers can add sites" on public.sites
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or group_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

alter policy "Owners, admins and managers can edit and archive sites" on public.sites
  using (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or group_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  )
  with check (
    org_id in (select private.org_ids_with_every_site('{owner,admin,manager}'))
    or group_id in (select private.limited_site_group_ids('{owner,admin,manager}'))
  );

-- Search finds its page of ids as the service role would (20261126100200), so it must apply the
-- rule itself: a limited member's page holds only the sites of its groups, or the api's re-read
-- under RLS would leave the page short and its cursor wrong.
create or replace function private.site_search_page(org uuid, pattern text, archived text, after_name text, after_id uuid, page_size integer)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  every_site boolean := org in (select private.org_ids_with_every_site());
begin
  if not exists (select 1 from private.org_ids_of_current_user() o where o = org) then
    return;
  end if;
  return query execute format(
    $q$
      select s.id from public.sites s
      where s.org_id = $1
        and (s.name || ' ' || coalesce(s.address, '') || ' ' || coalesce(s.external_ref, '')) ilike $2
        and %s
        and %s
        and ($3::text is null or (s.name, s.id) > ($3, $4))
      order by s.name, s.id
      limit $5
    $q$,
    case archived when 'all' then 'true' when 'true' then 's.archived_at is not null' else 's.archived_at is null' end,
    case when every_site then 'true' else 's.group_id = any ($6)' end
  ) using org, pattern, after_name, after_id, least(greatest(page_size, 1), 201),
          case when every_site then null else array(select private.limited_site_group_ids()) end;
end;
$$;
