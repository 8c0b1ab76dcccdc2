-- Access by site group (issue 27; docs/site-groups.md). A membership, and an API key, is either
-- org-wide (as before) or limited to chosen site groups and everything below them: the sites in
-- those groups and their descendants, and all that hangs off those sites.
--
--   memberships.site_access_limited / api_keys.site_access_limited   limited or org-wide
--   public.membership_site_groups / public.api_key_site_groups      the groups of a limited one
--
-- The flag is the truth, not the presence of groups: a limited member whose groups are all
-- deleted stays limited and sees no site, never silently everything. Owners and admins are
-- always org-wide (a check), and a change of role to owner or admin clears the limit (a
-- trigger). A key's limit is set when it is made and never changes, as nothing of a key does.
--
-- The one rule, "may the caller see this site", is answered by two set-returning helpers that
-- a policy calls once per statement (a hashed sub-plan, as org_ids_of_current_user is used):
--
--   private.org_ids_with_every_site(roles)   organizations where the caller sees every site
--   private.limited_site_group_ids(roles)    groups the caller sees through its grants, with
--                                            their descendants (a site is seen when its group is)
--   private.limited_site_ids(roles)          the sites in those groups
--
-- and private.can_see_site(site_org, site[, roles]) puts them together for one site.
-- private.org_ids_of_current_user stays what it was, membership of the organization, for what is
-- org-wide by nature: templates, members, invitations, settings, keys and webhooks.
--
-- A member's access is set with private.set_member_site_access(org, member, group_ids): as the
-- caller (security invoker), so the policies below and the memberships policy decide, and the
-- MFA and audit triggers run as for any write.

alter table public.memberships
  add column site_access_limited boolean not null default false,
  add constraint memberships_site_access_check check (not site_access_limited or role not in ('owner', 'admin'));

comment on column public.memberships.site_access_limited is 'True when the member sees only the sites of their groups (membership_site_groups); owners and admins never are.';

-- The helpers read a user's memberships by user_id: the flag joins org_id and role in the index,
-- so that stays an index-only scan.
drop index public.memberships_user_id_idx;
create index memberships_user_id_idx on public.memberships (user_id) include (org_id, role, site_access_limited);

-- Written by set_member_site_access as the caller, under the memberships update policy (owners
-- and admins; admins not of owners).
grant update (site_access_limited) on public.memberships to authenticated;

alter table public.api_keys
  add column site_access_limited boolean not null default false,
  add constraint api_keys_org_id_id_key unique (org_id, id);

comment on column public.api_keys.site_access_limited is 'True when the key sees only the sites of its groups (api_key_site_groups); set at creation, like everything of a key.';

grant select (site_access_limited) on public.api_keys to authenticated;
grant insert (site_access_limited) on public.api_keys to authenticated;

create table public.membership_site_groups (
  org_id uuid not null,
  user_id uuid not null,
  site_group_id uuid not null,
  created_at timestamptz not null default now(),
  constraint membership_site_groups_pkey primary key (org_id, user_id, site_group_id),
  constraint membership_site_groups_membership_fkey foreign key (org_id, user_id)
    references public.memberships (org_id, user_id) on delete cascade,
  constraint membership_site_groups_site_group_fkey foreign key (org_id, site_group_id)
    references public.site_groups (org_id, id) on delete cascade
);

comment on table public.membership_site_groups is 'The site groups a limited member sees (with their descendants); set through private.set_member_site_access.';

create index membership_site_groups_site_group_id_idx on public.membership_site_groups (site_group_id, org_id);

alter table public.membership_site_groups enable row level security;

create table public.api_key_site_groups (
  api_key_id uuid not null,
  org_id uuid not null,
  site_group_id uuid not null,
  created_at timestamptz not null default now(),
  constraint api_key_site_groups_pkey primary key (api_key_id, org_id, site_group_id),
  constraint api_key_site_groups_api_key_fkey foreign key (org_id, api_key_id)
    references public.api_keys (org_id, id) on delete cascade,
  constraint api_key_site_groups_site_group_fkey foreign key (org_id, site_group_id)
    references public.site_groups (org_id, id) on delete cascade
);

