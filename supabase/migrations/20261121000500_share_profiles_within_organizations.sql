-- Members see each other: a member list shows names and email addresses, and so will assignee
-- pickers. Profiles gain the account's email (kept in step with auth.users by a trigger, since
-- members cannot read auth.users), and a profile becomes readable by everyone who shares an
-- organization with its user.

alter table public.profiles add column email text;
comment on column public.profiles.email is 'The account''s email, lowercase; copied from auth.users so fellow members can see it.';

update public.profiles p set email = lower(u.email) from auth.users u where u.id = p.user_id;

-- security definer for the same reason as the insert trigger: it runs as the auth server's role.
create or replace function private.copy_email_to_profile()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = lower(new.email) where user_id = new.id;
  return null;
end;
$$;

revoke all on function private.copy_email_to_profile() from public, anon, authenticated;

-- Covers the insert too: the profile trigger inserted the row just before this one fires
-- (triggers on the same event run in name order: "on_auth_user_created…" < "on_auth_user_email…").
create trigger on_auth_user_email_copy_to_profile
  after insert or update of email on auth.users
  for each row execute function private.copy_email_to_profile();

-- Everyone the caller shares an organization with, the caller included. security definer for
-- the same reason as org_ids_of_current_user: it reads memberships beyond the caller's own.
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
  where mine.user_id = (select auth.uid());
$$;

revoke all on function private.user_ids_sharing_an_org_with_current_user() from public, anon;
grant execute on function private.user_ids_sharing_an_org_with_current_user() to authenticated, service_role;

drop policy "Users can read their own profile" on public.profiles;

create policy "Users can read their own profile and those of fellow members"
  on public.profiles
  for select
  to authenticated
  using (user_id in (select private.user_ids_sharing_an_org_with_current_user()));
