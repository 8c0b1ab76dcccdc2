-- A deleted user's access token stays valid until it expires (up to an hour). Creating an
-- organization with it failed on the created_by foreign key, a 500; it is the caller who is gone,
-- so it is a 401 that says so, and nothing is written. (Every other write by such a token finds
-- no membership — they were deleted with the user — and is refused as for any non-member.)
create or replace function private.refuse_organization_from_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.created_by is not null and not exists (select 1 from auth.users u where u.id = new.created_by) then
    raise exception 'unauthenticated'
      using detail = json_build_object('detail', 'This account no longer exists. Sign in with another account.')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.refuse_organization_from_deleted_user() from public, anon, authenticated;

create trigger organizations_refuse_deleted_creator
  before insert on public.organizations
  for each row execute function private.refuse_organization_from_deleted_user();
