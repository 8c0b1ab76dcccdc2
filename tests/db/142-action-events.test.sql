-- Action history: members of the organization read it, nobody else; nobody writes, changes or
-- removes an event — not the API roles, not the service role, not the superuser — except that
-- deleting a user clears their ids and deleting the organization takes its history with it.
begin;
select plan(18);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('142') m, tests.create_published_template(m.org_a,
    '[{"key":"note","kind":"text","label":"Note","help":null,"required":false,"weight":0}]') p;
alter table actors add column action uuid;
update actors set action = tests.create_action(org_a, site, 'open', inspector);
grant select on actors to anon, authenticated, service_role;
select tests.act_as((select inspector from actors));
update public.actions set status = 'in_progress' where id = (select action from actors);
update public.actions set status = 'resolved', transition_note = 'Done.' where id = (select action from actors);
select tests.reset_role();

select is((select count(*)::int from public.action_events where action_id = (select action from actors)), 3,
  'opening, starting and resolving wrote three events');

select tests.act_as_anon();
select throws_ok($$select count(*) from public.action_events$$, '42501', null, 'anon cannot read action history');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.action_events), 0, 'a non-member reads none');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.action_events), 0, 'the owner of B reads none of A''s');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.action_events), 3, 'a viewer reads A''s');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.action_events), 3, 'an inspector reads A''s');

select tests.act_as((select owner from actors));
select throws_ok($$insert into public.action_events (org_id, action_id, kind, actor_kind) select org_a, action, 'opened', 'user' from actors$$,
  '42501', null, 'the owner cannot write an event');
select throws_ok($$update public.action_events set note = 'Rewritten'$$, '42501', null, 'nor change one');
select throws_ok($$delete from public.action_events$$, '42501', null, 'nor delete one');
select tests.set_request('service_role', '{"role":"service_role"}');
select throws_ok($$update public.action_events set note = 'Rewritten'$$, '42501', null, 'the service role cannot change an event');
select throws_ok($$delete from public.action_events$$, '42501', null, 'nor delete one');
select tests.reset_role();
select throws_ok($$update public.action_events set note = 'Rewritten'$$, '42501', 'action events are append-only', 'the superuser cannot change an event');
select throws_ok($$delete from public.action_events$$, '42501', 'action events are append-only', 'nor delete one');
select throws_ok($$truncate public.action_events$$, '42501', 'action events are append-only', 'nor truncate them');

-- A resolver whose account is deleted: their ids go, the events stay.
select is((select count(*)::int from public.action_events where action_id = (select action from actors)
           and (actor_user_id = (select inspector from actors) or assignee_id = (select inspector from actors))), 3,
  'the inspector is named in all three: assignee of the opening, actor of the two moves');
delete from auth.users where id = (select inspector from actors);
select is((select count(*)::int from public.action_events where action_id = (select action from actors)), 3, 'deleting the inspector keeps the events');
select is((select count(*)::int from public.action_events where action_id = (select action from actors) and (actor_user_id is not null or assignee_id is not null)), 0,
  'with the inspector''s ids cleared');

delete from public.organizations where id = (select org_a from actors);
select is((select count(*)::int from public.action_events where org_id = (select org_a from actors)), 0,
  'deleting the organization takes its action history with it');

select * from finish();
rollback;
