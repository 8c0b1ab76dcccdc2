-- The helpers every policy asks (which organizations the caller is in, their role in one, the
-- calling API key) were SQL functions that cannot be inlined (security definer), so Postgres
-- planned their bodies again in every statement: ~0.45 ms of a member's 0.5 ms site list, where
-- the same query as the service role takes 0.05 ms. Most of it was current_api_key(), planned
-- and run for every user request although a user's claims name no key.
--
-- As PL/pgSQL they keep their plans for the connection's life, and each answers the common case
-- first: a signed-in user's memberships without asking about keys, and no key without a query
-- when the claims name none. Same signatures, same results, same security definer rules; the
-- RLS matrix tests (tests/db) hold them to it.
create or replace function private.current_api_key()
returns table (id uuid, org_id uuid, role public.org_role)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
begin
  if claims is null
     or claims ->> 'role' is distinct from 'authenticated'
     or claims ->> 'sub' is not null
     or coalesce(claims ->> 'api_key_id', '') !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return;
  end if;
  return query
    select k.id, k.org_id, k.role
    from public.api_keys k
    where k.id = (claims ->> 'api_key_id')::uuid
      and k.org_id::text = claims ->> 'api_key_org_id'
      and k.role::text = claims ->> 'api_key_role'
      and private.api_key_state(k.revoked_at, k.expires_at) = 'active';
end;
$$;

create or replace function private.org_ids_of_current_user(roles public.org_role[] default null)
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
      where m.user_id = uid and (roles is null or m.role = any (roles));
  else
    return query
      select k.org_id from private.current_api_key() k
      where roles is null or k.role = any (roles);
  end if;
end;
$$;

create or replace function private.current_org_role(org uuid)
returns public.org_role
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  found public.org_role;
begin
  if uid is not null then
    select m.role into found from public.memberships m where m.org_id = org and m.user_id = uid;
  else
    select k.role into found from private.current_api_key() k where k.org_id = org;
  end if;
  return found;
end;
$$;
