-- Last-owner protection: an organization always keeps an owner. Its last owner can neither be
-- demoted, be removed nor leave (validation_failed), whoever asks; with two owners one may go;
-- and deleting the organization takes every membership with it.
begin;
select plan(21);

create temp table actors on commit drop as
  select tests.create_user('first-owner-035@example.test') as first_owner,
         tests.create_user('second-owner-035@example.test') as second_owner,
         tests.create_user('third-owner-035@example.test') as third_owner,
         tests.create_user('admin-035@example.test') as admin;
alter table actors add column org uuid;
update actors set org = tests.create_org('last-owner-035', first_owner);
select tests.add_member(org, second_owner, 'admin') from actors;
select tests.add_member(org, third_owner, 'admin') from actors;
select tests.add_member(org, admin, 'admin') from actors;
grant select on actors to anon, authenticated;

-- The error's detail names the field, for the api's per-field message.
create function pg_temp.error_detail(statement text)
returns jsonb
language plpgsql
as $$
declare
  detail text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics detail = pg_exception_detail;
  return detail::jsonb;
end;
$$;

-- A single owner.
select tests.act_as((select first_owner from actors));
select throws_ok($$update public.memberships set role = 'admin' where user_id = auth.uid()$$,
  'P0001', 'validation_failed', 'the last owner cannot demote themselves');
select is(pg_temp.error_detail($$update public.memberships set role = 'admin' where user_id = auth.uid()$$) ->> 'field', 'role',
  'demoting the last owner points at the role field');
select throws_ok($$delete from public.memberships where user_id = auth.uid()$$,
  'P0001', 'validation_failed', 'the last owner cannot leave');
select is(pg_temp.error_detail($$delete from public.memberships where user_id = auth.uid()$$) ->> 'field', 'user_id',
  'removing the last owner points at the user_id field');

select tests.act_as((select admin from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select first_owner from actors) returning 1)
select is(count(*)::int, 0, 'an admin cannot demote the last owner (0 rows)') from changed;

select tests.reset_role();
select throws_ok($$update public.memberships set role = 'viewer' where user_id = (select first_owner from actors)$$,
  'P0001', 'validation_failed', 'even the superuser cannot demote the last owner');
select throws_ok($$delete from public.memberships where user_id = (select first_owner from actors)$$,
  'P0001', 'validation_failed', 'even the superuser cannot remove the last owner');
-- (Deleting the last owner's account passes ownership on: 036-owner-account-deletion.)
select is((select role from public.memberships where user_id = (select first_owner from actors)), 'owner'::public.org_role,
  'after the refused attempts the last owner is still owner');

-- Two owners: either may go, not both.
select tests.act_as((select first_owner from actors));
with changed as (update public.memberships set role = 'owner' where user_id = (select second_owner from actors) returning 1)
select is(count(*)::int, 1, 'the owner makes a second owner (1 row)') from changed;
with gone as (delete from public.memberships where user_id = auth.uid() returning 1)
select is(count(*)::int, 1, 'with a second owner, the first owner may leave (1 row)') from gone;

select tests.act_as((select second_owner from actors));
select throws_ok($$delete from public.memberships where user_id = auth.uid()$$,
  'P0001', 'validation_failed', 'the remaining owner is the last one and cannot leave');
select throws_ok($$update public.memberships set role = 'admin' where user_id = auth.uid()$$,
  'P0001', 'validation_failed', 'the remaining owner cannot demote themselves');

with changed as (update public.memberships set role = 'owner' where user_id = (select third_owner from actors) returning 1)
select is(count(*)::int, 1, 'the owner makes a third member owner (1 row)') from changed;
select throws_ok(
  $$update public.memberships set role = 'admin' where org_id = (select org from actors) and role = 'owner'$$,
  'P0001', 'validation_failed', 'demoting both owners in one statement is refused'
);
select tests.reset_role();
select throws_ok(
  $$delete from public.memberships where org_id = (select org from actors) and role = 'owner'$$,
  'P0001', 'validation_failed', 'removing both owners in one statement is refused, even to the superuser'
);
select is((select count(*)::int from public.memberships where org_id = (select org from actors) and role = 'owner'), 2,
  'both owners are still owners after the refused statements');

select tests.act_as((select third_owner from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select second_owner from actors) returning 1)
select is(count(*)::int, 1, 'an owner demotes the other owner (1 row)') from changed;
select throws_ok($$update public.memberships set role = 'admin' where user_id = auth.uid()$$,
  'P0001', 'validation_failed', 'and is then the last owner, who cannot be demoted');

-- Deleting the organization is how the last owner ends it.
with gone as (delete from public.organizations where id = (select org from actors) returning 1)
select is(count(*)::int, 1, 'the last owner deletes the organization (1 row)') from gone;

select tests.reset_role();
select is((select count(*)::int from public.memberships where org_id = (select org from actors)), 0,
  'deleting the organization removed every membership, the last owner''s included');
select lives_ok($$delete from auth.users where id = (select first_owner from actors)$$,
  'an account that owns no organization can be deleted');

select * from finish();
rollback;
