-- Code that reads past RLS, by site group (issue 27 part 3): the security definer functions that
-- the API roles may call or reach through a trigger, and the views the policies look a row's site
-- group up in, tell a limited member or key nothing about what is outside its groups' sites,
-- while still working inside. The rule's helpers themselves; the checks that lock and answer for
-- an inspection or an action; the before-insert triggers that would otherwise describe an outside
-- site, inspection or template (archived, its items) before RLS refuses the row. (The site
-- search: 242; a schedule's occurrences, reminders and digest: 247. The dashboard, compliance and
-- report queries run as the caller under the policies of 242-247, through no function of their
-- own: supabase/schema.sql has none.)
begin;
select plan(40);

create temp table actors on commit drop as select * from tests.create_site_group_world('249');
alter table actors add column north_act uuid, add column south_act uuid, add column closed_site uuid, add column schedule uuid;
update actors set north_act = tests.create_action(org_a, north_site, 'open', null, 'North fix'),
                  south_act = tests.create_action(org_a, south_site, 'open', null, 'South fix');
-- An archived site in South: what it would say about it is what must not be said.
with created as (insert into public.sites (org_id, name, group_id, archived_at) select org_a, 'Closed South depot', south, now() from actors returning id)
update actors set closed_site = (select id from created);
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, v.name, template, 'FREQ=WEEKLY;BYDAY=MO', '2099-01-05', '08:00', 'P1D' from actors, (values ('North rounds'), ('South rounds')) v (name);
update actors set schedule = (select id from public.schedules where name = 'North rounds');
insert into public.schedule_sites (schedule_id, site_id) select schedule, north_site from actors;
insert into public.schedule_sites (schedule_id, site_id)
  select (select id from public.schedules where name = 'South rounds'), south_site from actors;
grant select on actors to anon, authenticated;

-- The rule's helpers answer for the caller.
select tests.act_as((select l_inspector from actors));
select is((select count(*)::int from private.org_ids_with_every_site()), 0, 'a limited inspector is org-wide nowhere');
select is((select count(*)::int from private.limited_site_ids() s where s in (select north_site from actors union all select pier_site from actors)), 2,
  'its limited sites are North''s and Pier''s');
select is((select count(*)::int from private.limited_site_ids()), 2, 'and no other');
select is((select count(*)::int from private.org_ids_of_current_user()), 1, 'it is still a member of A (templates and members stay org-wide)');
select tests.act_as((select inspector from actors));
select is((select array_agg(o) from private.org_ids_with_every_site() o), (select array[org_a] from actors), 'an org-wide inspector is org-wide in A');
select is((select count(*)::int from private.limited_site_ids()), 0, 'with no limited sites');
select tests.act_as_api_key((select k_limited from actors));
select is((select count(*)::int from private.org_ids_with_every_site()) || ' / ' || (select count(*)::int from private.limited_site_ids()), '0 / 2',
  'a limited key: org-wide nowhere, two limited sites');

-- The views the policies look a row's site group up in read past RLS (as their owner): what they
-- show a limited caller who queries them must be nothing outside (0 rows, or not readable).
select tests.act_as((select l_inspector from actors));
select matches(tests.outcome($$select 1 from private.site_group_of_site where site_id = (select south_site from actors)$$),
  '^(0 rows|error 42501)', 'a limited inspector reads no row of South''s site through private.site_group_of_site');
select matches(tests.outcome($$select 1 from private.site_group_of_inspection where inspection_id = (select south_insp from actors)$$),
  '^(0 rows|error 42501)', 'nor of the inspection at South''s site through private.site_group_of_inspection');
select matches(tests.outcome($$select 1 from private.site_group_of_action where action_id = (select south_act from actors)$$),
  '^(0 rows|error 42501)', 'nor of the action at South''s site through private.site_group_of_action');
select matches(tests.outcome($$select 1 from private.site_group_of_schedule_site where site_id = (select south_site from actors)$$),
  '^(0 rows|error 42501)', 'nor of a schedule at South''s site through private.site_group_of_schedule_site');

-- The definer helpers the api and the Storage policy call with an id tell nothing about a group
-- outside: the group of an evidence path, the groups below a group (docs/site-groups.md).
select is(private.site_group_of_evidence_object((select org_a || '/' || north_insp || '/photo/x.jpg' from actors)), (select north from actors),
  'the group of a photo path at North''s site is North, for the limited inspector');
select is(private.site_group_of_evidence_object((select org_a || '/' || south_insp || '/photo/x.jpg' from actors)), null,
  'the group of a photo path at South''s site is not told it');
select is(private.site_group_of_evidence_object((select org_a || '/actions/' || south_act || '/x.jpg' from actors)), null,
  'nor that of an action photo path there');
select is((select count(*)::int from private.site_group_subtree_ids((select north from actors))), 3, 'the groups below North are North, Harbour and Pier');
select is((select count(*)::int from private.site_group_subtree_ids((select south from actors))), 0, 'the groups below South are not told it');
select tests.act_as((select b_owner from actors));
select is(private.site_group_of_evidence_object((select org_a || '/' || north_insp || '/photo/x.jpg' from actors)), null,
  'the owner of B is told no group of a photo path of A');

