-- Schedules (issue 26 parts 1 and 9): who reads and changes them and their sites (every role both
-- sides, API keys by role, another organization, anon; a `using` clause filters silently, so
-- row counts), what a schedule must satisfy (its rule, pattern, window, template, people, sites,
-- in the words the api shows), that deleting is final and pausing is stamped, the limits (1,000
-- schedules, 10,000 sites each) held under their worst input, the audit log, the organization
-- topic, the webhook events, MFA, and deleting an organization that has schedules.
begin;
select plan(60);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('220s') m, tests.create_published_template(m.org_a,
    '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p;
alter table actors add column b_site uuid, add column b_template uuid, add column archived_site uuid, add column draft uuid,
  add column archived_template uuid, add column k_manager uuid, add column k_inspector uuid, add column k_viewer uuid,
  add column schedule uuid, add column second_site uuid;
update actors set k_manager = tests.create_api_key(org_a, 'manager'), k_inspector = tests.create_api_key(org_a, 'inspector'),
  k_viewer = tests.create_api_key(org_a, 'viewer');
update actors set b_template = (select p.template from actors a, tests.create_published_template(a.org_b,
    '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p);
update actors set b_site = (select id from public.sites where org_id = (select org_b from actors));
insert into public.sites (org_id, name, archived_at) select org_a, 'Closed kitchen', now() from actors;
insert into public.sites (org_id, name, timezone) select org_a, 'Auckland kitchen', 'Pacific/Auckland' from actors;
update actors set archived_site = (select id from public.sites where name = 'Closed kitchen'),
                  second_site = (select id from public.sites where name = 'Auckland kitchen');
insert into public.templates (org_id, name) select org_a, 'Draft audit' from actors;
update actors set draft = (select id from public.templates where name = 'Draft audit');
insert into public.templates (org_id, name, definition) select org_a, 'Old audit', (select definition from public.templates where id = template) from actors;
insert into public.template_versions (template_id) select id from public.templates where name = 'Old audit';
update public.templates set status = 'archived' where name = 'Old audit';
update actors set archived_template = (select id from public.templates where name = 'Old audit');
-- Far in the future: nothing to make yet, so this file is about the schedule, not its inspections.
insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=WEEKLY;BYDAY=MO', '2099-01-05', '08:00', 'P4DT9H' from actors;
update actors set schedule = (select id from public.schedules where org_id = (select org_a from actors));
insert into public.schedule_sites (schedule_id, site_id) select schedule, site from actors;
grant select on actors to anon, authenticated;

-- Reading: members and keys of A read A's schedules and their sites; nobody else.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.schedules$$, '42501', null, 'anon cannot read schedules');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.schedules), 0, 'a non-member reads no schedule');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.schedules) + (select count(*)::int from public.schedule_sites), 0,
  'the owner of B reads none of A''s schedules or their sites');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.schedules), 1, 'a viewer reads A''s schedule');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.schedule_sites), 1, 'an inspector reads its sites');
select tests.act_as_api_key((select k_viewer from actors));
select is((select count(*)::int from public.schedules), 1, 'a viewer key reads it');

-- Adding: owners, admins, managers and manager keys; not inspectors, viewers, their keys or strangers.
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'By the manager', template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, 'a manager adds a schedule');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'By the admin', template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, 'an admin adds one');
select tests.act_as_api_key((select k_manager from actors));
select lives_ok($$insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'By a key', template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, 'a manager key adds one');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, '42501', null, 'an inspector cannot');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, '42501', null, 'a viewer cannot');
select tests.act_as_api_key((select k_inspector from actors));
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, '42501', null, 'an inspector key cannot');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, '42501', null, 'the owner of B cannot add one to A');
select tests.act_as_anon();
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '09:30', 'PT8H' from actors$$, '42501', null, 'anon cannot');

-- Changing: managers and above; everyone else changes nothing.
select tests.act_as((select inspector from actors));
select results_eq($$with changed as (update public.schedules set name = 'Inspector was here' returning 1) select count(*)::int from changed$$,
  array[0], 'an inspector changes no schedule');
