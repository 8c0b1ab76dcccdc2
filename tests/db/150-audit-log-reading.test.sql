-- Who reads which audit entries (the policies on public.audit_log, supabase/schema.sql): owners and admins every entry; managers,
-- inspectors and viewers every entry but invitations' (which would show them invited addresses
-- the invitations table hides from them); other organizations, outsiders and anon nothing.
begin;
select plan(16);

create temp table actors on commit drop as select * from tests.create_org_matrix('150');
grant select on actors to anon, authenticated;
select tests.create_invitation(org_a, 'invitee-150@example.test', 'inspector', 'token-150', owner) from actors;
insert into public.sites (org_id, name) select org_a, 'Audited 150' from actors;

create function pg_temp.entries(kind text) returns int language sql as $$
  select count(*)::int from public.audit_log where entity = kind and org_id = (select org_a from actors);
$$;
grant execute on function pg_temp.entries(text) to anon, authenticated;

select tests.act_as((select owner from actors));
select is(pg_temp.entries('invitations'), 1, 'the owner reads the invitation''s entry');
select is(pg_temp.entries('sites'), 1, 'and the site''s');
select tests.act_as((select admin from actors));
select is(pg_temp.entries('invitations'), 1, 'an admin reads the invitation''s entry');
select is(pg_temp.entries('sites'), 1, 'and the site''s');
select tests.act_as((select manager from actors));
select is(pg_temp.entries('invitations'), 0, 'a manager reads no invitation entry');
select is(pg_temp.entries('sites'), 1, 'but the site''s');
select tests.act_as((select inspector from actors));
select is(pg_temp.entries('invitations'), 0, 'an inspector reads no invitation entry');
select is(pg_temp.entries('sites'), 1, 'but the site''s');
select tests.act_as((select viewer from actors));
select is(pg_temp.entries('invitations'), 0, 'a viewer reads no invitation entry');
select is(pg_temp.entries('sites'), 1, 'but the site''s');
select tests.act_as((select b_owner from actors));
select is(pg_temp.entries('invitations'), 0, 'the owner of B reads none of A''s invitation entries');
select is(pg_temp.entries('sites'), 0, 'nor its site entries');
select tests.act_as((select outsider from actors));
select is(pg_temp.entries('sites'), 0, 'an outsider reads none');
select tests.act_as_anon();
select throws_ok($$select pg_temp.entries('sites')$$, '42501', null, 'anon cannot read the audit log');

-- The member entries (who joined, with which role) stay readable to every member.
select tests.act_as((select viewer from actors));
select ok(pg_temp.entries('memberships') > 0, 'a viewer reads the membership entries');
select tests.act_as((select manager from actors));
select ok(pg_temp.entries('memberships') = (select count(*)::int from public.memberships where org_id = (select org_a from actors)),
  'a manager reads one membership entry per member');

select * from finish();
rollback;
