-- "Require two-factor authentication": in an organization that requires it, members write only
-- from aal2 sessions (mfa_required otherwise) on organizations, memberships, invitations and
-- sites; reads, leaving and accepting an invitation still work at aal1; and switching the
-- requirement on needs aal2 itself.
begin;
select plan(37);

create temp table actors on commit drop as select * from tests.create_org_matrix('080');
alter table actors add column site_a uuid, add column invitee uuid, add column leaver uuid;
update public.organizations set require_mfa = true where id = (select org_a from actors);
with created as (insert into public.sites (org_id, name) select org_a, 'Guarded site' from actors returning id)
update actors set site_a = (select id from created);
update actors set invitee = tests.create_user('invitee-080@example.test'), leaver = tests.create_user('leaver-080@example.test');
select tests.add_member(org_a, leaver, 'viewer') from actors;
select tests.create_invitation(org_a, 'invitee-080@example.test', 'viewer', 'token-080', owner) from actors;
grant select on actors to anon, authenticated, service_role;

-- Reads at aal1.
select tests.act_as((select viewer from actors), 'aal1');
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'a viewer at aal1 still reads the organization');
select is((select count(*)::int from public.memberships), 6, 'a viewer at aal1 still reads the memberships');
select is((select count(*)::int from public.sites), 1, 'a viewer at aal1 still reads the sites');
select tests.act_as((select owner from actors), 'aal1');
select is((select count(*)::int from public.invitations), 1, 'the owner at aal1 still reads the invitations');
select isnt((select count(*)::int from public.audit_log), 0, 'the owner at aal1 still reads the audit log');