select tests.act_as_api_key((select k_viewer from actors));
select results_eq($$with changed as (update public.schedules set name = 'Key was here' returning 1) select count(*)::int from changed$$,
  array[0], 'a viewer key changes none');
select tests.act_as((select b_owner from actors));
select results_eq($$with changed as (update public.schedules set name = 'B was here' returning 1) select count(*)::int from changed$$,
  array[0], 'the owner of B changes none of A''s');
select tests.act_as((select manager from actors));
select results_eq($$with changed as (update public.schedules set name = 'Weekly audit' where id = (select schedule from actors) returning version)
  select version from changed$$, array[2], 'a manager renames one, and its version goes up');

-- Its sites: managers add and take off sites; inspectors neither.
select lives_ok($$insert into public.schedule_sites (schedule_id, site_id) select schedule, second_site from actors$$, 'a manager adds a site');
select is((select org_id from public.schedule_sites where site_id = (select second_site from actors)), (select org_a from actors),
  'the row takes the schedule''s organization');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.schedule_sites (schedule_id, site_id) select schedule, archived_site from actors$$, '42501', null,
  'an inspector cannot add one');
select results_eq($$with gone as (delete from public.schedule_sites returning 1) select count(*)::int from gone$$, array[0],
  'nor take one off');
select tests.act_as((select manager from actors));
select results_eq($$with gone as (delete from public.schedule_sites where site_id = (select second_site from actors) returning 1) select count(*)::int from gone$$,
  array[1], 'a manager takes one off');

-- What a schedule must be, in the api's words (tests.error_of: the message and its JSON detail).
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=WEEKLY;BYDAY=1MO', '2099-01-01', '08:00', 'P1D' from actors$$, '23514', null, 'a rule outside the subset is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after, title_pattern)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D', '{site} on {day}' from actors$$, '23514', null, 'an unknown placeholder is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', '0 minutes' from actors$$, '23514', null, 'an empty due window is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', '1 month' from actors$$, '23514', null, 'a due window in months is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00:30', 'P1D' from actors$$, '23514', null, 'a time of day with seconds is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, end_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-02', '2099-01-01', '08:00', 'P1D' from actors$$, '23514', null, 'an end before the start is refused');
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after, assignee_id, rotation_user_ids)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D', inspector, array[manager] from actors$$, '23514', null,
  'one assignee and a rotation together are refused');
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after, assignee_id)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D', %L)$$, (select org_a from actors), (select template from actors), (select outsider from actors))),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member of this organization who can fill in inspections."}',
  'an assignee from outside is refused on assignee_id');
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after, rotation_user_ids)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D', %L)$$, (select org_a from actors), (select template from actors),
  array[(select inspector from actors), (select viewer from actors)])),
  'validation_failed {"field" : "rotation_user_ids", "message" : "Choose members of this organization who can fill in inspections."}',
  'a viewer in the rotation is refused on rotation_user_ids');
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D')$$, (select org_a from actors), (select draft from actors))),
  'validation_failed {"field" : "template_id", "message" : "Publish this template before scheduling it."}', 'a draft template is refused');
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D')$$, (select org_a from actors), (select archived_template from actors))),
  'validation_failed {"field" : "template_id", "message" : "This template is archived. Choose an active template."}', 'an archived template is refused');
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D')$$, (select org_a from actors), (select b_template from actors))),
  'validation_failed {"field" : "template_id", "message" : "Choose a template of this organization."}', 'another organization''s template is refused');
select is(tests.error_of(format($$insert into public.schedule_sites (schedule_id, site_id) values (%L, %L)$$, (select schedule from actors), (select b_site from actors))),
  'validation_failed {"field" : "site_ids", "message" : "Choose sites of this organization."}', 'another organization''s site is refused');
