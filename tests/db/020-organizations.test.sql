-- Organizations: every actor of the matrix (anon, a signed-in non-member, each role of
-- organization A, the owner of organization B) against select, insert, update and delete; then,
-- as the superuser, proof that the refused calls changed nothing. Also the creator-becomes-owner
-- trigger, column privileges, the check constraints and the cascade on delete.
begin;
select plan(65);

create temp table actors on commit drop as select * from tests.create_org_matrix('020');
grant select on actors to anon, authenticated;

-- A site and an invitation in A, to see them go with it when it is deleted.
insert into public.sites (org_id, name) select org_a, 'Depot 020' from actors;
select tests.create_invitation((select org_a from actors), 'invitee-020@example.test', 'viewer', 'token-020');

-- Select.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.organizations$$, '42501', null, 'anon cannot read organizations');

select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.organizations), 0, 'a signed-in non-member sees no organization');

select tests.act_as((select b_owner from actors));
select results_eq($$select id from public.organizations$$, $$select org_b from actors$$,
  'the owner of B sees B only, not A');

select tests.act_as((select owner from actors));
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'the owner of A sees exactly A');
select tests.act_as((select admin from actors));
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'an admin of A sees exactly A');
select tests.act_as((select manager from actors));
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'a manager of A sees exactly A');
select tests.act_as((select inspector from actors));
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'an inspector of A sees exactly A');
select tests.act_as((select viewer from actors));
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'a viewer of A sees exactly A');

-- Insert: any signed-in user creates organizations in their own name.
select tests.act_as_anon();
select throws_ok($$insert into public.organizations (slug, name) values ('anon-020', 'Anon')$$,
  '42501', null, 'anon cannot create an organization');

select tests.act_as((select outsider from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-outsider-020', 'New', auth.uid())$$,
  'a signed-in non-member creates an organization');
select throws_ok($$insert into public.organizations (slug, name, created_by) values ('forged-020', 'Forged', (select owner from actors))$$,
  '42501', null, 'nobody creates an organization in another user''s name');
select throws_ok($$insert into public.organizations (slug, name, created_at) values ('dated-020', 'Dated', now() - interval '1 year')$$,
  '42501', null, 'created_at is not the caller''s to set');
select lives_ok($$insert into public.organizations (slug, name) values ('new-default-020', 'Default creator')$$,
  'created_by defaults to the caller');
select is((select count(*)::int from public.organizations), 2,
  'the creator reads their new organizations at once, through the owner membership');
select tests.act_as((select b_owner from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-b-owner-020', 'New', auth.uid())$$,
  'the owner of B creates another organization');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-owner-020', 'New', auth.uid())$$,
  'the owner of A creates another organization');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-admin-020', 'New', auth.uid())$$,
  'an admin of A creates an organization');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-manager-020', 'New', auth.uid())$$,
  'a manager of A creates an organization');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-inspector-020', 'New', auth.uid())$$,
  'an inspector of A creates an organization');
select tests.act_as((select viewer from actors));
select lives_ok($$insert into public.organizations (slug, name, created_by) values ('new-viewer-020', 'New', auth.uid())$$,
  'a viewer of A creates an organization');
select throws_ok($$insert into public.organizations (slug, name) values ('new-viewer-020', 'Taken')$$,
  '23505', null, 'a slug already in use is refused');

select tests.reset_role();
select results_eq(
  $$select o.slug, m.user_id, m.role from public.organizations o join public.memberships m on m.org_id = o.id
    where o.slug like 'new-%-020' order by o.slug$$,
  $$select * from (values
      ('new-admin-020', (select admin from actors), 'owner'::public.org_role),
      ('new-b-owner-020', (select b_owner from actors), 'owner'),
      ('new-default-020', (select outsider from actors), 'owner'),
      ('new-inspector-020', (select inspector from actors), 'owner'),
      ('new-manager-020', (select manager from actors), 'owner'),
      ('new-outsider-020', (select outsider from actors), 'owner'),
      ('new-owner-020', (select owner from actors), 'owner'),
      ('new-viewer-020', (select viewer from actors), 'owner')) v(slug, user_id, role)$$,
  'each new organization has exactly one member: its creator, as owner'
);
select is((select count(*)::int from public.organizations where slug in ('anon-020', 'forged-020', 'dated-020')), 0,
  'the refused inserts created no organization');

-- Update: owners and admins change the settings.
select tests.act_as_anon();
select throws_ok($$update public.organizations set name = 'By anon' where id = (select org_a from actors)$$,
  '42501', null, 'anon cannot rename an organization');

