-- An API key as a principal (PRODUCT.md §6): the api function runs a key's request as
-- `authenticated` with claims that name the key, its organization and its role, and no `sub`
-- (a key is not a user). The helpers every policy and trigger asks "who is calling" learn that
-- principal here, once, so a key is held to exactly the rules of a member of its role.
--
-- The claims alone are never trusted: private.current_api_key() finds the key they name and
-- accepts it only while it exists, is not revoked or expired, and still has that organization
-- and role. A request with a user (`sub`) is never a key's.

create or replace function private.current_api_key()
returns table (id uuid, org_id uuid, role public.org_role)
language sql
stable
security definer
set search_path = ''
as $$
  with claims as (
    select nullif(current_setting('request.jwt.claims', true), '')::jsonb as c
  )
  select k.id, k.org_id, k.role
  from claims, public.api_keys k
  where claims.c ->> 'role' = 'authenticated'
    and claims.c ->> 'sub' is null
    -- A case, not an `and`: Postgres may evaluate the cast before a sibling condition.
    and k.id = case when claims.c ->> 'api_key_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                    then (claims.c ->> 'api_key_id')::uuid end
    and k.org_id::text = claims.c ->> 'api_key_org_id'
    and k.role::text = claims.c ->> 'api_key_role'
    and private.api_key_state(k.revoked_at, k.expires_at) = 'active';
$$;

comment on function private.current_api_key() is
  'The usable API key the request''s claims name (id, organization, role), or no row.';

revoke all on function private.current_api_key() from public, anon;
grant execute on function private.current_api_key() to authenticated, service_role;

-- Who sent a request, for rows kept per sender (idempotency keys): the user, or else the key.
create or replace function private.current_principal_id()
returns uuid
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.uid()), (select k.id from private.current_api_key() k));
$$;

comment on function private.current_principal_id() is 'The signed-in user''s id, or the calling API key''s id, or null.';

revoke all on function private.current_principal_id() from public, anon;
grant execute on function private.current_principal_id() to authenticated, service_role;

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
    and (roles is null or m.role = any (roles))
  union all
  select k.org_id
  from private.current_api_key() k
  where roles is null or k.role = any (roles);
$$;

comment on function private.org_ids_of_current_user(public.org_role[]) is
  'Ids of the organizations the caller (a signed-in member, or an API key) belongs to, optionally only with one of the given roles.';

create or replace function private.current_org_role(org uuid)
returns public.org_role
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select m.role from public.memberships m where m.org_id = org and m.user_id = (select auth.uid())),
    (select k.role from private.current_api_key() k where k.org_id = org)
  );
$$;

comment on function private.current_org_role(uuid) is
  'The caller''s role in the organization (a member''s, or an API key''s), or null.';

-- A key reads its organization's members (to assign inspections and actions to them).
create or replace function private.user_ids_sharing_an_org_with_current_user()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select (select auth.uid())
  union
  select other.user_id
  from public.memberships mine
  join public.memberships other on other.org_id = mine.org_id
  where mine.user_id = (select auth.uid())
  union
  select m.user_id
  from public.memberships m
  where m.org_id in (select k.org_id from private.current_api_key() k);
$$;

-- The same rule as before, asked of the caller's role so that a key of role inspector fills in
-- inspections assigned to nobody (it is nobody's assignee), and a manager key any of its org.
create or replace function private.can_fill_inspection(inspection uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.inspections i
    where i.id = inspection
      and (private.current_org_role(i.org_id) in ('owner', 'admin', 'manager')
           or (private.current_org_role(i.org_id) = 'inspector'
               and (i.assignee_id is null or i.assignee_id = (select auth.uid()))))
  );
$$;

-- MFA is about people's sessions: a key has no second factor to verify and keeps working when
-- its organization requires MFA (PRODUCT.md §6). Owners and admins, who make keys, need aal2.
create or replace function private.enforce_organization_mfa()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  requires boolean;
begin
  if current_user <> 'authenticated' or coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2' then
    return coalesce(new, old);
  end if;

  if tg_table_name = 'organizations' then
    -- Switching the requirement on also needs aal2: nobody locks a team out from a weaker session.
    requires := coalesce((to_jsonb(old) ->> 'require_mfa')::boolean, false)
             or coalesce((to_jsonb(new) ->> 'require_mfa')::boolean, false);
  else
    -- Through jsonb: one function serves tables without a user_id column.
    if tg_table_name = 'memberships' and tg_op = 'DELETE' and (to_jsonb(old) ->> 'user_id')::uuid = (select auth.uid()) then
      return old;
    end if;
    -- As the caller: a non-member sees no organization here and is refused by RLS right after.
    select o.require_mfa into requires
    from public.organizations o
    where o.id = (to_jsonb(coalesce(new, old)) ->> 'org_id')::uuid;
  end if;

  -- Asked last, only where MFA is required: most writes never need the key lookup.
  if coalesce(requires, false) and not exists (select 1 from private.current_api_key()) then
    raise exception 'mfa_required';
  end if;
  return coalesce(new, old);
end;
$$;

-- Idempotency keys are private to their sender, a user or a key.
alter table public.idempotency_keys alter column principal_id set default private.current_principal_id();

alter policy "Senders can read their own idempotency keys" on public.idempotency_keys
  using (principal_id = (select private.current_principal_id()));
alter policy "Senders can store their own idempotency keys" on public.idempotency_keys
  with check (principal_id = (select private.current_principal_id()));
alter policy "Senders can record the response of their own idempotency keys" on public.idempotency_keys
  using (principal_id = (select private.current_principal_id()))
  with check (principal_id = (select private.current_principal_id()));
alter policy "Senders can purge their own idempotency keys" on public.idempotency_keys
  using (principal_id = (select private.current_principal_id()));
