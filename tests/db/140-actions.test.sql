-- Actions: who reads, opens and changes them (RLS and column privileges, both sides for every
-- role, and as anon), what a new action must satisfy (its site, inspection, item and assignee of
-- the same organization), its defaults (due date by priority, starts open), that an organization
-- requiring MFA refuses aal1 writes, and the organization topic hearing about every change.
begin;
select plan(40);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('140a') m, tests.create_published_template(m.org_a,
    '[{"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":"°C"}]') p;
alter table actors add column inspection uuid, add column b_site uuid, add column archived_site uuid, add column existing uuid;
update actors set inspection = tests.create_inspection(org_a, site, template);
insert into public.sites (org_id, name) select org_b, 'B kitchen' from actors;
update actors set b_site = (select id from public.sites where name = 'B kitchen');
insert into public.sites (org_id, name, archived_at) select org_a, 'Closed kitchen', now() from actors;
update actors set archived_site = (select id from public.sites where name = 'Closed kitchen');
update actors set existing = tests.create_action(org_a, site, 'open', inspector);
grant select on actors to anon, authenticated;

-- Select: members of A read A's actions; nobody else reads any.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.actions$$, '42501', null, 'anon cannot read actions');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.actions), 0, 'a non-member reads no action');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.actions), 0, 'the owner of B reads none of A''s actions');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.actions), 1, 'a viewer reads A''s action');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.actions), 1, 'an inspector reads A''s action');

-- Insert: managers and above for anyone who works actions; inspectors for themselves.
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, site, 'Manager opens', inspector from actors$$,
  'a manager opens an action for an inspector');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Admin opens' from actors$$,
  'an admin opens an unassigned action');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, site, 'Owner opens', manager from actors$$,
  'the owner opens an action for a manager');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Inspector opens' from actors$$,
  'an inspector opens an action naming nobody');
select is((select assignee_id from public.actions where title = 'Inspector opens'), (select inspector from actors),
  'and it is assigned to them');
select throws_ok($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, site, 'For the manager', manager from actors$$,
  '42501', null, 'an inspector cannot open an action for someone else');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Viewer opens' from actors$$,
  '42501', null, 'a viewer cannot open an action');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Stranger opens' from actors$$,
  '42501', null, 'the owner of B cannot open an action in A');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Outsider opens' from actors$$,
  '42501', null, 'a non-member cannot open an action');
select tests.act_as_anon();
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Anon opens' from actors$$,
  '42501', null, 'anon cannot open an action');

-- Columns the triggers own are not the caller's to write.
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.actions (org_id, site_id, title, status) select org_a, site, 'Born verified', 'verified' from actors$$,
  '42501', null, 'a caller cannot insert a status');
select throws_ok($$insert into public.actions (org_id, site_id, title, origin) select org_a, site, 'Pretends', 'submit' from actors$$,
  '42501', null, 'nor an origin');
select throws_ok($$update public.actions set resolved_by = (select manager from actors) where id = (select existing from actors)$$,
  '42501', null, 'nor update who resolved it');
select throws_ok($$update public.actions set item_passed_at = now() where id = (select existing from actors)$$,
  '42501', null, 'nor the "item now passes" mark');
select throws_ok($$delete from public.actions where id = (select existing from actors)$$,
  '42501', null, 'nobody deletes an action: it is canceled');

-- Update: managers any action of theirs; inspectors those assigned to them; others none.
select lives_ok($$update public.actions set priority = 'critical' where id = (select existing from actors)$$, 'a manager reprioritizes');
select tests.act_as((select viewer from actors));
update public.actions set priority = 'low' where id = (select existing from actors);
select tests.act_as((select b_owner from actors));
update public.actions set priority = 'low' where id = (select existing from actors);
select tests.reset_role();
select is((select priority::text from public.actions where id = (select existing from actors)), 'critical',
  'a viewer''s and a stranger''s updates reach no row');

-- A new action's consistency, each refusal on its own field.
select tests.act_as((select manager from actors));
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, b_site, 'Wrong site' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'a site of another organization is refused on site_id');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, archived_site, 'Closed' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "This site is archived. Choose an active site."}',
  'an archived site is refused by hand');
select is(tests.error_of($$insert into public.actions (org_id, inspection_id, item_key, title) select org_a, inspection, 'nope', 'Ghost item' from actors$$),
  'validation_failed {"field" : "item_key", "message" : "Choose an item of this inspection''s template."}',
  'an item not in the inspection''s template is refused on item_key');