comment on table public.api_key_site_groups is 'The site groups a limited API key sees (with their descendants); written only in the transaction that makes the key.';

create index api_key_site_groups_site_group_id_idx on public.api_key_site_groups (site_group_id, org_id);

alter table public.api_key_site_groups enable row level security;

-- The helpers. Security definer: they read memberships, grants and the group tree whatever the
-- caller may read of them. PL/pgSQL so that their plans live as long as the connection
-- (20261126100400), and each answers a signed-in user without asking about keys.

create or replace function private.org_ids_with_every_site(roles public.org_role[] default null)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      select m.org_id from public.memberships m
      where m.user_id = uid and not m.site_access_limited and (roles is null or m.role = any (roles));
  else
    return query
      select k.org_id from private.current_api_key() k
      join public.api_keys a on a.id = k.id
      where not a.site_access_limited and (roles is null or k.role = any (roles));
  end if;
end;
$$;

comment on function private.org_ids_with_every_site(public.org_role[]) is
  'Organizations where the caller (member or API key) sees every site — not limited to site groups — optionally only with one of the given roles.';

create or replace function private.limited_site_group_ids(roles public.org_role[] default null)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      with recursive seen as (
        select g.org_id, g.site_group_id as id
        from public.memberships m
        join public.membership_site_groups g on g.org_id = m.org_id and g.user_id = m.user_id
        where m.user_id = uid and m.site_access_limited and (roles is null or m.role = any (roles))
        union
        select c.org_id, c.id
        from seen s
        join public.site_groups c on c.org_id = s.org_id and c.parent_id = s.id
      )
      select seen.id from seen;
  else
    return query
      with recursive seen as (
        select g.org_id, g.site_group_id as id
        from private.current_api_key() k
        join public.api_keys a on a.id = k.id
        join public.api_key_site_groups g on g.api_key_id = k.id and g.org_id = k.org_id
        where a.site_access_limited and (roles is null or k.role = any (roles))
        union
        select c.org_id, c.id
        from seen s
        join public.site_groups c on c.org_id = s.org_id and c.parent_id = s.id
      )
      select seen.id from seen;
  end if;
end;
$$;

comment on function private.limited_site_group_ids(public.org_role[]) is
  'Site groups the caller sees through the groups it is limited to, with their descendants (none where it is org-wide), optionally only with one of the given roles.';

create or replace function private.limited_site_group_ancestor_ids()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return query
      with recursive above as (
        select p.org_id, p.id, p.parent_id
        from public.memberships m
        join public.membership_site_groups g on g.org_id = m.org_id and g.user_id = m.user_id
        join public.site_groups c on c.org_id = g.org_id and c.id = g.site_group_id
        join public.site_groups p on p.org_id = c.org_id and p.id = c.parent_id
        where m.user_id = uid and m.site_access_limited
        union
        select p.org_id, p.id, p.parent_id
        from above a
        join public.site_groups p on p.org_id = a.org_id and p.id = a.parent_id
      )
      select above.id from above;
  else
    return query
      with recursive above as (
        select p.org_id, p.id, p.parent_id
        from private.current_api_key() k
        join public.api_keys a on a.id = k.id
        join public.api_key_site_groups g on g.api_key_id = k.id and g.org_id = k.org_id
        join public.site_groups c on c.org_id = g.org_id and c.id = g.site_group_id
        join public.site_groups p on p.org_id = c.org_id and p.id = c.parent_id
        where a.site_access_limited
        union
        select p.org_id, p.id, p.parent_id
        from above a
        join public.site_groups p on p.org_id = a.org_id and p.id = a.parent_id
      )
      select above.id from above;
  end if;
end;
$$;

comment on function private.limited_site_group_ancestor_ids() is
  'The groups above those a limited caller is limited to: readable (their names, to draw the tree) but their other sites are not.';