select tests.act_as((select outsider from actors));
with changed as (update public.organizations set name = 'By outsider' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a non-member renames nothing (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.organizations set name = 'By B' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B cannot rename A (0 rows)') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.organizations set name = 'By viewer' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a viewer cannot rename the organization (0 rows)') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.organizations set name = 'By inspector' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'an inspector cannot rename the organization (0 rows)') from changed;
select tests.act_as((select manager from actors));
with changed as (update public.organizations set name = 'By manager' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a manager cannot rename the organization (0 rows)') from changed;

select tests.reset_role();
select is((select name from public.organizations where id = (select org_a from actors)), 'Organization org-a-020',
  'the refused updates left A''s name as it was');

select tests.act_as((select admin from actors));
with changed as (update public.organizations set name = 'By admin', default_geofence_m = 300
                 where id = (select org_a from actors) returning 1)
select is(count(*)::int, 1, 'an admin changes the organization''s settings (1 row)') from changed;
select tests.act_as((select owner from actors));
with changed as (update public.organizations set name = 'By owner' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 1, 'the owner renames the organization (1 row)') from changed;
with changed as (update public.organizations set name = 'By A''s owner' where id = (select org_b from actors) returning 1)
select is(count(*)::int, 0, 'the owner of A cannot rename B (0 rows)') from changed;
with changed as (update public.organizations set name = 'Everything' returning 1)
select is(count(*)::int, 2, 'an unfiltered update reaches only the organizations the caller owns (A and their new one)') from changed;
select throws_ok($$update public.organizations set created_by = (select viewer from actors) where id = (select org_a from actors)$$,
  '42501', null, 'created_by cannot be changed');
select throws_ok($$update public.organizations set id = gen_random_uuid() where id = (select org_a from actors)$$,
  '42501', null, 'the id cannot be changed');
select throws_ok($$update public.organizations set created_at = now() where id = (select org_a from actors)$$,
  '42501', null, 'created_at cannot be changed');

-- The check constraints hold whoever writes.
select throws_ok($$update public.organizations set slug = 'ab' where id = (select org_a from actors)$$,
  '23514', null, 'a slug under 3 characters is refused');
select throws_ok($$update public.organizations set slug = 'Upper-case' where id = (select org_a from actors)$$,
  '23514', null, 'a slug with capitals is refused');
select throws_ok($$update public.organizations set slug = 'double--hyphen' where id = (select org_a from actors)$$,
  '23514', null, 'a slug with a double hyphen is refused');
select throws_ok($$update public.organizations set slug = '-leading' where id = (select org_a from actors)$$,
  '23514', null, 'a slug starting with a hyphen is refused');
select throws_ok($$update public.organizations set slug = repeat('a', 41) where id = (select org_a from actors)$$,
  '23514', null, 'a slug over 40 characters is refused');
select lives_ok($$update public.organizations set slug = 'a1-b2-' || repeat('c', 34) where id = (select org_a from actors)$$,
  'a 40-character slug with single hyphens is accepted');
select throws_ok($$update public.organizations set slug = 'org-b-020' where id = (select org_a from actors)$$,
  '23505', null, 'another organization''s slug is refused');
select throws_ok($$update public.organizations set name = '' where id = (select org_a from actors)$$,
  '23514', null, 'an empty name is refused');
select throws_ok($$update public.organizations set name = 'Padded ' where id = (select org_a from actors)$$,
  '23514', null, 'a name with trailing whitespace is refused');
select throws_ok($$update public.organizations set default_geofence_m = 9 where id = (select org_a from actors)$$,
  '23514', null, 'a default geofence under 10 m is refused');
select throws_ok($$update public.organizations set default_geofence_m = 5001 where id = (select org_a from actors)$$,
  '23514', null, 'a default geofence over 5000 m is refused');

select tests.reset_role();
select is((select name from public.organizations where id = (select org_b from actors)), 'Organization org-b-020',
  'B is untouched by A''s owner');
select is((select default_geofence_m from public.organizations where id = (select org_a from actors)), 300,
  'the admin''s change to the default geofence was stored');

-- Delete: owners only.
select tests.act_as_anon();
select throws_ok($$delete from public.organizations where id = (select org_a from actors)$$,
  '42501', null, 'anon cannot delete an organization');
select tests.act_as((select outsider from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a non-member deletes nothing (0 rows)') from gone;
select tests.act_as((select b_owner from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B cannot delete A (0 rows)') from gone;
select tests.act_as((select viewer from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a viewer cannot delete the organization (0 rows)') from gone;
select tests.act_as((select inspector from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'an inspector cannot delete the organization (0 rows)') from gone;
select tests.act_as((select manager from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'a manager cannot delete the organization (0 rows)') from gone;
select tests.act_as((select admin from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 0, 'an admin cannot delete the organization (0 rows)') from gone;

select tests.reset_role();
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 5,
  'after the refused deletes A still exists with its five members');

select tests.act_as((select owner from actors));
with gone as (delete from public.organizations where id = (select org_a from actors) returning 1)
select is(count(*)::int, 1, 'the owner deletes the organization (1 row)') from gone;

select tests.reset_role();
select is((select count(*)::int from public.organizations where id = (select org_a from actors)), 0,
  'the deleted organization is gone');
select is((select count(*)::int from public.memberships where org_id = (select org_a from actors)), 0,
  'deleting an organization deletes its memberships, the last owner''s included');
select is((select count(*)::int from public.sites where org_id = (select org_a from actors)), 0,
  'deleting an organization deletes its sites');
select is((select count(*)::int from public.invitations where org_id = (select org_a from actors)), 0,
  'deleting an organization deletes its invitations');
select is((select count(*)::int from public.memberships where org_id = (select org_b from actors)), 1,
  'B and its membership are untouched');

select policies_are(
  'public', 'organizations',
  array['Members can read their organizations', 'Signed-in users can create organizations they own',
        'Owners and admins can change their organization''s settings', 'Owners can delete their organization'],
  'organizations has exactly the four policies'
);

select * from finish();
rollback;