-- Writes at aal1 are refused, the same writes at aal2 succeed.
select throws_ok($$update public.organizations set name = 'At aal1' where id = (select org_a from actors)$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot rename the organization');
select throws_ok($$update public.organizations set require_mfa = false where id = (select org_a from actors)$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot switch the requirement off');
select throws_ok($$delete from public.organizations where id = (select org_a from actors)$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot delete the organization');
select throws_ok($$update public.memberships set role = 'inspector' where user_id = (select viewer from actors)$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot change a role');
select throws_ok($$delete from public.memberships where user_id = (select viewer from actors)$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot remove a member');
select throws_ok($$update public.invitations set revoked_at = now() where email = 'invitee-080@example.test'$$,
  'P0001', 'mfa_required', 'the owner at aal1 cannot revoke an invitation');
select tests.act_as((select admin from actors), 'aal1');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'new-080@example.test', 'viewer', tests.token_hash('t-080') from actors$$,
  'P0001', 'mfa_required', 'an admin at aal1 cannot invite');
select throws_ok($$update public.memberships set role = 'inspector' where user_id = (select viewer from actors)$$,
  'P0001', 'mfa_required', 'an admin at aal1 cannot change a role');
select tests.act_as((select manager from actors), 'aal1');
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'Added at aal1' from actors$$,
  'P0001', 'mfa_required', 'a manager at aal1 cannot add a site');
select throws_ok($$update public.sites set name = 'Renamed at aal1' where id = (select site_a from actors)$$,
  'P0001', 'mfa_required', 'a manager at aal1 cannot edit a site');
select throws_ok($$update public.sites set archived_at = now() where id = (select site_a from actors)$$,
  'P0001', 'mfa_required', 'a manager at aal1 cannot archive a site');

select tests.reset_role();
select results_eq(
  $$select (select name from public.organizations where id = (select org_a from actors)),
           (select require_mfa from public.organizations where id = (select org_a from actors)),
           (select role from public.memberships where user_id = (select viewer from actors)),
           (select revoked_at from public.invitations where email = 'invitee-080@example.test'),
           (select count(*)::int from public.invitations where org_id = (select org_a from actors)),
           (select count(*)::int from public.sites where org_id = (select org_a from actors)),
           (select name from public.sites where id = (select site_a from actors))$$,
  $$values ('Organization org-a-080', true, 'viewer'::public.org_role, null::timestamptz, 1, 1, 'Guarded site')$$,
  'the refused aal1 writes changed nothing'
);

select tests.act_as((select manager from actors), 'aal2');
select lives_ok($$insert into public.sites (org_id, name) select org_a, 'Added at aal2' from actors$$, 'a manager at aal2 adds a site');
with changed as (update public.sites set name = 'Renamed at aal2' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'a manager at aal2 edits a site (1 row)') from changed;
select tests.act_as((select admin from actors), 'aal2');
select lives_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'new-080@example.test', 'viewer', tests.token_hash('t-080') from actors$$,
  'an admin at aal2 invites');
with changed as (update public.memberships set role = 'inspector' where user_id = (select viewer from actors) returning 1)
select is(count(*)::int, 1, 'an admin at aal2 changes a role (1 row)') from changed;
select tests.act_as((select owner from actors), 'aal2');
with changed as (update public.organizations set name = 'At aal2' where id = (select org_a from actors) returning 1)
select is(count(*)::int, 1, 'the owner at aal2 renames the organization (1 row)') from changed;
with changed as (update public.invitations set revoked_at = now() where email = 'new-080@example.test' returning 1)
select is(count(*)::int, 1, 'the owner at aal2 revokes an invitation (1 row)') from changed;

-- Leaving and accepting an invitation need no second factor.
select tests.act_as((select leaver from actors), 'aal1');
with gone as (delete from public.memberships where user_id = auth.uid() returning 1)
select is(count(*)::int, 1, 'a member at aal1 leaves (1 row)') from gone;
select tests.act_as((select invitee from actors), 'aal1');
select is(private.accept_invitation('token-080'), (select org_a from actors), 'an invitee at aal1 accepts the invitation');
select is((select role from public.memberships where user_id = auth.uid()), 'viewer'::public.org_role,
  'and is a member of the organization requiring MFA');

-- Outsiders learn nothing from the requirement: they are refused as before.
select tests.act_as((select outsider from actors), 'aal1');
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By outsider' from actors$$,
  '42501', null, 'a non-member at aal1 is refused by row-level security, not told about MFA');

-- Organizations that do not require MFA take aal1 writes.
select tests.act_as((select b_owner from actors), 'aal1');
select lives_ok($$insert into public.sites (org_id, name) select org_b, 'B at aal1' from actors$$,
  'the owner of B, which does not require MFA, adds a site at aal1');
select lives_ok($$insert into public.organizations (slug, name) values ('plain-080', 'Plain')$$,
  'creating an organization without the requirement works at aal1');

-- Switching the requirement on needs aal2.
select throws_ok($$update public.organizations set require_mfa = true where id = (select org_b from actors)$$,
  'P0001', 'mfa_required', 'switching the requirement on at aal1 is refused');
select throws_ok($$insert into public.organizations (slug, name, require_mfa) values ('strict-080', 'Strict', true)$$,
  'P0001', 'mfa_required', 'creating an organization that requires MFA at aal1 is refused');
select tests.act_as((select b_owner from actors), 'aal2');
with changed as (update public.organizations set require_mfa = true where id = (select org_b from actors) returning 1)
select is(count(*)::int, 1, 'switching the requirement on at aal2 works (1 row)') from changed;
select lives_ok($$insert into public.organizations (slug, name, require_mfa) values ('strict-080', 'Strict', true)$$,
  'creating an organization that requires MFA at aal2 works');
select tests.act_as((select b_owner from actors), 'aal1');
select throws_ok($$update public.sites set name = 'B at aal1, renamed' where name = 'B at aal1'$$,
  'P0001', 'mfa_required', 'once B requires MFA, the owner of B at aal1 is refused too');
select tests.act_as((select b_owner from actors), 'aal2');
with changed as (update public.organizations set require_mfa = false where id = (select org_b from actors) returning 1)
select is(count(*)::int, 1, 'switching the requirement off at aal2 works (1 row)') from changed;

-- The superuser and the service role are not users: the requirement does not apply to them.
select tests.reset_role();
select lives_ok($$update public.sites set name = 'Renamed by the superuser' where id = (select site_a from actors)$$,
  'the superuser writes to an organization requiring MFA');
set local role service_role;
select lives_ok($$update public.sites set name = 'Renamed by the service role' where id = (select site_a from actors)$$,
  'the service role writes to an organization requiring MFA');
reset role;

select * from finish();
rollback;
