-- Deleting the account of an organization's last owner (GoTrue's admin delete, the dashboard)
-- passes ownership to the highest-ranking, longest-standing member; an organization left with
-- nobody is kept, not deleted. Other owners are not disturbed.
begin;
select plan(9);

create temp table actors on commit drop as
  select tests.create_user('owner-a-036@example.test') as owner_a,
         tests.create_user('first-admin-036@example.test') as first_admin,
         tests.create_user('second-admin-036@example.test') as second_admin,
         tests.create_user('manager-a-036@example.test') as manager_a,
         tests.create_user('owner-b-036@example.test') as owner_b,
         tests.create_user('viewer-b-036@example.test') as viewer_b,
         tests.create_user('manager-b-036@example.test') as manager_b,
         tests.create_user('owner-c-036@example.test') as owner_c,
         tests.create_user('owner-d-036@example.test') as owner_d,
         tests.create_user('co-owner-d-036@example.test') as co_owner_d,
         tests.create_user('inspector-d-036@example.test') as inspector_d;
alter table actors add column org_a uuid, add column org_b uuid, add column org_c uuid, add column org_d uuid;
update actors set org_a = tests.create_org('owner-deletion-a-036', owner_a),
                  org_b = tests.create_org('owner-deletion-b-036', owner_b),
                  org_c = tests.create_org('owner-deletion-c-036', owner_c),
                  org_d = tests.create_org('owner-deletion-d-036', owner_d);
-- Joined in this order: the manager first, so rank beats seniority; then the two admins.
select tests.add_member(org_a, manager_a, 'manager') from actors;
select tests.add_member(org_a, first_admin, 'admin') from actors;
select tests.add_member(org_a, second_admin, 'admin') from actors;
update public.memberships set created_at = now() + interval '1 minute' where user_id = (select second_admin from actors);
select tests.add_member(org_b, viewer_b, 'viewer') from actors;
select tests.add_member(org_b, manager_b, 'manager') from actors;
select tests.add_member(org_d, co_owner_d, 'owner') from actors;
select tests.add_member(org_d, inspector_d, 'inspector') from actors;

select lives_ok($$delete from auth.users where id = (select owner_a from actors)$$,
  'the account of an organization''s last owner can be deleted');
select is((select role from public.memberships where user_id = (select first_admin from actors)), 'owner'::public.org_role,
  'ownership passes to the longest-standing admin');
select results_eq(
  $$select role::text from public.memberships where org_id = (select org_a from actors) order by 1$$,
  $$values ('admin'), ('manager'), ('owner')$$,
  '... and to nobody else: one owner, the other admin and the manager keep their roles');

delete from auth.users where id = (select owner_b from actors);
select is((select role from public.memberships where user_id = (select manager_b from actors)), 'owner'::public.org_role,
  'without an admin, a manager is next, before a viewer');
select is((select role from public.memberships where user_id = (select viewer_b from actors)), 'viewer'::public.org_role,
  '... and the viewer stays a viewer');

delete from auth.users where id = (select owner_c from actors);
select is((select count(*)::int from public.organizations where id = (select org_c from actors)), 1,
  'an organization whose only member was the deleted owner is kept, with its records');
select is((select count(*)::int from public.memberships where org_id = (select org_c from actors)), 0,
  '... and has no members');

delete from auth.users where id = (select owner_d from actors);
select results_eq(
  $$select m.user_id, m.role::text from public.memberships m where m.org_id = (select org_d from actors) order by m.role::text desc$$,
  $$select co_owner_d, 'owner' from actors union all select inspector_d, 'inspector' from actors$$,
  'with another owner left, nobody is promoted');

-- Demoting or removing the last owner is still refused (035-last-owner has the rest).
select throws_ok($$delete from public.memberships where user_id = (select first_admin from actors)$$,
  'P0001', 'validation_failed', 'the new owner, now the last one, cannot be removed');

select * from finish();
rollback;