select is(tests.error_of(format($$insert into public.schedule_sites (schedule_id, site_id) values (%L, %L)$$, (select schedule from actors), (select archived_site from actors))),
  'validation_failed {"field" : "site_ids", "message" : "Some of these sites are archived. Choose active sites."}', 'an archived site is refused');
select is((select name from public.schedules where id = (select schedule from actors)), 'Weekly audit', 'the renamed schedule kept its name');
insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'freq=monthly;byday=-1fr', '2099-01-01', '08:00', 'P2D' from actors;
select results_eq($$select name, rrule from public.schedules where rrule like '%-1FR'$$,
  $$values ('Audit'::text, 'FREQ=MONTHLY;BYDAY=-1FR'::text)$$, 'a schedule without a name takes its template''s, and its rule is kept upper case');

-- Pausing is stamped by the database; deleting is final.
select results_eq($$with paused as (update public.schedules set paused_at = '2000-01-01' where id = (select schedule from actors) returning paused_at)
  select paused_at = now() from paused$$, array[true], 'pausing is stamped with the time of the change, not the caller''s');
update public.schedules set deleted_at = now() where id = (select schedule from actors);
select is(tests.error_of(format($$update public.schedules set paused_at = null where id = %L$$, (select schedule from actors))),
  'invalid_transition {"thing" : "schedule", "status" : "deleted", "verb" : "resumed"}', 'a deleted schedule cannot be resumed');
select is(tests.error_of(format($$update public.schedules set name = 'Back' where id = %L$$, (select schedule from actors))),
  'invalid_transition {"thing" : "schedule", "status" : "deleted", "verb" : "edited"}', 'nor edited');
select throws_ok(format($$update public.schedules set org_id = %L where name = 'By the manager'$$, (select org_b from actors)),
  '42501', null, 'a schedule stays in its organization (no column privilege; the guard refuses it too)');
select tests.reset_role();

-- The audit log, the organization topic and the webhook outbox hear each change.
select results_eq($$select action, actor_kind, actor_user_id from public.audit_log where entity = 'schedules' and entity_id = (select schedule from actors) order by id$$,
  $$values ('insert', 'system', null::uuid), ('update', 'user', (select manager from actors)), ('update', 'user', (select manager from actors)),
           ('update', 'user', (select manager from actors))$$, 'the schedule''s creation, renaming, pausing and deleting are audited, with who');
select results_eq($$select action, after -> 'site_ids', before -> 'site_ids' from public.audit_log where entity = 'schedule_sites' and entity_id = (select schedule from actors) order by id$$,
  $$values ('insert', jsonb_build_array((select site from actors)), null::jsonb), ('insert', jsonb_build_array((select second_site from actors)), null),
           ('delete', null, jsonb_build_array((select second_site from actors)))$$,
  'adding and taking off sites is one entry per statement, with the sites');
select ok(exists (select 1 from realtime.messages m where m.topic = 'org:' || (select org_a from actors) and m.event = 'schedule_created'
  and m.payload ->> 'id' = (select id::text from public.schedules where name = 'By the manager')), 'a new schedule is broadcast on the organization topic');
select ok(exists (select 1 from realtime.messages m where m.topic = 'org:' || (select org_a from actors) and m.event = 'schedule_updated'
  and m.payload ->> 'id' = (select schedule::text from actors)), 'and so is a change');

insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://hooks.example.test/schedules', 'whsec_' || repeat('S', 32) from actors;
select tests.act_as((select manager from actors));
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Hooked', template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D' from actors;
update public.schedules set title_pattern = '{site}: {date}' where name = 'Hooked';
update public.schedules set paused_at = now() where name = 'Hooked';
update public.schedules set paused_at = null where name = 'Hooked';
update public.schedules set deleted_at = now() where name = 'Hooked';
select tests.reset_role();
select results_eq($$select type from public.webhook_events where entity = 'schedule' and entity_id = (select id from public.schedules where name = 'Hooked') order by seq$$,
  array['schedule.created', 'schedule.updated', 'schedule.paused', 'schedule.updated', 'schedule.deleted'],
  'webhooks hear created, updated, paused, updated (resumed) and deleted, in order');
