-- Who is calling, asked in one place. Corrective actions (and what follows them) decide by the
-- caller's role in an organization and by whether a write comes from the API roles at all; these
-- two helpers answer both, so a new kind of principal (an API key) is taught to them once rather
-- than to every trigger.

-- The caller's role in `org`, or null when they are not a member. security definer because it
-- reads memberships, whose policies call private.org_ids_of_current_user as the caller.
create or replace function private.current_org_role(org uuid)
returns public.org_role
language sql
stable
security definer
set search_path = ''
as $$
  select m.role
  from public.memberships m
  where m.org_id = org and m.user_id = (select auth.uid());
$$;

comment on function private.current_org_role(uuid) is
  'The signed-in caller''s role in the organization, or null when not a member.';

revoke all on function private.current_org_role(uuid) from public, anon;
grant execute on function private.current_org_role(uuid) to authenticated, service_role;

-- Whether the request being served comes from a client of the API roles (anon, authenticated:
-- a signed-in user, later an API key), as opposed to a server (migrations, the seed without
-- claims, workers with the service role). Decided by the request's JWT role and the database
-- role, never by a missing user id: a caller without a user is still a client. The claims stay
-- set inside the product's security definer code, so its triggers hold a client's write to the
-- client's rules wherever it runs; column privileges keep clients off what only that code writes.
create or replace function private.is_client_request()
returns boolean
language sql
stable
set search_path = ''
as $$
  select current_user in ('anon', 'authenticated')
      or coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role', '') in ('anon', 'authenticated');
$$;

comment on function private.is_client_request() is
  'True when the request comes from an API role (anon, authenticated) by its JWT or database role, so client rules apply.';

revoke all on function private.is_client_request() from public;
grant execute on function private.is_client_request() to anon, authenticated, service_role;