select is(tests.error_of($$insert into public.actions (org_id, site_id, item_key, title) select org_a, site, 'temp', 'Loose item' from actors$$),
  'validation_failed {"field" : "item_key", "message" : "Name the inspection the item belongs to."}',
  'an item without its inspection is refused');
select is(tests.error_of($$insert into public.actions (org_id, site_id, inspection_id, title) select org_a, b_site, inspection, 'Mismatch' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose the site of the inspection, or leave the site out."}',
  'a site other than the inspection''s is refused');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, site, 'To a viewer', viewer from actors$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member of this organization who can work on actions."}',
  'a viewer cannot be the assignee');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, site, 'To B', b_owner from actors$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member of this organization who can work on actions."}',
  'nor someone of another organization');
select lives_ok($$insert into public.actions (org_id, inspection_id, item_key, title) select org_a, inspection, 'temp', 'From the item' from actors$$,
  'an action on an item of an inspection is opened');
select results_eq(
  $$select site_id, status, origin, created_by, version from public.actions where title = 'From the item'$$,
  $$select site, 'open'::public.action_status, 'manual', manager, 1 from actors$$,
  'it takes the inspection''s site, starts open, by hand, credited to the caller'
);

-- Due dates follow the priority when none is given.
insert into public.actions (org_id, site_id, title, priority)
select org_a, site, 'Due ' || p, p::public.action_priority from actors, unnest('{low,medium,high,critical}'::text[]) p;
select results_eq(
  $$select priority::text, (due_at - created_at)::text from public.actions where title like 'Due %' order by priority$$,
  $$values ('critical', '1 day'), ('high', '3 days'), ('low', '30 days'), ('medium', '7 days')$$,
  'with no due date, critical is due in a day, high in 3, medium in 7, low in 30'
);
select lives_ok($$insert into public.actions (org_id, site_id, title, due_at) select org_a, site, 'Given date', '2030-01-01T00:00:00Z' from actors$$,
  'a given due date is kept');
select is((select due_at from public.actions where title = 'Given date'), '2030-01-01T00:00:00Z'::timestamptz, 'as given');

-- Even a server write starts an action open.
select tests.reset_role();
select is(tests.error_of($$insert into public.actions (org_id, site_id, title, status) select org_a, site, 'Born verified', 'verified' from actors$$),
  'invalid_transition {"thing" : "action", "status" : "new", "verb" : "verified"}',
  'a server write cannot insert an action in another status than open');

-- The organization topic hears each new action and each move, with the status and the assignee.
select ok(exists (
  select 1 from realtime.messages m
  where m.topic = 'org:' || (select org_a from actors) and m.event = 'action_created'
    and m.payload ->> 'id' = (select id::text from public.actions where title = 'Manager opens')
    and m.payload ->> 'assignee_id' = (select inspector::text from actors) and m.payload ->> 'status' = 'open'),
  'opening an action is broadcast on the organization topic with its status and assignee');
select tests.act_as((select inspector from actors));
update public.actions set status = 'in_progress' where id = (select existing from actors);
select tests.reset_role();
select ok(exists (
  select 1 from realtime.messages m
  where m.topic = 'org:' || (select org_a from actors) and m.event = 'action_updated'
    and m.payload ->> 'id' = (select existing::text from actors) and m.payload ->> 'status' = 'in_progress'),
  'a move is broadcast as action_updated with the new status');
select results_eq(
  $$select action, actor_user_id, before ->> 'status', after ->> 'status' from public.audit_log
    where entity = 'actions' and entity_id = (select existing from actors) and after ->> 'status' = 'in_progress'$$,
  $$select 'update', inspector, 'open', 'in_progress' from actors$$,
  'and audited, credited to the inspector'
);

-- MFA: an organization that requires it refuses aal1 writes to actions, and takes aal2 ones.
update public.organizations set require_mfa = true where id = (select org_a from actors);
select tests.act_as((select manager from actors), 'aal1');
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Weak session' from actors$$,
  'P0001', 'mfa_required', 'an aal1 session cannot open an action when MFA is required');
select tests.act_as((select manager from actors), 'aal2');
select lives_ok($$insert into public.actions (org_id, site_id, title) select org_a, site, 'Strong session' from actors$$,
  'an aal2 session can');

select * from finish();
rollback;