select is((select payload -> 'data' ->> 'title_pattern' from public.webhook_events where entity = 'schedule' and type = 'schedule.deleted'),
  '{site}: {date}', 'with the schedule as it is');

-- The limit of 1,000 schedules, held under concurrent inserts by a lock on the organization; deleted ones do not count.
insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D' from actors, generate_series(1, 1000 - (
    select count(*)::int from public.schedules where org_id = (select org_a from actors) and deleted_at is null));
select tests.act_as((select manager from actors));
select is(tests.error_of(format($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  values (%L, %L, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D')$$, (select org_a from actors), (select template from actors))),
  'limit_exceeded {"n" : 1000, "things" : "schedules"}', 'the 1,001st schedule of an organization is refused');
update public.schedules set deleted_at = now() where id = (select id from public.schedules where name = 'By a key');
select lives_ok($$insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'In its place', template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D' from actors$$, 'a deleted one leaves room for another');
select tests.reset_role();

-- The limit of 10,000 sites a schedule: the worst case, all of them in one statement, then one more.
insert into public.sites (org_id, name) select org_a, 'Outlet ' || n from actors, generate_series(1, 10001) n;
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.schedule_sites (schedule_id, site_id)
  select (select id from public.schedules where name = 'In its place'), s.id from public.sites s where s.name like 'Outlet %' order by s.name limit 10000$$,
  'a schedule takes 10,000 sites in one statement');
select is(tests.error_of(format($$insert into public.schedule_sites (schedule_id, site_id)
  select %L, s.id from public.sites s where s.name like 'Outlet %%' and s.id not in (select site_id from public.schedule_sites) limit 1$$,
  (select id from public.schedules where name = 'In its place'))),
  'limit_exceeded {"n" : 10000, "things" : "sites in a schedule"}', 'and refuses the 10,001st');
select is((select count(*)::int from public.audit_log where entity = 'schedule_sites' and entity_id = (select id from public.schedules where name = 'In its place')),
  1, 'the 10,000 sites are one audit entry');
select tests.reset_role();

-- Where the organization requires two-factor authentication, aal1 writes are refused (sites too).
update public.organizations set require_mfa = true where id = (select org_a from actors);
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.schedules (org_id, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, template, 'FREQ=DAILY', '2099-01-01', '08:00', 'P1D' from actors$$, 'P0001', 'mfa_required', 'an aal1 manager cannot add a schedule');
select throws_ok($$insert into public.schedule_sites (schedule_id, site_id) select id, (select second_site from actors) from public.schedules where name = 'By the manager'$$,
  'P0001', 'mfa_required', 'nor add a site to one');
select tests.act_as((select manager from actors), 'aal2');
select lives_ok($$insert into public.schedule_sites (schedule_id, site_id) select id, (select second_site from actors) from public.schedules where name = 'By the manager'$$,
  'an aal2 manager can');
select tests.reset_role();

-- Deleting the organization takes its schedules, their sites and inspections with it.
update public.schedules set deleted_at = now() where id = (select id from public.schedules where name = 'By the admin');
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Running now', template, 'FREQ=DAILY', current_date - 1, '08:00', 'P2D' from actors;
insert into public.schedule_sites (schedule_id, site_id) select id, (select site from actors) from public.schedules where name = 'Running now';
select ok((select count(*) from public.inspections where schedule_id = (select id from public.schedules where name = 'Running now')) > 0,
  'a running schedule has inspections');
select tests.act_as((select owner from actors), 'aal2');
select lives_ok($$delete from public.organizations where id = (select org_a from actors)$$, 'its owner deletes the organization');
select tests.reset_role();
select is((select count(*)::int from public.schedules where org_id = (select org_a from actors)) + (select count(*)::int from public.schedule_sites
  where org_id = (select org_a from actors)), 0, 'and its schedules and their sites are gone');

select * from finish();
rollback;
