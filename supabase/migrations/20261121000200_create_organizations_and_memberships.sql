-- Organizations and their memberships: the tenancy every other table hangs from. The two live
-- in one migration because neither is usable without the other: an organization's policies
-- ask "is the caller a member?", and memberships reference organizations.

create type public.org_role as enum ('owner', 'admin', 'manager', 'inspector', 'viewer');
comment on type public.org_role is 'What a member may do in an organization (PRODUCT.md §6), from most to least.';

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  -- PRODUCT.md §5: 3-40 lowercase letters and digits, single hyphens between them.
  slug text not null
    constraint organizations_slug_check check (slug ~ '^[a-z0-9](-?[a-z0-9]){2,39}$'),
  name text not null
    constraint organizations_name_check check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  require_mfa boolean not null default false,
  default_geofence_m integer not null default 200
    constraint organizations_default_geofence_m_check check (default_geofence_m between 10 and 5000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint organizations_slug_key unique (slug)
);

comment on table public.organizations is 'A tenant: every product row carries the id of the organization it belongs to.';
comment on column public.organizations.require_mfa is 'When true, members write only from sessions verified with a second factor (aal2).';
comment on column public.organizations.default_geofence_m is 'Geofence radius new sites get when none is given.';

-- For the foreign key (deleting a user) and "organizations I created".
create index organizations_created_by_idx on public.organizations (created_by);

create table public.memberships (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.org_role not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- One membership per person per organization; also the index behind org_id lookups.
  constraint memberships_org_id_user_id_key unique (org_id, user_id)
);

comment on table public.memberships is 'Who belongs to which organization, with which role.';

-- Every policy starts from "the caller's memberships": user_id first, org and role included so
-- the helper below is an index-only scan.
create index memberships_user_id_idx on public.memberships (user_id) include (org_id, role);

create trigger organizations_set_updated_at
  before update on public.organizations
  for each row execute function private.set_updated_at();

create trigger memberships_set_updated_at
  before update on public.memberships
  for each row execute function private.set_updated_at();

-- The membership check behind every policy. Set-returning so a policy reads
-- `org_id in (select private.org_ids_of_current_user(...))`, which Postgres evaluates once per
-- query rather than once per row. security definer because it reads memberships, whose own
-- policies call it: as the caller it would recurse.
create or replace function private.org_ids_of_current_user(roles public.org_role[] default null)
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select m.org_id
  from public.memberships m
  where m.user_id = (select auth.uid())
    and (roles is null or m.role = any (roles));
$$;

comment on function private.org_ids_of_current_user(public.org_role[]) is
  'Ids of the organizations the signed-in caller belongs to, optionally only with one of the given roles.';

-- Policies run as the caller, so the API roles need the schema and this one function.
grant usage on schema private to authenticated, service_role;
revoke all on function private.org_ids_of_current_user(public.org_role[]) from public, anon;
grant execute on function private.org_ids_of_current_user(public.org_role[]) to authenticated, service_role;

-- The creator of an organization becomes its first owner. security definer because nobody may
-- insert memberships directly (members join by accepting an invitation).
create or replace function private.add_creator_as_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.created_by is not null then
    insert into public.memberships (org_id, user_id, role) values (new.id, new.created_by, 'owner');
  end if;
  return null;
end;
$$;

revoke all on function private.add_creator_as_owner() from public, anon, authenticated;

create trigger organizations_add_creator_as_owner
  after insert on public.organizations
  for each row execute function private.add_creator_as_owner();

-- An organization always keeps an owner: the last one can neither leave, be removed nor be
-- demoted. security definer to see and lock every owner row whatever the caller may read.
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner') then
    return coalesce(new, old);
  end if;
  -- Lock the organization so two owners demoting each other at once cannot both succeed.
  perform 1 from public.organizations where id = old.org_id for update;
  if not found then
    -- The organization itself is being deleted and its memberships go with it.
    return old;
  end if;
  if not exists (
    select 1 from public.memberships
    where org_id = old.org_id and role = 'owner' and id <> old.id
  ) then
    raise exception 'validation_failed'
      using detail = json_build_object(
        'field', case when tg_op = 'UPDATE' then 'role' else 'user_id' end,
        'message', 'An organization needs at least one owner. Make another member an owner first.'
      )::text;
  end if;
  return coalesce(new, old);
end;
$$;

revoke all on function private.keep_an_owner() from public, anon, authenticated;

create trigger memberships_keep_an_owner
  before update of role or delete on public.memberships
  for each row execute function private.keep_an_owner();

alter table public.organizations enable row level security;
alter table public.memberships enable row level security;

create policy "Members can read their organizations"
  on public.organizations
  for select
  to authenticated
  using (id in (select private.org_ids_of_current_user()));

create policy "Signed-in users can create organizations they own"
  on public.organizations
  for insert
  to authenticated
  with check (created_by = (select auth.uid()));

create policy "Owners and admins can change their organization's settings"
  on public.organizations
  for update
  to authenticated
  using (id in (select private.org_ids_of_current_user('{owner,admin}')))
  with check (id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners can delete their organization"
  on public.organizations
  for delete
  to authenticated
  using (id in (select private.org_ids_of_current_user('{owner}')));

create policy "Members can read the memberships of their organizations"
  on public.memberships
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

-- No insert policy: memberships are created only by the two security definer paths above and
-- in the invitations migration (creating an organization, accepting an invitation).

-- Admins manage everyone but owners; only owners make or unmake owners.
create policy "Owners and admins can change roles, admins not of or to owner"
  on public.memberships
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
  );

create policy "Owners and admins can remove members, and members can leave"
  on public.memberships
  for delete
  to authenticated
  using (
    user_id = (select auth.uid())
    or (
      org_id in (select private.org_ids_of_current_user('{owner,admin}'))
      and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
    )
  );

-- Column privileges back the policies: ids, creators and timestamps are never the caller's to set.
revoke all on table public.organizations, public.memberships from anon, authenticated;
grant select, delete on table public.organizations to authenticated;
grant insert (id, slug, name, require_mfa, default_geofence_m, created_by) on table public.organizations to authenticated;
grant update (slug, name, require_mfa, default_geofence_m) on table public.organizations to authenticated;
grant select, delete on table public.memberships to authenticated;
grant update (role) on table public.memberships to authenticated;
grant all on table public.organizations, public.memberships to service_role;