create or replace function private.limited_site_ids(roles public.org_role[] default null)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select s.id from public.sites s
    where s.group_id in (select private.limited_site_group_ids(roles));
end;
$$;

comment on function private.limited_site_ids(public.org_role[]) is
  'Sites the caller sees through the site groups it is limited to (none where it is org-wide), optionally only with one of the given roles.';

-- The one rule for one site. SQL over the helpers above; it cannot be inlined into a query
-- (a pinned search_path forbids that: 003-advisor-rules), so policies spell out the same two
-- tests themselves to have them evaluated once per statement (docs/site-groups.md, "The rule").
create or replace function private.can_see_site(site_org uuid, site uuid, roles public.org_role[])
returns boolean
language sql
stable
set search_path = ''
as $$
  select site_org in (select private.org_ids_with_every_site(roles))
      or exists (
        select 1 from public.sites s
        where s.id = site and s.org_id = site_org
          and s.group_id in (select private.limited_site_group_ids(roles))
      );
$$;

comment on function private.can_see_site(uuid, uuid, public.org_role[]) is
  'True when the caller (member or API key) sees this site of this organization with one of the given roles (null: any role): org-wide, or the site is in one of its groups or below.';

create or replace function private.can_see_site(site_org uuid, site uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select private.can_see_site(site_org, site, null);
$$;

comment on function private.can_see_site(uuid, uuid) is
  'True when the caller (member or API key) sees this site of this organization: org-wide, or the site is in one of its groups or below.';

revoke all on function private.org_ids_with_every_site(public.org_role[]) from public, anon;
revoke all on function private.limited_site_group_ids(public.org_role[]) from public, anon;
revoke all on function private.limited_site_group_ancestor_ids() from public, anon;
revoke all on function private.limited_site_ids(public.org_role[]) from public, anon;
revoke all on function private.can_see_site(uuid, uuid, public.org_role[]) from public, anon;
revoke all on function private.can_see_site(uuid, uuid) from public, anon;
grant execute on function private.org_ids_with_every_site(public.org_role[]) to authenticated, service_role;
grant execute on function private.limited_site_group_ids(public.org_role[]) to authenticated, service_role;
grant execute on function private.limited_site_group_ancestor_ids() to authenticated, service_role;
grant execute on function private.limited_site_ids(public.org_role[]) to authenticated, service_role;
grant execute on function private.can_see_site(uuid, uuid, public.org_role[]) to authenticated, service_role;
grant execute on function private.can_see_site(uuid, uuid) to authenticated, service_role;

-- Policies of the grant tables. Members read their organization's grants, as they read its
-- memberships (the members list shows each member's access); owners and admins write them, and
-- only for limited members, through set_member_site_access. A key's groups: owners and admins,
-- who read keys; added only in the transaction that makes the key (prepare_api_key sets its
-- created_at to now(), the transaction's start), and only to a limited key.

create policy "Members can read their organization's member access" on public.membership_site_groups
  for select to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners and admins can give limited members groups" on public.membership_site_groups
  for insert to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and exists (
      select 1 from public.memberships m
      where m.org_id = membership_site_groups.org_id and m.user_id = membership_site_groups.user_id and m.site_access_limited
    )
  );

create policy "Owners and admins can take groups from members" on public.membership_site_groups
  for delete to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

grant select, delete on public.membership_site_groups to authenticated;
grant insert (org_id, user_id, site_group_id) on public.membership_site_groups to authenticated;
grant all on public.membership_site_groups to service_role;

create policy "Owners and admins can read their organization's key access" on public.api_key_site_groups
  for select to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can give a limited key groups as they make it" on public.api_key_site_groups
  for insert to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and exists (
      select 1 from public.api_keys k
      where k.org_id = api_key_site_groups.org_id and k.id = api_key_site_groups.api_key_id
        and k.site_access_limited and k.created_at = now()
    )
  );

grant select on public.api_key_site_groups to authenticated;
grant insert (api_key_id, org_id, site_group_id) on public.api_key_site_groups to authenticated;
grant all on public.api_key_site_groups to service_role;

create trigger membership_site_groups_enforce_mfa
  before insert or delete on public.membership_site_groups
  for each row execute function private.enforce_organization_mfa();

create trigger membership_site_groups_write_audit_log
  after insert or delete on public.membership_site_groups
  for each row execute function private.write_audit_log();

create trigger api_key_site_groups_enforce_mfa
  before insert on public.api_key_site_groups
  for each row execute function private.enforce_organization_mfa();

create trigger api_key_site_groups_write_audit_log
  after insert on public.api_key_site_groups
  for each row execute function private.write_audit_log();

-- Owners and admins see every site: a change of role to owner or admin ends the limit, and the
-- member's groups go with it (security definer: the member being promoted may be the caller's
-- own row, and grants are written only through the policies above otherwise).
create or replace function private.clear_site_access_of_owners_and_admins()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_when = 'BEFORE' then
    if new.role in ('owner', 'admin') then
      new.site_access_limited := false;
    end if;
    return new;
  end if;
  delete from public.membership_site_groups g where g.org_id = new.org_id and g.user_id = new.user_id;
  return null;
