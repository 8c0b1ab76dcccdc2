-- Invitations: every actor of the matrix against select, insert, update (revoke) and delete;
-- then, as the superuser, proof that the refused calls changed nothing. Owners and admins
-- manage invitations, admins not owner ones; the token hash is never readable; the state
-- machine refuses anything but revoking a pending or expired invitation; a member's address
-- is a duplicate; an expired invitation gives way to a new one for the same address.
begin;
select plan(62);

create temp table actors on commit drop as select * from tests.create_org_matrix('040');
alter table actors add column viewer_invitation uuid, add column owner_invitation uuid, add column b_invitation uuid;
update actors set
  viewer_invitation = tests.create_invitation(org_a, 'invited-viewer-040@example.test', 'viewer', 'token-viewer-040', owner),
  owner_invitation = tests.create_invitation(org_a, 'invited-owner-040@example.test', 'owner', 'token-owner-040', owner),
  b_invitation = tests.create_invitation(org_b, 'invited-b-040@example.test', 'viewer', 'token-b-040', b_owner);
grant select on actors to anon, authenticated;

-- Select: owners and admins only, and never the token hash.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.invitations$$, '42501', null, 'anon cannot read invitations');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.invitations), 0, 'a signed-in non-member sees no invitation');
select tests.act_as((select b_owner from actors));
select results_eq($$select id from public.invitations$$, $$select b_invitation from actors$$,
  'the owner of B sees B''s invitation only, none of A''s');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.invitations), 0, 'a viewer sees no invitation');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.invitations), 0, 'an inspector sees no invitation');
select tests.act_as((select manager from actors));
select is((select count(*)::int from public.invitations), 0, 'a manager sees no invitation');
select tests.act_as((select admin from actors));
select is((select count(*)::int from public.invitations), 2, 'an admin sees both of A''s invitations, the owner one included');
select throws_ok($$select token_hash from public.invitations$$, '42501', null, 'an admin cannot read token hashes');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.invitations), 2, 'the owner sees both of A''s invitations');
select throws_ok($$select token_hash from public.invitations$$, '42501', null, 'the owner cannot read token hashes');
select throws_ok($$select * from public.invitations$$, '42501', null, 'select * is refused because it includes the token hash');

-- Insert: owners invite with any role, admins with any role but owner.
select tests.act_as_anon();
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'anon-040@example.test', 'viewer', tests.token_hash('t-anon-040') from actors$$,
  '42501', null, 'anon cannot invite');
select tests.act_as((select outsider from actors));
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-outsider-040@example.test', 'viewer', tests.token_hash('t-outsider-040') from actors$$,
  '42501', null, 'a non-member cannot invite to A');
select tests.act_as((select b_owner from actors));
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-b-owner-040@example.test', 'viewer', tests.token_hash('t-b-owner-040') from actors$$,
  '42501', null, 'the owner of B cannot invite to A');
select tests.act_as((select viewer from actors));
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-viewer-040@example.test', 'viewer', tests.token_hash('t-viewer-040') from actors$$,
  '42501', null, 'a viewer cannot invite');
select tests.act_as((select inspector from actors));
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-inspector-040@example.test', 'viewer', tests.token_hash('t-inspector-040') from actors$$,
  '42501', null, 'an inspector cannot invite');
select tests.act_as((select manager from actors));
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-manager-040@example.test', 'viewer', tests.token_hash('t-manager-040') from actors$$,
  '42501', null, 'a manager cannot invite');

select tests.act_as((select admin from actors));
select lives_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'by-admin-040@example.test', 'admin', tests.token_hash('t-admin-040') from actors$$,
  'an admin invites an admin');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'owner-by-admin-040@example.test', 'owner', tests.token_hash('t-admin-owner-040') from actors$$,
  '42501', null, 'an admin cannot invite an owner');
