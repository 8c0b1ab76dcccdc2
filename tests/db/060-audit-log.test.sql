-- The audit log: every member reads their organization's entries (but invitations', which only
-- owners and admins read: tests/db/150-audit-log-reading), nobody writes, changes or
-- removes one (not even the superuser changes or removes), and the triggers write one row per
-- changed row of organizations, memberships, invitations (without the token hash) and sites,
-- credited to the acting user.
begin;
select plan(61);

create temp table actors on commit drop as select * from tests.create_org_matrix('060');
grant select on actors to anon, authenticated, service_role;

-- The fixture's rows, written as the superuser.
create temp table fixture_entries on commit drop as
  select (select count(*)::int from public.audit_log where org_id = (select org_a from actors)) as a,
         (select count(*)::int from public.audit_log where org_id = (select org_b from actors)) as b;
grant select on fixture_entries to anon, authenticated;

select is((select a from fixture_entries), 6, 'creating A and adding four members wrote six entries');
select results_eq(
  $$select distinct actor_kind, actor_user_id, action from public.audit_log where org_id = (select org_a from actors)$$,
  $$values ('system', null::uuid, 'insert')$$,
  'writes without a user''s claims are credited to the system'
);

-- Select: every member of the organization reads the entries of the fixture (it has no invitations).
select tests.act_as_anon();
select throws_ok($$select count(*) from public.audit_log$$, '42501', null, 'anon cannot read the audit log');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.audit_log), 0, 'a signed-in non-member reads no entry');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.audit_log where org_id = (select org_a from actors)), 0, 'the owner of B reads none of A''s entries');
select is((select count(*)::int from public.audit_log), (select b from fixture_entries), 'the owner of B reads B''s entries');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries), 'a viewer reads all of A''s entries and no other');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries), 'an inspector reads all of A''s entries and no other');
select tests.act_as((select manager from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries), 'a manager reads all of A''s entries and no other');
select tests.act_as((select admin from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries), 'an admin reads all of A''s entries and no other');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries), 'the owner reads all of A''s entries and no other');

-- Insert, update, delete: refused to every API role.
select tests.act_as_anon();
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'anon cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'anon cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'anon cannot delete entries');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'a non-member cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'a non-member cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'a non-member cannot delete entries');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'the owner of B cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'the owner of B cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'the owner of B cannot delete entries');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'a viewer cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'a viewer cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'a viewer cannot delete entries');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'an inspector cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'an inspector cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'an inspector cannot delete entries');
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'a manager cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'a manager cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'a manager cannot delete entries');
select tests.act_as((select owner from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'the owner cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'the owner cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'the owner cannot delete entries');
select tests.act_as((select admin from actors));
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'user', 'insert', 'sites' from actors$$,
  '42501', null, 'an admin cannot write an entry');
