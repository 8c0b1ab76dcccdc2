-- Memberships: every actor of the matrix against select, insert, update (role) and delete;
-- then, as the superuser, proof that the refused calls changed nothing. Nobody inserts
-- memberships directly; owners change any role, admins all but owners'; owners remove anyone,
-- admins non-owners, and every member may leave.
begin;
select plan(57);

create temp table actors on commit drop as select * from tests.create_org_matrix('030');
-- Extra members of A for the updates and removals to act on.
alter table actors add column target uuid, add column victim uuid, add column second_victim uuid;
update actors set target = tests.create_user('target-030@example.test'),
                  victim = tests.create_user('victim-030@example.test'),
                  second_victim = tests.create_user('second-victim-030@example.test');
select tests.add_member(org_a, target, 'inspector') from actors;
select tests.add_member(org_a, victim, 'viewer') from actors;
select tests.add_member(org_a, second_victim, 'viewer') from actors;
grant select on actors to anon, authenticated;

-- Select: members read every membership of their organization, nobody else's.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.memberships$$, '42501', null, 'anon cannot read memberships');

select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.memberships), 0, 'a signed-in non-member sees no membership');
select tests.act_as((select b_owner from actors));
select results_eq($$select org_id, user_id from public.memberships$$, $$select org_b, b_owner from actors$$,
  'the owner of B sees only their own membership of B, none of A');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'the owner of A sees all eight memberships of A');
select tests.act_as((select admin from actors));
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'an admin of A sees all eight memberships of A');
select tests.act_as((select manager from actors));
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'a manager of A sees all eight memberships of A');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'an inspector of A sees all eight memberships of A');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.memberships), 8,
  'a viewer of A sees the eight memberships of A and nothing else');

-- Insert: refused to every API role; members join by creating an organization or accepting an invitation.
select tests.act_as_anon();
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'anon cannot insert a membership');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'owner' from actors$$,
  '42501', null, 'a non-member cannot make themselves owner of A');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, b_owner, 'viewer' from actors$$,
  '42501', null, 'the owner of B cannot join A');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'a viewer cannot add a member');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'an inspector cannot add a member');
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'a manager cannot add a member');
select tests.act_as((select admin from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'an admin cannot add a member directly');
select tests.act_as((select owner from actors));
select throws_ok($$insert into public.memberships (org_id, user_id, role) select org_a, outsider, 'viewer' from actors$$,
  '42501', null, 'the owner cannot add a member directly');

select tests.reset_role();
select is((select count(*)::int from public.memberships where user_id = (select outsider from actors)), 0,
  'the refused inserts made the non-member a member of nothing');
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'A still has eight memberships');

-- Update: the role column only, by owners (any row) and admins (not owners' rows, not to owner).
select tests.act_as_anon();
select throws_ok($$update public.memberships set role = 'admin' where user_id = (select target from actors)$$,
  '42501', null, 'anon cannot change a role');
select tests.act_as((select outsider from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 0, 'a non-member changes no role (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B changes no role in A (0 rows)') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 0, 'a viewer changes no role (0 rows)') from changed;
with changed as (update public.memberships set role = 'owner' where user_id = auth.uid() returning 1)
select is(count(*)::int, 0, 'a viewer cannot promote themselves (0 rows)') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 0, 'an inspector changes no role (0 rows)') from changed;
select tests.act_as((select manager from actors));
with changed as (update public.memberships set role = 'admin' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 0, 'a manager changes no role (0 rows)') from changed;
with changed as (update public.memberships set role = 'admin' where user_id = auth.uid() returning 1)
select is(count(*)::int, 0, 'a manager cannot promote themselves (0 rows)') from changed;

select tests.reset_role();
select results_eq(
  $$select user_id, role from public.memberships where org_id = (select org_a from actors) order by role, user_id$$,
  $$select * from (values ((select owner from actors), 'owner'::public.org_role), ((select admin from actors), 'admin'),
                          ((select manager from actors), 'manager'), ((select inspector from actors), 'inspector'),
                          ((select target from actors), 'inspector'), ((select viewer from actors), 'viewer'),
                          ((select victim from actors), 'viewer'), ((select second_victim from actors), 'viewer')) v(user_id, role)
    order by role, user_id$$,
  'the refused role changes left every role of A as it was'
);

select tests.act_as((select admin from actors));
with changed as (update public.memberships set role = 'manager' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 1, 'an admin changes a non-owner''s role (1 row)') from changed;
with changed as (update public.memberships set role = 'admin' where user_id = (select owner from actors) returning 1)
select is(count(*)::int, 0, 'an admin cannot demote the owner (0 rows)') from changed;
select throws_ok($$update public.memberships set role = 'owner' where user_id = (select target from actors)$$,
  '42501', null, 'an admin cannot make a member owner');