-- Locking and judging an inspection or an action.
select tests.act_as((select l_inspector from actors));
select is((select count(*)::int from private.lock_inspection((select south_insp from actors))), 0, 'a limited inspector locks (and learns the status of) no inspection at South''s site');
select is((select count(*)::int from private.lock_inspection((select north_insp from actors))), 1, 'but locks the one at North''s');
select is(private.can_fill_inspection((select south_insp from actors)), false, 'it does not fill the inspection at South''s site');
select is(private.can_fill_inspection((select north_insp from actors)), true, 'it fills the one at North''s');
select is(private.can_work_action((select north_act from actors)), false, 'it works no unassigned action (as before)');
select tests.act_as((select l_manager from actors));
select is(private.can_work_action((select south_act from actors)), false, 'a limited manager does not work the action at South''s site');
select is(private.can_work_action((select north_act from actors)), true, 'it works the one at North''s');
select is(private.can_fill_inspection((select loose_insp from actors)), false, 'nor fills the inspection at the ungrouped site');
select matches(coalesce(tests.error_of(format('select (private.require_action_workable(%L)).title', (select south_act from actors))), 'no error'),
  '^(invalid_transition|new row|permission denied)', 'asking for the action at South''s site as workable raises, returning nothing of it');
select is(tests.error_of(format('select (private.require_action_workable(%L)).title', (select north_act from actors))), null,
  'the one at North''s is workable');
select tests.act_as_api_key((select k_limited from actors));
select is((select count(*)::int from private.lock_inspection((select south_insp from actors))), 0, 'a limited key locks no inspection at South''s site');
select is(private.can_fill_inspection((select south_insp from actors)), false, 'nor fills it');

-- The before-insert triggers say nothing about what is outside.
select tests.act_as((select l_manager from actors));
select isnt(tests.error_of(format($$insert into public.inspections (org_id, site_id, template_id) values (%L, %L, %L)$$,
    (select org_a from actors), (select closed_site from actors), (select template from actors))), null,
  'a limited manager cannot schedule at an archived site of South');
select unalike(tests.error_of(format($$insert into public.inspections (org_id, site_id, template_id) values (%L, %L, %L)$$,
    (select org_a from actors), (select closed_site from actors), (select template from actors))), '%archived%',
  'and is not told that it is archived');
select isnt(tests.error_of(format($$insert into public.actions (org_id, site_id, title) values (%L, %L, 'Closed leak')$$,
    (select org_a from actors), (select closed_site from actors))), null, 'it opens no action there');
select unalike(tests.error_of(format($$insert into public.actions (org_id, site_id, title) values (%L, %L, 'Closed leak')$$,
    (select org_a from actors), (select closed_site from actors))), '%archived%', 'and is not told that the site is archived');
select unalike(coalesce(tests.error_of(format($$insert into public.actions (org_id, inspection_id, item_key, title) values (%L, %L, 'no-such-item', 'Ghost item')$$,
    (select org_a from actors), (select south_insp from actors))), 'no error'), '%item%',
  'nor is told, naming the inspection at South''s site and an item key, whether its template has that item');
select unalike(coalesce(tests.error_of(format($$insert into public.actions (org_id, site_id, inspection_id, title) values (%L, %L, %L, 'Wrong site')$$,
    (select org_a from actors), (select north_site from actors), (select south_insp from actors))), 'no error'), '%site of the inspection%',
  'nor, naming it with North''s site, that the inspection is at another site');
select isnt(tests.error_of(format($$insert into public.schedule_sites (schedule_id, site_id) values (%L, %L)$$,
    (select schedule from actors), (select closed_site from actors))), null, 'it adds the archived South site to no schedule');
select unalike(tests.error_of(format($$insert into public.schedule_sites (schedule_id, site_id) values (%L, %L)$$,
    (select schedule from actors), (select closed_site from actors))), '%archived%', 'and is not told that it is archived');
select tests.act_as((select l_inspector from actors));
select unalike(coalesce(tests.error_of(format($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
    values (%L, %L, 'no-such-item', %L, 'image/jpeg', 10)$$, (select org_a from actors), (select south_insp from actors),
    (select org_a || '/' || south_insp || '/no-such-item/' || gen_random_uuid() || '.jpg' from actors))), 'no error'), '%item%',
  'a limited inspector checking in a photo at South''s inspection is not told about its items');
select unalike(coalesce(tests.error_of(format($$insert into public.answers (org_id, inspection_id, item_key, value) values (%L, %L, 'no-such-item', '"pass"')$$,
    (select org_a from actors), (select south_insp from actors))), 'no error'), '%item%',
  'nor answering it');

-- And the org-wide as before: an org-wide manager is told, about the same archived site.
select tests.act_as((select manager from actors));
select matches(tests.error_of(format($$insert into public.inspections (org_id, site_id, template_id) values (%L, %L, %L)$$,
    (select org_a from actors), (select closed_site from actors), (select template from actors))), 'archived',
  'an org-wide manager scheduling there is told that the site is archived');

select * from finish();
rollback;
