-- API keys (PRODUCT.md §3, §6): another service calls the api function with
-- `Authorization: Bearer fck_…`. A key belongs to one organization and carries the role manager,
-- inspector or viewer there. Only a SHA-256 of the secret is stored: the secret is random
-- (256 bits), so a slow password hash would add nothing, and GitHub and Stripe store theirs the
-- same way. Keys are revoked, never deleted, so the audit log can still name them.

create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint api_keys_name_check check (name = btrim(name) and char_length(name) between 1 and 120),
  -- The first characters of the secret, shown in lists so a leaked key can be told apart.
  prefix text not null
    constraint api_keys_prefix_check check (prefix ~ '^fck_[A-Za-z0-9_-]{8}$'),
  secret_hash bytea not null
    constraint api_keys_secret_hash_check check (octet_length(secret_hash) = 32),
  role public.org_role not null
    constraint api_keys_role_check check (role in ('manager', 'inspector', 'viewer')),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Written by private.authenticate_api_key at most once a minute, never by a client.
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null,
  constraint api_keys_secret_hash_key unique (secret_hash),
  constraint api_keys_expires_after_creation check (expires_at is null or expires_at > created_at)
);

comment on table public.api_keys is 'Organization API keys: a role for another service, its secret stored only as a SHA-256 hash.';
comment on column public.api_keys.prefix is 'fck_ and the first 8 characters of the secret, shown in lists.';

create index api_keys_org_id_created_at_idx on public.api_keys (org_id, created_at desc);
create index api_keys_created_by_idx on public.api_keys (created_by);
create index api_keys_revoked_by_idx on public.api_keys (revoked_by);

-- A key's state, the one copy of the rule: revoked wins, then expired, else active. Lists show
-- it, authenticating a secret and reading a request's key principal both go by it.
create or replace function private.api_key_state(revoked_at timestamptz, expires_at timestamptz)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when revoked_at is not null then 'revoked'
    when expires_at is not null and expires_at <= now() then 'expired'
    else 'active'
  end;
$$;

comment on function private.api_key_state(timestamptz, timestamptz) is 'active, revoked or expired, from a key''s revoked_at and expires_at.';

revoke all on function private.api_key_state(timestamptz, timestamptz) from public, anon;
grant execute on function private.api_key_state(timestamptz, timestamptz) to authenticated, service_role;

-- Before a new key: a client's key is theirs, new and unused, and expires in the future.
create or replace function private.prepare_api_key()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if private.is_client_request() then
    new.created_by := (select auth.uid());
    new.created_at := now();
    new.last_used_at := null;
    new.revoked_at := null;
    new.revoked_by := null;
  end if;
  if new.expires_at is not null and new.expires_at <= now() then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'expires_at', 'message', 'Choose an expiry in the future.')::text;
  end if;
  return new;
end;
$$;

-- Before an update: a client may only revoke (once; who and when are stamped here); everything
-- else about a key is fixed when it is made. last_used_at is the server's alone (no column grant).
create or replace function private.guard_api_key_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (to_jsonb(new) - '{revoked_at,revoked_by,last_used_at}'::text[]) <> (to_jsonb(old) - '{revoked_at,revoked_by,last_used_at}'::text[]) then
    raise exception 'forbidden';
  end if;
  if old.revoked_at is not null then
    new.revoked_at := old.revoked_at;
    new.revoked_by := old.revoked_by;
  elsif new.revoked_at is not null and private.is_client_request() then
    new.revoked_at := now();
    new.revoked_by := (select auth.uid());
  end if;
  return new;
end;
$$;

revoke all on function private.prepare_api_key(), private.guard_api_key_change() from public, anon, authenticated;

create trigger api_keys_prepare
  before insert on public.api_keys
  for each row execute function private.prepare_api_key();

create trigger api_keys_guard_change
  before update on public.api_keys
  for each row execute function private.guard_api_key_change();

-- An aal1 session in an organization requiring MFA cannot make or revoke keys.
create trigger api_keys_enforce_mfa
  before insert or update or delete on public.api_keys
  for each row execute function private.enforce_organization_mfa();

-- The hash is never logged; a use of the key (last_used_at) is not a change worth an entry.
create trigger api_keys_write_audit_log
  after insert or update or delete on public.api_keys
  for each row execute function private.write_audit_log('secret_hash', 'last_used_at');

alter table public.api_keys enable row level security;

-- Keys are managed by owners and admins only; a key's own roles (manager and below) never
-- reach these rows, so no key reads, makes or revokes keys.
create policy "Owners and admins can read their organization's API keys"
  on public.api_keys
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can create API keys"
  on public.api_keys
  for insert
  to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can revoke API keys"
  on public.api_keys
  for update
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')))
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

-- No delete policy: a key is revoked, and the audit log keeps naming it.

revoke all on table public.api_keys from anon, authenticated;
grant select (id, org_id, name, prefix, role, created_by, created_at, last_used_at, expires_at, revoked_at, revoked_by)
  on table public.api_keys to authenticated;
grant insert (id, org_id, name, prefix, secret_hash, role, expires_at) on table public.api_keys to authenticated;
grant update (revoked_at) on table public.api_keys to authenticated;
grant all on table public.api_keys to service_role;

-- The api function's first step for a bearer token that is not a JWT: which key has this hash,
-- and is it usable. Returns no row for an unknown secret; 'revoked' or 'expired' for a key that
-- was one. Marks the key used at most once a minute, so a busy integration costs one write a
-- minute, not one per request. Called by the function's own database role before the request
-- runs as the key, so it is not granted to the API roles.
create or replace function private.authenticate_api_key(secret_hash bytea)
returns table (id uuid, org_id uuid, role public.org_role, state text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  key public.api_keys;
begin
  select * into key from public.api_keys k where k.secret_hash = authenticate_api_key.secret_hash;
  if not found then
    return;
  end if;
  id := key.id;
  org_id := key.org_id;
  role := key.role;
  state := private.api_key_state(key.revoked_at, key.expires_at);
  if state = 'active' and (key.last_used_at is null or key.last_used_at < now() - interval '1 minute') then
    update public.api_keys k set last_used_at = now()
    where k.id = key.id and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute');
  end if;
  return next;
end;
$$;

comment on function private.authenticate_api_key(bytea) is
  'The key whose secret hashes to this value, with its state (active, revoked, expired); marks it used once a minute.';

revoke all on function private.authenticate_api_key(bytea) from public, anon, authenticated;
grant execute on function private.authenticate_api_key(bytea) to service_role;
