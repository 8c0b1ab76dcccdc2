-- API key fixtures: a key made as the superuser (its secret is never needed in SQL, so the hash
-- is random), and acting as a key the way the api function runs a key's request.

create or replace function tests.create_api_key(org uuid, key_role public.org_role, key_name text default 'Integration',
                                                expires timestamptz default null)
returns uuid
language sql
as $$
  insert into public.api_keys (org_id, name, prefix, secret_hash, role, expires_at)
  values (org, key_name, 'fck_' || substr(md5(random()::text), 1, 8), sha256(gen_random_uuid()::text::bytea), key_role, expires)
  returning id;
$$;

-- The claims the api function sets for a key (db.ts sessionOf): `authenticated`, no `sub`, and
-- the key's id, organization and role as they were when it was resolved.
create or replace function tests.act_as_api_key(key_id uuid, claimed_role text default null)
returns void
language plpgsql
as $$
declare
  key record;
begin
  perform tests.reset_role();
  select k.org_id, k.role into key from public.api_keys k where k.id = key_id;
  perform tests.set_request('authenticated', jsonb_build_object(
    'role', 'authenticated', 'api_key_id', key_id, 'api_key_org_id', key.org_id,
    'api_key_role', coalesce(claimed_role, key.role::text)));
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
