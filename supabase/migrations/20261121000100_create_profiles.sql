-- Profiles: one row per auth user holding the name other people see. Created by a trigger on
-- auth.users so every account has one; users read and rename only their own (organization
-- members will see each other's names once organizations exist).

-- Helpers live in a schema the Data API does not expose.
create schema if not exists private;
revoke all on schema private from public;

create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- Names are 1-120 characters without surrounding whitespace (PRODUCT.md §5), as the api's zod schema checks.
  display_name text not null
    constraint profiles_display_name_length check (char_length(display_name) between 1 and 120)
    constraint profiles_display_name_trimmed check (display_name !~ '^\s|\s$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.profiles is 'The display name of each user; one row per auth.users row, created by a trigger.';
comment on column public.profiles.display_name is 'Trimmed, 1-120 characters; shown to other members.';

-- Keeps updated_at honest whoever writes the row; generic so later tables can reuse it.
create or replace function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

comment on function private.set_updated_at() is 'Before-update trigger: stamps updated_at with the transaction time.';

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

-- security definer because it runs as the auth server's role, which may not write public.profiles;
-- search_path is empty so a caller's search_path cannot redirect the names it uses.
create or replace function private.create_profile_for_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  chosen_name text;
begin
  chosen_name := coalesce(
    nullif(regexp_replace(new.raw_user_meta_data ->> 'display_name', '^\s+|\s+$', '', 'g'), ''),
    nullif(regexp_replace(new.raw_user_meta_data ->> 'name', '^\s+|\s+$', '', 'g'), ''),
    nullif(regexp_replace(split_part(coalesce(new.email, ''), '@', 1), '^\s+|\s+$', '', 'g'), ''),
    'User'
  );
  -- Truncating may expose inner whitespace at the cut, so trim again after it.
  chosen_name := regexp_replace(left(chosen_name, 120), '\s+$', '', 'g');

  insert into public.profiles (user_id, display_name)
  values (new.id, chosen_name);
  return new;
end;
$$;

comment on function private.create_profile_for_new_user() is
  'After-insert trigger on auth.users: creates the profile from user metadata or the email''s local part.';

-- Only the trigger calls it.
revoke all on function private.create_profile_for_new_user() from public, anon, authenticated;

create trigger on_auth_user_created_create_profile
  after insert on auth.users
  for each row execute function private.create_profile_for_new_user();

alter table public.profiles enable row level security;

create policy "Users can read their own profile"
  on public.profiles
  for select
  to authenticated
  using (user_id = (select auth.uid()));

create policy "Users can update their own profile"
  on public.profiles
  for update
  to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- No insert or delete policies: the trigger inserts, and deleting the auth user cascades.

-- Column privileges back the policies: even through the Data API a user can change only the name.
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (display_name) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;
