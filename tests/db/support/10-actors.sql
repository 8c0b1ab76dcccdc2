-- Test helpers for pgTAP files: make users and act as them, the way Supabase's REST layer
-- would (role switch plus request.jwt.claims). Loaded once per test database by tests/db/run.ts.
create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

-- Creates a confirmed user in auth.users (firing the product's triggers on it) and returns its id.
create or replace function tests.create_user(email text, display_name text default null)
returns uuid
language sql
as $$
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', lower(email),
          extensions.crypt('password-123', extensions.gen_salt('bf')), now(),
          '{"provider":"email","providers":["email"]}',
          case when display_name is null then '{}'::jsonb else jsonb_build_object('display_name', display_name) end,
          now(), now())
  returning id;
$$;

-- Sets the database role and the request.jwt settings the REST layer would for a request with
-- these claims (none: the test's own superuser session), for the rest of the transaction.
create or replace function tests.set_request(role_name text, claims jsonb default null)
returns void
language plpgsql
as $$
begin
  perform set_config('role', role_name, true);
  perform set_config('request.jwt.claims', coalesce(claims::text, ''), true);
  perform set_config('request.jwt.claim.sub', coalesce(claims ->> 'sub', ''), true);
  perform set_config('request.jwt.claim.role', coalesce(claims ->> 'role', ''), true);
end;
$$;

-- Back to the test's own (superuser) role; SET ROLE is checked against the session user, so
-- this works while acting as anyone.
create or replace function tests.reset_role()
returns void
language sql
as $$
  select tests.set_request('postgres');
$$;

-- Acts as a signed-in user for the rest of the transaction, from any current role, with the
-- claims a real access token carries (aal decides what organizations requiring MFA allow).
create or replace function tests.act_as(user_id uuid, aal text default 'aal1')
returns void
language plpgsql
as $$
declare
  user_email text;
begin
  -- As the superuser first: the API roles cannot read auth.users.
  perform tests.reset_role();
  user_email := (select u.email from auth.users u where u.id = user_id);
  perform tests.set_request('authenticated', jsonb_build_object(
    'sub', user_id, 'role', 'authenticated', 'aud', 'authenticated', 'aal', aal,
    'email', user_email, 'session_id', gen_random_uuid()));
end;
$$;

-- Acts as a caller with only the anon key.
create or replace function tests.act_as_anon()
returns void
language sql
as $$
  select tests.set_request('anon', '{"role":"anon"}');
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
