-- Inspections and their answers by site group (issue 27 part 2): a limited inspector, manager,
-- viewer and key read exactly the inspections and answers at their groups' sites (descendants
-- included); they schedule, fill in, submit and cancel only there, both sides (`using`: 0 rows;
-- `with check`: the error); assigned only to someone who sees the site; moving the site out of
-- the group ends all of it at the next statement; org-wide members, owners and admins as before.
begin;
select plan(47);

create temp table actors on commit drop as select * from tests.create_site_group_world('243');
insert into public.answers (org_id, inspection_id, item_key, value)
  select org_a, i, 'floor', '"pass"' from actors, unnest(array[north_insp, pier_insp, south_insp, loose_insp]) i;
grant select on actors to anon, authenticated;
create temp table names on commit drop as
  select north_insp as id, 'north' as name from actors union all select pier_insp, 'pier' from actors
  union all select south_insp, 'south' from actors union all select loose_insp, 'loose' from actors;
grant select on names to anon, authenticated;

-- Where the inspections and the answers the caller reads are (by their inspection's fixture name).
create function pg_temp.inspections_read() returns text language sql as $$
  select coalesce(string_agg(coalesce(n.name, 'new at ' || s.name), ', ' order by coalesce(n.name, 'new at ' || s.name)), '')
  from public.inspections i join public.sites s on s.id = i.site_id left join names n on n.id = i.id
  where i.org_id = (select org_a from actors);
$$;
create function pg_temp.answers_read() returns text language sql as $$
  select coalesce(string_agg(n.name, ', ' order by n.name), '')
  from public.answers a join names n on n.id = a.inspection_id;
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Reading.
select tests.act_as((select owner from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south',
  'the owner reads every inspection and answer');
select tests.act_as((select admin from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south', 'so does an admin');
select tests.act_as((select manager from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south', 'and an org-wide manager');
select tests.act_as((select inspector from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south', 'and an org-wide inspector');
select tests.act_as((select viewer from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south', 'and an org-wide viewer');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'loose, north, pier, south / loose, north, pier, south', 'and an org-wide key');
select tests.act_as((select l_manager from actors));
select is(pg_temp.inspections_read(), 'north, pier', 'a manager limited to North reads the inspections at North''s and Pier''s sites only');
select is(pg_temp.answers_read(), 'north, pier', 'and their answers only');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'north, pier / north, pier', 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'north, pier / north, pier', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), 'north, pier / north, pier', 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.inspections_read() || ' / ' || pg_temp.answers_read(), ' / ', 'the owner of B reads none of A''s');

-- Scheduling: a limited manager or key at its sites only.
select tests.act_as((select l_manager from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, pier_site, template from actors$$,
  'a manager limited to North schedules an inspection at Pier''s site');
select is(tests.error_of($$insert into public.inspections (org_id, site_id, template_id) select org_a, south_site, template from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'but not at South''s (as for another organization''s)');
select is(tests.error_of($$insert into public.inspections (org_id, site_id, template_id) select org_a, loose_site, template from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'nor at the ungrouped site (as for another organization''s)');
select tests.act_as_api_key((select k_limited from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, north_site, template from actors$$,
  'a limited manager key schedules one at North''s site');
select is(tests.error_of($$insert into public.inspections (org_id, site_id, template_id) select org_a, south_site, template from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'but not at South''s (as for another organization''s)');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, south_site, template from actors$$,
  'an org-wide manager schedules one at South''s site');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.inspections_read(), 'new at North kitchen, new at Pier kiosk, north, pier', 'the limited viewer reads the new ones at its sites, not the one at South''s');

-- Filling in: answers at its sites only.
select tests.act_as((select l_inspector from actors));
select is(tests.outcome($$update public.answers set note = 'Swept' where inspection_id = (select north_insp from actors)$$), '1 rows', 'the limited inspector changes an answer at North''s site');
select is(tests.outcome($$update public.answers set note = 'Swept' where inspection_id = (select south_insp from actors)$$), '0 rows', 'but not at South''s (0 rows)');
select is(tests.outcome($$update public.answers set note = 'Swept' where inspection_id = (select loose_insp from actors)$$), '0 rows', 'nor at the ungrouped site (0 rows)');
select tests.reset_role();
delete from public.answers where item_key = 'floor' and inspection_id in (select pier_insp from actors union all select south_insp from actors);
select tests.act_as((select l_inspector from actors));
select lives_ok($$insert into public.answers (org_id, inspection_id, item_key, value) select org_a, pier_insp, 'floor', '"fail"' from actors$$,
  'it answers at Pier''s site');
select throws_ok($$insert into public.answers (org_id, inspection_id, item_key, value) select org_a, south_insp, 'floor', '"fail"' from actors$$,
  '42501', null, 'but not at South''s');
select tests.act_as_api_key((select k_limited from actors));
select throws_ok($$insert into public.answers (org_id, inspection_id, item_key, value) select org_a, south_insp, 'floor', '"pass"' from actors$$,
  '42501', null, 'nor does the limited key');
select is(tests.outcome($$update public.answers set note = 'By key' where inspection_id = (select loose_insp from actors)$$), '0 rows', 'which changes no answer at the ungrouped site (0 rows)');
select tests.act_as((select l_viewer from actors));
select is(tests.outcome($$update public.answers set note = 'By viewer' where inspection_id = (select north_insp from actors)$$), '0 rows', 'a limited viewer changes no answer, not even at North''s (0 rows)');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.answers (org_id, inspection_id, item_key, value) select org_a, south_insp, 'floor', '"pass"' from actors$$,
  'an org-wide inspector answers at South''s site');
select tests.reset_role();
select results_eq($$select n.name, a.value #>> '{}', a.note from public.answers a join names n on n.id = a.inspection_id order by n.name$$,
  $$values ('loose'::text, 'pass'::text, null::text), ('north', 'pass', 'Swept'), ('pier', 'fail', null), ('south', 'pass', null)$$,
  'the answers are as the allowed writes left them');

-- Submitting and canceling: only there.
select tests.act_as((select l_inspector from actors));
select is(tests.outcome($$update public.inspections set status = 'submitted' where id = (select south_insp from actors)$$), '0 rows', 'the limited inspector submits nothing at South''s site (0 rows)');
select is(tests.outcome($$update public.inspections set status = 'submitted' where id = (select north_insp from actors)$$), '1 rows', 'but submits the inspection at North''s');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.inspections set status = 'canceled' where id = (select south_insp from actors)$$), '0 rows', 'the limited manager cancels nothing at South''s site (0 rows)');
select is(tests.outcome($$update public.inspections set title = 'Renamed' where id = (select loose_insp from actors)$$), '0 rows', 'nor renames the one at the ungrouped site (0 rows)');
select is(tests.outcome($$update public.inspections set status = 'canceled' where id = (select pier_insp from actors)$$), '1 rows', 'but cancels the one at Pier''s');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.outcome($$update public.inspections set title = 'By key' where id = (select south_insp from actors)$$), '0 rows', 'the limited key renames nothing at South''s site (0 rows)');
select tests.act_as((select l_viewer from actors));
select is(tests.outcome($$update public.inspections set title = 'By viewer' where id = (select north_insp from actors)$$), '0 rows', 'a limited viewer changes no inspection (0 rows)');
select tests.reset_role();
select results_eq($$select n.name, i.status::text, i.title like '%Renamed' or i.title like 'By %' from public.inspections i join names n on n.id = i.id order by n.name$$,
  $$values ('loose'::text, 'in_progress'::text, false), ('north', 'submitted', false), ('pier', 'canceled', false), ('south', 'in_progress', false)$$,
  'only the allowed moves were made');

-- Assigning: only to someone who sees the site (sql27's decision, docs/site-groups.md, "Assignees").
select tests.act_as((select manager from actors));
select is(tests.error_of($$update public.inspections set assignee_id = (select l_inspector from actors) where id = (select south_insp from actors)$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member who can see this site."}',
  'an org-wide manager cannot assign the inspection at South''s site to the inspector limited to North');
select is(tests.outcome($$update public.inspections set assignee_id = (select l_inspector from actors)
    where site_id = (select north_site from actors) and id <> (select north_insp from actors)$$), '1 rows',
  'but assigns it the one scheduled at North''s site');
select tests.act_as((select l_manager from actors));
select is(tests.error_of($$insert into public.inspections (org_id, site_id, template_id, assignee_id) select org_a, pier_site, template, inspector from actors$$),
  null, 'a limited manager schedules one at Pier''s site for the org-wide inspector');

-- Moving the site out of North ends it all at the next statement.
select tests.act_as((select manager from actors));
update public.inspections set status = 'changes_requested' where id = (select north_insp from actors);
update public.inspections set status = 'in_progress' where id = (select north_insp from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.inspections_read(), 'new at North kitchen, new at Pier kiosk, new at Pier kiosk, north, pier', 'before the move the limited inspector reads North''s inspection');
select tests.act_as((select owner from actors));
update public.sites set group_id = (select south from actors) where id = (select north_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.inspections_read(), 'new at Pier kiosk, new at Pier kiosk, pier', 'after it, at once, neither North''s inspections');
select is(pg_temp.answers_read(), 'pier', 'nor their answers');
select is(tests.outcome($$update public.answers set note = 'Too late' where inspection_id = (select north_insp from actors)$$), '0 rows', 'and it changes none of them (0 rows)');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.inspections_read(), 'new at Pier kiosk, new at Pier kiosk, pier', 'the limited key no longer reads them either');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.inspections set status = 'canceled' where id = (select north_insp from actors)$$), '0 rows', 'nor can the limited manager cancel North''s (0 rows)');
select tests.act_as((select viewer from actors));
select is(pg_temp.inspections_read(), 'loose, new at North kitchen, new at Pier kiosk, new at Pier kiosk, new at South depot, north, pier, south',
  'the org-wide viewer reads every inspection throughout');

select * from finish();
rollback;
