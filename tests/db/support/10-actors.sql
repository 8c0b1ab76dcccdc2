-- Test helpers for pgTAP files: make users and act as them, the way Supabase's REST layer
-- would (role switch plus request.jwt.claims). Loaded once per test database by tests/db/run.ts.
create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

-- Creates a confirmed user in auth.users (firing the product's triggers on it) and returns its id.
create or replace function tests.create_user(email text, display_name text default null)
returns uuid
language plpgsql
as $$
declare
  new_id uuid := gen_random_uuid();
begin
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', new_id, 'authenticated', 'authenticated', lower(email),
          extensions.crypt('password-123', extensions.gen_salt('bf')), now(),
          '{"provider":"email","providers":["email"]}',
          case when display_name is null then '{}'::jsonb else jsonb_build_object('display_name', display_name) end,
          now(), now());
  return new_id;
end;
$$;

-- Acts as a signed-in user for the rest of the transaction, with the claims a real access
-- token carries (aal decides what organizations requiring MFA allow).
create or replace function tests.act_as(user_id uuid, aal text default 'aal1')
returns void
language plpgsql
as $$
declare
  -- Read before switching role: authenticated cannot read auth.users.
  user_email text := (select u.email from auth.users u where u.id = user_id);
begin
  perform set_config('request.jwt.claims', json_build_object(
    'sub', user_id, 'role', 'authenticated', 'aud', 'authenticated', 'aal', aal,
    'email', user_email, 'session_id', gen_random_uuid())::text, true);
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claim.sub', user_id::text, true);
  perform set_config('request.jwt.claim.role', 'authenticated', true);
end;
$$;

-- Acts as a caller with only the anon key.
create or replace function tests.act_as_anon()
returns void
language plpgsql
as $$
begin
  perform set_config('role', 'anon', true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claim.role', 'anon', true);
end;
$$;

-- Back to the test's own (superuser) role; SET ROLE is checked against the session user.
create or replace function tests.reset_role()
returns void
language plpgsql
as $$
begin
  perform set_config('role', 'postgres', true);
  perform set_config('request.jwt.claims', '', true);
  perform set_config('request.jwt.claim.sub', '', true);
  perform set_config('request.jwt.claim.role', '', true);
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