end;
$$;

revoke all on function private.clear_site_access_of_owners_and_admins() from public, anon, authenticated;

create trigger memberships_clear_site_access
  before update of role on public.memberships
  for each row execute function private.clear_site_access_of_owners_and_admins();

create trigger memberships_clear_site_groups
  after update on public.memberships
  for each row when (old.site_access_limited and not new.site_access_limited)
  execute function private.clear_site_access_of_owners_and_admins();

-- Sets which sites a member sees: no groups = org-wide; otherwise exactly these groups (and
-- their descendants). Owners and admins of the organization only (the members page's roles);
-- owners and admins themselves are always org-wide; the groups must be the organization's.
-- Always touches the membership row, so the change is announced (member_updated) and the
-- member's open tabs can join the right topics.
create or replace function private.set_member_site_access(org uuid, member uuid, group_ids uuid[])
returns void
language plpgsql
set search_path = ''
as $$
declare
  target_role public.org_role;
  wanted uuid[] := array(select distinct g from unnest(coalesce(group_ids, '{}')) g where g is not null);
begin
  if private.current_org_role(org) is null then
    raise exception 'not_found' using detail = json_build_object('thing', 'organization')::text;
  end if;
  if private.current_org_role(org) not in ('owner', 'admin') then
    raise exception 'forbidden';
  end if;
  select m.role into target_role from public.memberships m where m.org_id = org and m.user_id = member;
  if target_role is null then
    raise exception 'not_found' using detail = json_build_object('thing', 'member')::text;
  end if;
  if target_role in ('owner', 'admin') then
    if cardinality(wanted) = 0 then
      return; -- already org-wide, as they always are
    end if;
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_group_ids', 'message', 'Owners and admins always see every site.')::text;
  end if;
  if cardinality(wanted) > (select count(*) from public.site_groups g where g.org_id = org and g.id = any (wanted)) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_group_ids', 'message', 'Choose groups of this organization.')::text;
  end if;
  update public.memberships m set site_access_limited = cardinality(wanted) > 0
  where m.org_id = org and m.user_id = member;
  if not found then
    -- The memberships policy let the caller read the row but not change it (an admin and an owner).
    raise exception 'forbidden';
  end if;
  delete from public.membership_site_groups g
  where g.org_id = org and g.user_id = member and g.site_group_id <> all (wanted);
  insert into public.membership_site_groups (org_id, user_id, site_group_id)
  select org, member, w from unnest(wanted) w
  on conflict do nothing;
end;
$$;

comment on function private.set_member_site_access(uuid, uuid, uuid[]) is
  'Limits a member to these site groups (and their descendants), or makes them org-wide with none; as the caller, owners and admins only.';

revoke all on function private.set_member_site_access(uuid, uuid, uuid[]) from public, anon;
grant execute on function private.set_member_site_access(uuid, uuid, uuid[]) to authenticated, service_role;