select throws_ok($$update public.audit_log set actor_user_id = null$$, '42501', null, 'an admin cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'an admin cannot delete entries');

select tests.reset_role();
set local role service_role;
select throws_ok($$insert into public.audit_log (org_id, actor_kind, action, entity) select org_a, 'system', 'insert', 'sites' from actors$$,
  '42501', null, 'the service role cannot write an entry');
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', null, 'the service role cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', null, 'the service role cannot delete entries');
reset role;
select throws_ok($$update public.audit_log set entity = 'nothing'$$, '42501', 'audit_log is append-only',
  'the superuser cannot change entries');
select throws_ok($$delete from public.audit_log$$, '42501', 'audit_log is append-only', 'the superuser cannot delete entries');
select throws_ok($$truncate public.audit_log$$, '42501', 'audit_log is append-only', 'the superuser cannot truncate the log');
select is((select count(*)::int from public.audit_log where org_id = (select org_a from actors)), (select a from fixture_entries),
  'the refused writes left A''s entries as they were');

-- What the triggers write, credited to the signed-in user.
select tests.act_as((select owner from actors));
update public.organizations set name = 'Renamed 060' where id = (select org_a from actors);
update public.memberships set role = 'inspector' where user_id = (select viewer from actors);
insert into public.organizations (id, slug, name) values ('00000000-0000-4000-8000-000000060001', 'short-lived-060', 'Short lived');
select tests.act_as((select admin from actors));
insert into public.invitations (org_id, email, role, token_hash)
  select org_a, 'invitee-060@example.test', 'viewer', tests.token_hash('token-060') from actors;
update public.invitations set revoked_at = now() where email = 'invitee-060@example.test';
select tests.act_as((select manager from actors));
insert into public.sites (org_id, name) select org_a, 'Audited site' from actors;
update public.sites set name = 'Audited site, renamed' where name = 'Audited site';
select tests.act_as((select inspector from actors));
delete from public.memberships where user_id = auth.uid();
select tests.act_as((select owner from actors));
insert into public.invitations (org_id, email, role, token_hash)
  values ('00000000-0000-4000-8000-000000060001', 'short-060@example.test', 'viewer', tests.token_hash('token-short-060'));
delete from public.organizations where id = '00000000-0000-4000-8000-000000060001';

select tests.reset_role();
select results_eq(
  $$select entity, action, actor_kind, actor_user_id, before ->> 'name', after ->> 'name'
    from public.audit_log where org_id = (select org_a from actors) and entity = 'organizations' and action = 'update'$$,
  $$select 'organizations', 'update', 'user', owner, 'Organization org-a-060', 'Renamed 060' from actors$$,
  'renaming the organization writes one entry with the name before and after, credited to the owner'
);
select results_eq(
  $$select actor_user_id, entity_id, before ->> 'role', after ->> 'role'
    from public.audit_log where org_id = (select org_a from actors) and entity = 'memberships' and action = 'update'$$,
  $$select owner, (select id from public.memberships where user_id = viewer), 'viewer', 'inspector' from actors$$,
  'changing a role writes one entry with the role before and after, credited to the owner'
);
select results_eq(
  $$select entity, action, actor_kind, actor_user_id from public.audit_log
    where org_id = '00000000-0000-4000-8000-000000060001' and entity <> 'invitations' order by entity, action$$,
  $$select * from (values ('memberships', 'delete', 'user', (select owner from actors)),
                          ('memberships', 'insert', 'user', (select owner from actors)),
                          ('organizations', 'delete', 'user', (select owner from actors)),
                          ('organizations', 'insert', 'user', (select owner from actors))) v$$,
  'creating and deleting an organization write its and its owner membership''s entries, credited to the owner'
);
select ok(
  (select before is not null and after is null from public.audit_log
   where org_id = '00000000-0000-4000-8000-000000060001' and entity = 'organizations' and action = 'delete'),
  'a delete entry keeps the row before and has no after'
);
select ok(
  (select before is null and after ->> 'slug' = 'short-lived-060' from public.audit_log
   where org_id = '00000000-0000-4000-8000-000000060001' and entity = 'organizations' and action = 'insert'),
  'an insert entry has the row after and no before'
);
select results_eq(
  $$select action, actor_user_id, after ->> 'email' from public.audit_log
    where org_id = (select org_a from actors) and entity = 'invitations' order by id$$,
  $$select * from (values ('insert', (select admin from actors), 'invitee-060@example.test'),
                          ('update', (select admin from actors), 'invitee-060@example.test')) v$$,
  'inviting and revoking write one entry each, credited to the admin'
);
select results_eq(
  $$select action, actor_user_id, before ->> 'email' from public.audit_log
    where org_id = '00000000-0000-4000-8000-000000060001' and entity = 'invitations' order by id$$,
  $$select * from (values ('insert', (select owner from actors), null),
                          ('delete', (select owner from actors), 'short-060@example.test')) v$$,
  'an invitation deleted with its organization writes a delete entry, credited to the owner who deleted it'
);
select is(
  (select count(*)::int from public.audit_log
   where entity = 'invitations' and (before ? 'token_hash' or after ? 'token_hash')),
  0,
  'no invitation entry holds the token hash, before or after, on insert, update or delete'
);
select ok(
  (select before ->> 'revoked_at' is null and after ->> 'revoked_at' is not null from public.audit_log
   where org_id = (select org_a from actors) and entity = 'invitations' and action = 'update'),
  'the revocation entry shows revoked_at before and after'
);
select results_eq(
  $$select action, actor_user_id, before ->> 'name', after ->> 'name' from public.audit_log
    where org_id = (select org_a from actors) and entity = 'sites' order by id$$,
  $$select * from (values ('insert', (select manager from actors), null, 'Audited site'),
                          ('update', (select manager from actors), 'Audited site', 'Audited site, renamed')) v$$,
  'adding and renaming a site write one entry each, credited to the manager'
);
select ok(
  (select entity_id = (select id from public.sites where name = 'Audited site, renamed') from public.audit_log
   where entity = 'sites' and action = 'insert' and org_id = (select org_a from actors)),
  'a site entry names the site''s id'
);
select results_eq(
  $$select actor_user_id, before ->> 'user_id', after from public.audit_log
    where org_id = (select org_a from actors) and entity = 'memberships' and action = 'delete'$$,
  $$select inspector, inspector::text, null::jsonb from actors$$,
  'leaving writes one membership delete entry, credited to the member who left'
);
select is((select count(*)::int from public.audit_log where org_id = (select org_a from actors) and actor_kind = 'user'), 7,
  'the seven changes to A wrote seven user entries');

-- The new entries are readable through the policies, like the old ones: a manager reads all but
-- the invitation's two (invited, revoked), which only owners and admins read (public.audit_log's policies).
select tests.act_as((select manager from actors));
select is((select count(*)::int from public.audit_log), (select a from fixture_entries) + 7 - 2, 'a manager reads A''s new entries but the invitation''s');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.audit_log where org_id = (select org_a from actors)), (select a from fixture_entries) + 7,
  'the owner reads A''s new entries too');
select is((select count(*)::int from public.audit_log where org_id = '00000000-0000-4000-8000-000000060001'), 0,
  'entries of a deleted organization are readable by nobody, its former owner included');

select tests.reset_role();
select is((select count(*)::int from public.audit_log where org_id = '00000000-0000-4000-8000-000000060001'), 6,
  'the deleted organization''s entries outlive it');

-- An update that changes nothing is not history. Age A's row first (without firing triggers), as
-- any row last changed in an earlier transaction is, so updated_at cannot hide the no-op.
set local session_replication_role = replica;
update public.organizations set updated_at = now() - interval '1 day' where id = (select org_a from actors);
set local session_replication_role = origin;
select tests.act_as((select owner from actors));
update public.organizations set name = name where id = (select org_a from actors);
select tests.reset_role();
select is((select count(*)::int from public.audit_log
           where org_id = (select org_a from actors) and entity = 'organizations' and action = 'update'), 1,
  'an update that changes no column but updated_at writes no entry');

select policies_are('public', 'audit_log',
  array['Members can read the audit entries of what they may read'],
  'audit_log has exactly one policy, for select (20261128130200 made its two one)');

select * from finish();
rollback;
