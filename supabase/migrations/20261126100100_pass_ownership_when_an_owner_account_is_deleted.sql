-- Deleting the account of an organization's last owner no longer fails. Before, the membership's
-- cascade hit the last-owner rule and the whole deletion failed: GoTrue's admin API (the dashboard,
-- `auth.admin.deleteUser`) can only answer such a database error with a 500 "Database error
-- deleting user", on hosted Supabase as locally, and the account could not be deleted at all.
--
-- Now, when the account itself is gone, ownership passes on instead: to the member with the
-- highest role (admin, then manager, inspector, viewer), the longest-standing first. The change
-- is an ordinary role update, so the audit log records it. An organization whose only member was
-- that owner is kept, with no members: an account deletion never destroys an organization's
-- records (docs/organizations.md). Every other way of losing the last owner — demoting, removing,
-- leaving — is still refused, as before.
create or replace function private.keep_an_owner()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  successor uuid;
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner') then
    return coalesce(new, old);
  end if;
  -- Lock the organization so two owners demoting each other at once cannot both succeed.
  perform 1 from public.organizations where id = old.org_id for update;
  if not found then
    -- The organization itself is being deleted and its memberships go with it.
    return old;
  end if;
  if exists (
    select 1 from public.memberships
    where org_id = old.org_id and role = 'owner' and id <> old.id
  ) then
    return coalesce(new, old);
  end if;
  -- The account is being deleted (this delete is its cascade): pass ownership on.
  if tg_op = 'DELETE' and not exists (select 1 from auth.users u where u.id = old.user_id) then
    select m.id into successor
    from public.memberships m
    where m.org_id = old.org_id and m.id <> old.id
      and exists (select 1 from auth.users u where u.id = m.user_id)
    order by case m.role when 'admin' then 1 when 'manager' then 2 when 'inspector' then 3 else 4 end,
             m.created_at, m.id
    limit 1
    for update;
    if successor is not null then
      update public.memberships set role = 'owner' where id = successor;
    end if;
    return old;
  end if;
  raise exception 'validation_failed'
    using detail = json_build_object(
      'field', case when tg_op = 'UPDATE' then 'role' else 'user_id' end,
      'message', 'An organization needs at least one owner. Make another member an owner first.'
    )::text;
end;
$$;

revoke all on function private.keep_an_owner() from public, anon, authenticated;