select throws_ok($$update public.memberships set role = 'owner' where user_id = auth.uid()$$,
  '42501', null, 'an admin cannot make themselves owner');
with changed as (update public.memberships set role = 'viewer' where org_id = (select org_b from actors) returning 1)
select is(count(*)::int, 0, 'an admin of A changes no role in B (0 rows)') from changed;

select tests.act_as((select owner from actors));
with changed as (update public.memberships set role = 'owner' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 1, 'the owner makes a member owner (1 row)') from changed;
with changed as (update public.memberships set role = 'viewer' where user_id = (select target from actors) returning 1)
select is(count(*)::int, 1, 'the owner demotes another owner (1 row)') from changed;
with changed as (update public.memberships set role = 'viewer' where org_id = (select org_b from actors) returning 1)
select is(count(*)::int, 0, 'the owner of A changes no role in B (0 rows)') from changed;
select throws_ok($$update public.memberships set user_id = (select outsider from actors) where user_id = (select target from actors)$$,
  '42501', null, 'a membership cannot be handed to another user');
select throws_ok($$update public.memberships set org_id = (select org_b from actors) where user_id = (select target from actors)$$,
  '42501', null, 'a membership cannot be moved to another organization');

select tests.reset_role();
select is((select role from public.memberships where user_id = (select target from actors)), 'viewer'::public.org_role,
  'the allowed role changes were stored');
select is((select role from public.memberships where user_id = (select owner from actors)), 'owner'::public.org_role,
  'the owner is still owner after the admin''s attempt');
select is((select role from public.memberships where user_id = (select b_owner from actors)), 'owner'::public.org_role,
  'B''s owner is untouched');

-- Delete: owners remove anyone, admins non-owners, and every member may leave.
select tests.act_as_anon();
select throws_ok($$delete from public.memberships where user_id = (select victim from actors)$$,
  '42501', null, 'anon cannot remove a member');
select tests.act_as((select outsider from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 0, 'a non-member removes nobody (0 rows)') from gone;
select tests.act_as((select b_owner from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B removes nobody from A (0 rows)') from gone;
select tests.act_as((select viewer from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 0, 'a viewer removes nobody (0 rows)') from gone;
select tests.act_as((select inspector from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 0, 'an inspector removes nobody (0 rows)') from gone;
select tests.act_as((select manager from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 0, 'a manager removes nobody (0 rows)') from gone;
select tests.act_as((select admin from actors));
with gone as (delete from public.memberships where user_id = (select owner from actors) returning 1)
select is(count(*)::int, 0, 'an admin cannot remove the owner (0 rows)') from gone;

select tests.reset_role();
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 8,
  'the refused removals left A''s eight memberships');

select tests.act_as((select admin from actors));
with gone as (delete from public.memberships where user_id = (select victim from actors) returning 1)
select is(count(*)::int, 1, 'an admin removes a non-owner (1 row)') from gone;
select tests.act_as((select owner from actors));
with gone as (delete from public.memberships where user_id = (select second_victim from actors) returning 1)
select is(count(*)::int, 1, 'the owner removes a member (1 row)') from gone;

-- Leaving: each member deletes their own row, and only it.
select tests.act_as((select viewer from actors));
with gone as (delete from public.memberships where user_id = auth.uid() returning 1)
select is(count(*)::int, 1, 'a viewer leaves (1 row)') from gone;
select tests.act_as((select inspector from actors));
with gone as (delete from public.memberships returning 1)
select is(count(*)::int, 1, 'an inspector''s unfiltered delete removes only their own membership') from gone;
select tests.act_as((select manager from actors));
with gone as (delete from public.memberships where user_id = auth.uid() returning 1)
select is(count(*)::int, 1, 'a manager leaves (1 row)') from gone;
select tests.act_as((select admin from actors));
with gone as (delete from public.memberships where user_id = auth.uid() returning 1)
select is(count(*)::int, 1, 'an admin leaves (1 row)') from gone;
select is((select count(*)::int from public.memberships), 0, 'after leaving, the admin sees no membership of A');

select tests.reset_role();
select results_eq(
  $$select user_id, role from public.memberships where org_id = (select org_a from actors) order by user_id$$,
  $$select * from (values ((select owner from actors), 'owner'::public.org_role), ((select target from actors), 'viewer')) v(user_id, role)
    order by user_id$$,
  'A keeps exactly its owner and the member nobody removed'
);

select policies_are(
  'public', 'memberships',
  array['Members can read the memberships of their organizations',
        'Owners and admins can change roles, admins not of or to owner',
        'Owners and admins can remove members, and members can leave'],
  'memberships has exactly the select, update and delete policies'
);

select * from finish();
rollback;