select tests.act_as((select owner from actors));
select lives_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'owner-by-owner-040@example.test', 'owner', tests.token_hash('t-owner-040') from actors$$,
  'the owner invites an owner');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash, invited_by) select org_a, 'forged-040@example.test', 'viewer', tests.token_hash('t-forged-040'), admin from actors$$,
  '42501', null, 'an invitation cannot be credited to another inviter');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash, expires_at) select org_a, 'forever-040@example.test', 'viewer', tests.token_hash('t-forever-040'), now() + interval '10 years' from actors$$,
  '42501', null, 'the expiry is not the caller''s to choose');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'Mixed-Case-040@example.test', 'viewer', tests.token_hash('t-case-040') from actors$$,
  '23514', null, 'an address that is not lowercase is refused');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'plain-040@example.test', 'viewer', 'not-a-hash' from actors$$,
  '23514', null, 'a token hash that is not hex SHA-256 is refused');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'viewer-040@example.test', 'admin', tests.token_hash('t-member-040') from actors$$,
  'P0001', 'duplicate', 'inviting the address of a member is a duplicate');
select throws_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'invited-viewer-040@example.test', 'viewer', tests.token_hash('t-again-040') from actors$$,
  '23505', null, 'an address with a pending invitation cannot be invited again');

select tests.reset_role();
select results_eq(
  $$select email, role, invited_by, expires_at from public.invitations
    where org_id = (select org_a from actors) and email in ('by-admin-040@example.test', 'owner-by-owner-040@example.test') order by email$$,
  $$select * from (values ('by-admin-040@example.test', 'admin'::public.org_role, (select admin from actors), now() + interval '7 days'),
                          ('owner-by-owner-040@example.test', 'owner', (select owner from actors), now() + interval '7 days')) v
    order by 1$$,
  'the allowed invitations are stored with their inviter and a 7-day expiry'
);
select is((select count(*)::int from public.invitations where org_id = (select org_a from actors)), 4,
  'the refused invitations were not stored (A has its two plus the two allowed)');

-- Update: revoking is the one change, by owners and admins (admins not owner invitations).
select tests.act_as_anon();
select throws_ok($$update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors)$$,
  '42501', null, 'anon cannot revoke an invitation');
select tests.act_as((select outsider from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 0, 'a non-member revokes nothing (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B revokes nothing in A (0 rows)') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 0, 'a viewer revokes nothing (0 rows)') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 0, 'an inspector revokes nothing (0 rows)') from changed;
select tests.act_as((select manager from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 0, 'a manager revokes nothing (0 rows)') from changed;
select tests.act_as((select admin from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select owner_invitation from actors) returning 1)
select is(count(*)::int, 0, 'an admin cannot revoke an owner invitation (0 rows)') from changed;

select tests.reset_role();
select is((select count(*)::int from public.invitations where org_id = (select org_a from actors) and revoked_at is not null), 0,
  'the refused revocations revoked nothing');

select tests.act_as((select admin from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select viewer_invitation from actors) returning 1)
select is(count(*)::int, 1, 'an admin revokes a viewer invitation (1 row)') from changed;
select throws_ok($$update public.invitations set revoked_at = null where id = (select viewer_invitation from actors)$$,
  'P0001', 'invalid_transition', 'a revoked invitation cannot be restored');
select throws_ok($$update public.invitations set revoked_at = now() - interval '1 day' where id = (select viewer_invitation from actors)$$,
  'P0001', 'invalid_transition', 'a revoked invitation cannot be revoked again');
select tests.act_as((select owner from actors));
with changed as (update public.invitations set revoked_at = now() where id = (select owner_invitation from actors) returning 1)
select is(count(*)::int, 1, 'the owner revokes an owner invitation (1 row)') from changed;
with changed as (update public.invitations set revoked_at = now() where id = (select b_invitation from actors) returning 1)
select is(count(*)::int, 0, 'the owner of A revokes nothing in B (0 rows)') from changed;
select throws_ok($$update public.invitations set role = 'owner' where email = 'by-admin-040@example.test'$$,
  '42501', null, 'an invitation''s role cannot be changed');
select throws_ok($$update public.invitations set email = 'other-040@example.test' where email = 'by-admin-040@example.test'$$,
  '42501', null, 'an invitation''s address cannot be changed');
select throws_ok($$update public.invitations set expires_at = now() + interval '1 year' where email = 'by-admin-040@example.test'$$,
  '42501', null, 'an invitation''s expiry cannot be extended');
select throws_ok($$update public.invitations set accepted_at = now() where email = 'by-admin-040@example.test'$$,
  '42501', null, 'an invitation cannot be marked accepted by an update');

-- Revoking an accepted invitation is an invalid transition; an expired one may be revoked.
select tests.reset_role();
select tests.create_user('accepter-040@example.test');
select tests.create_invitation((select org_a from actors), 'accepter-040@example.test', 'viewer', 'token-accepter-040', (select owner from actors));
select tests.create_invitation((select org_a from actors), 'late-040@example.test', 'viewer', 'token-late-040', (select owner from actors),
                               now() - interval '1 minute');
select tests.act_as((select id from auth.users where email = 'accepter-040@example.test'));
select private.accept_invitation('token-accepter-040');
select tests.act_as((select owner from actors));
select throws_ok($$update public.invitations set revoked_at = now() where email = 'accepter-040@example.test'$$,
  'P0001', 'invalid_transition', 'an accepted invitation cannot be revoked');
with changed as (update public.invitations set revoked_at = now() where email = 'late-040@example.test' returning 1)
select is(count(*)::int, 1, 'an expired invitation can be revoked (1 row)') from changed;

-- Delete: nobody; revoking keeps the record.
select tests.act_as_anon();
select throws_ok($$delete from public.invitations$$, '42501', null, 'anon cannot delete invitations');
select tests.act_as((select outsider from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'a non-member cannot delete invitations');
select tests.act_as((select b_owner from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'the owner of B cannot delete invitations');
select tests.act_as((select viewer from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'a viewer cannot delete invitations');
select tests.act_as((select inspector from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'an inspector cannot delete invitations');
select tests.act_as((select manager from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'a manager cannot delete invitations');
select tests.act_as((select admin from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'an admin cannot delete invitations');
select tests.act_as((select owner from actors));
select throws_ok($$delete from public.invitations$$, '42501', null, 'the owner cannot delete invitations');
select tests.reset_role();
select is((select count(*)::int from public.invitations where org_id = (select org_a from actors)), 6,
  'the refused deletes removed no invitation of A');

-- An expired open invitation gives way to a new one for the same address.
select tests.create_invitation((select org_a from actors), 'expired-040@example.test', 'viewer', 'token-expired-040', (select owner from actors),
                               now() - interval '1 minute');
select tests.create_invitation((select org_a from actors), 'expired-owner-040@example.test', 'owner', 'token-expired-owner-040', (select owner from actors),
                               now() - interval '1 minute');
select tests.act_as((select owner from actors));
select lives_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'expired-040@example.test', 'manager', tests.token_hash('t-renewed-040') from actors$$,
  'the owner invites an address whose open invitation has expired');
select tests.act_as((select admin from actors));
select lives_ok(
  $$insert into public.invitations (org_id, email, role, token_hash) select org_a, 'expired-owner-040@example.test', 'viewer', tests.token_hash('t-renewed-owner-040') from actors$$,
  'an admin invites an address whose expired open invitation was for an owner');

select tests.reset_role();
select results_eq(
  $$select role, revoked_at is not null from public.invitations where email = 'expired-040@example.test' order by created_at, role$$,
  $$values ('manager'::public.org_role, false), ('viewer'::public.org_role, true)$$,
  'the expired invitation was revoked and the new one is open'
);
select results_eq(
  $$select role from public.invitations where email = 'expired-owner-040@example.test' and revoked_at is null$$,
  $$values ('viewer'::public.org_role)$$,
  'the only open invitation for that address is the admin''s new one'
);
select is((select count(*)::int from public.invitations where org_id = (select org_b from actors) and revoked_at is null), 1,
  'B''s invitation is still open');

select policies_are(
  'public', 'invitations',
  array['Owners and admins can read their organization''s invitations', 'Owners and admins can invite, admins not as owner',
        'Owners and admins can revoke invitations, admins not owner ones'],
  'invitations has exactly the select, insert and update policies'
);

select * from finish();
rollback;
