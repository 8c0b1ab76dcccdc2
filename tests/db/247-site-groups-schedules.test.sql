-- Schedules by site group (issue 27 part 2; the contract's "Schedules"): a limited member or key
-- reads a schedule when at least one of its sites is theirs, and of it only their sites'
-- schedule_sites rows and occurrences; a limited manager (or key) creates a schedule (as the api
-- does: the row, returning its id, then its sites) only with sites of its groups, and changes,
-- pauses or deletes one only when every site of it is theirs, both sides (`using`: 0 rows;
-- `with check`: the error); moving a site out takes that right away at the next statement;
-- assignees and rotations only of people who see every site of it; reminders of an occurrence
-- outside go to no limited inspector, and a limited manager's missed digest lists its sites' only;
-- org-wide members as before.
begin;
select plan(37);

create temp table actors on commit drop as select * from tests.create_site_group_world('247');
alter table actors add column north_rounds uuid, add column south_rounds uuid, add column mixed_rounds uuid;
-- North's and South's rounds far in the future (no occurrences); the mixed one daily from tomorrow.
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, v.name, template, 'FREQ=WEEKLY;BYDAY=MO', '2099-01-05', '08:00', 'P1D' from actors, (values ('North rounds'), ('South rounds')) v (name);
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Mixed rounds', template, 'FREQ=DAILY', current_date + 1, '08:00', 'P1D' from actors;
update actors set north_rounds = (select id from public.schedules where name = 'North rounds'),
                  south_rounds = (select id from public.schedules where name = 'South rounds'),
                  mixed_rounds = (select id from public.schedules where name = 'Mixed rounds');
insert into public.schedule_sites (schedule_id, site_id)
  select north_rounds, north_site from actors union all select north_rounds, pier_site from actors
  union all select south_rounds, south_site from actors
  union all select mixed_rounds, north_site from actors union all select mixed_rounds, south_site from actors;
grant select on actors to anon, authenticated;
create temp table site_names on commit drop as
  select s.id, s.name from public.sites s where s.org_id = (select org_a from actors);
grant select on site_names to anon, authenticated;

create function pg_temp.schedules_read() returns text language sql as $$
  select coalesce(string_agg(s.name, ', ' order by s.name), '') from public.schedules s where s.org_id = (select org_a from actors);
$$;
-- Each schedule the caller reads with the sites of it it reads: 'Mixed rounds: North kitchen; …'.
create function pg_temp.schedule_sites_read() returns text language sql as $$
  select coalesce(string_agg(x.line, '; ' order by x.line), '') from (
    select s.name || ': ' || string_agg(n.name, ', ' order by n.name) as line
    from public.schedule_sites ss join public.schedules s on s.id = ss.schedule_id join site_names n on n.id = ss.site_id
    group by s.name) x;
$$;
-- The sites of the mixed schedule's occurrences the caller reads.
create function pg_temp.occurrence_sites_read() returns text language sql as $$
  select coalesce(string_agg(distinct n.name, ', ' order by n.name), '')
  from public.inspections i join site_names n on n.id = i.site_id where i.schedule_id = (select mixed_rounds from actors);
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;
select ok((select count(distinct site_id) = 2 from public.inspections where schedule_id = (select mixed_rounds from actors)),
  'the mixed schedule has occurrences at North''s and at South''s site');

-- Reading.
select tests.act_as((select owner from actors));
select is(pg_temp.schedules_read(), 'Mixed rounds, North rounds, South rounds', 'the owner reads every schedule');
select tests.act_as((select viewer from actors));
select is(pg_temp.schedule_sites_read(), 'Mixed rounds: North kitchen, South depot; North rounds: North kitchen, Pier kiosk; South rounds: South depot',
  'an org-wide viewer reads every schedule''s sites');
select is(pg_temp.occurrence_sites_read(), 'North kitchen, South depot', 'and every occurrence');
select tests.act_as((select l_manager from actors));
select is(pg_temp.schedules_read(), 'Mixed rounds, North rounds', 'a manager limited to North reads the schedules with a site of its own, not South''s');
select is(pg_temp.schedule_sites_read(), 'Mixed rounds: North kitchen; North rounds: North kitchen, Pier kiosk', 'and of them only its own sites');
select is(pg_temp.occurrence_sites_read(), 'North kitchen', 'and only the occurrences at its own site');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.schedules_read() || ' / ' || pg_temp.schedule_sites_read() || ' / ' || pg_temp.occurrence_sites_read(),
  'Mixed rounds, North rounds / Mixed rounds: North kitchen; North rounds: North kitchen, Pier kiosk / North kitchen', 'so does a limited inspector');
select is((select string_agg(distinct n.name, ', ') from private.schedule_occurrences((select mixed_rounds from actors), now(), now() + interval '14 days') o
           join site_names n on n.id = o.site_id), 'North kitchen', 'whose preview of the mixed schedule''s occurrences has only its own site');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.schedules_read() || ' / ' || pg_temp.schedule_sites_read() || ' / ' || pg_temp.occurrence_sites_read(),
  'Mixed rounds, North rounds / Mixed rounds: North kitchen; North rounds: North kitchen, Pier kiosk / North kitchen', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.schedules_read() || ' / ' || pg_temp.schedule_sites_read() || ' / ' || pg_temp.occurrence_sites_read(),
  'Mixed rounds, North rounds / Mixed rounds: North kitchen; North rounds: North kitchen, Pier kiosk / North kitchen', 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.schedules_read() || ' / ' || pg_temp.schedule_sites_read(), ' / ', 'the owner of B reads none of A''s');

-- Creating, as the api does: the row (returning its id), then its sites.
create temp table made (id uuid) on commit drop;
grant all on made to authenticated;
select tests.act_as((select l_manager from actors));
select lives_ok($$with created as (insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
    select org_a, 'Harbour rounds', template, 'FREQ=WEEKLY;BYDAY=TU', '2099-01-06', '09:00', 'P1D' from actors returning id)
  insert into made select id from created$$, 'a manager limited to North creates a schedule, reading back its id');
select lives_ok($$insert into public.schedule_sites (schedule_id, site_id) select made.id, pier_site from made, actors$$,
  'and gives it Pier''s site');
select is(tests.error_of($$insert into public.schedule_sites (schedule_id, site_id) select made.id, south_site from made, actors$$),
  'validation_failed {"field" : "site_ids", "message" : "Choose sites of this organization."}',
  'but not South''s (as for another organization''s)');
select is(tests.error_of($$insert into public.schedule_sites (schedule_id, site_id) select made.id, loose_site from made, actors$$),
  'validation_failed {"field" : "site_ids", "message" : "Choose sites of this organization."}',
  'nor the ungrouped site (as for another organization''s)');
select is(pg_temp.schedule_sites_read(), 'Harbour rounds: Pier kiosk; Mixed rounds: North kitchen; North rounds: North kitchen, Pier kiosk',
  'it reads its new schedule with Pier''s site alone');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.error_of($$insert into public.schedule_sites (schedule_id, site_id) select north_rounds, south_site from actors$$),
  'validation_failed {"field" : "site_ids", "message" : "Choose sites of this organization."}',
  'a limited key adds no South site to North''s rounds (as for another organization''s)');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.schedule_sites (schedule_id, site_id) select north_rounds, loose_site from actors$$,
  'an org-wide manager adds the ungrouped site to North''s rounds');
delete from public.schedule_sites where schedule_id = (select north_rounds from actors) and site_id = (select loose_site from actors);

-- Changing: only a schedule every site of which is theirs.
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.schedules set name = 'North walk' where id = (select north_rounds from actors)$$), '1 rows', 'the limited manager renames North''s rounds (all its sites are North''s)');
select is(tests.outcome($$update public.schedules set name = 'Mixed walk' where id = (select mixed_rounds from actors)$$), '0 rows', 'but not the mixed schedule, which has South''s site too (0 rows)');
select is(tests.outcome($$update public.schedules set paused_at = now() where id = (select mixed_rounds from actors)$$), '0 rows', 'nor pauses it (0 rows)');
select is(tests.outcome($$update public.schedules set deleted_at = now() where id = (select south_rounds from actors)$$), '0 rows', 'nor deletes South''s rounds (0 rows)');
select is(tests.outcome($$delete from public.schedule_sites where schedule_id = (select mixed_rounds from actors) and site_id = (select south_site from actors)$$), '0 rows', 'nor takes South''s site off the mixed schedule (0 rows)');
select matches(tests.error_of($$insert into public.schedule_sites (schedule_id, site_id) select mixed_rounds, pier_site from actors$$),
  '^forbidden', 'nor adds a site of its own to the mixed schedule (forbidden: not every site of it is its own)');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.outcome($$update public.schedules set paused_at = now() where id = (select mixed_rounds from actors)$$), '0 rows', 'the limited key pauses not the mixed schedule (0 rows)');
select tests.act_as((select manager from actors));
select is(tests.outcome($$update public.schedules set name = 'Mixed walk' where id = (select mixed_rounds from actors)$$), '1 rows', 'an org-wide manager renames it');
select tests.reset_role();
select results_eq($$select name, paused_at is null, deleted_at is null from public.schedules where org_id = (select org_a from actors) order by name$$,
  $$values ('Harbour rounds'::text, true, true), ('Mixed walk', true, true), ('North walk', true, true), ('South rounds', true, true)$$,
  'only the allowed changes were made');

-- Reminders of an unassigned occurrence go to the inspectors who see its site.
select is((select string_agg(distinct n.name, ', ' order by n.name) from private.occurrence_reminder_recipients(array(
    select i.id from public.inspections i where i.schedule_id = (select mixed_rounds from actors))) r
  join public.inspections i on i.id = r.inspection_id join site_names n on n.id = i.site_id
  where r.user_id = (select l_inspector from actors)), 'North kitchen', 'the limited inspector is reminded of the mixed schedule''s occurrences at North''s site only');
select is((select string_agg(distinct n.name, ', ' order by n.name) from private.occurrence_reminder_recipients(array(
    select i.id from public.inspections i where i.schedule_id = (select mixed_rounds from actors))) r
  join public.inspections i on i.id = r.inspection_id join site_names n on n.id = i.site_id
  where r.user_id = (select inspector from actors)), 'North kitchen, South depot', 'the org-wide inspector of those at both sites');

-- Assignees: only people who see every site of the schedule (sql27's decision, docs/site-groups.md, "Assignees").
select tests.act_as((select manager from actors));
select is(tests.error_of($$update public.schedules set assignee_id = (select l_inspector from actors) where id = (select mixed_rounds from actors)$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member who can see every site of this schedule."}',
  'the mixed schedule cannot be assigned to the inspector limited to North');
select is(tests.error_of($$update public.schedules set rotation_user_ids = array[(select inspector from actors), (select l_inspector from actors)] where id = (select mixed_rounds from actors)$$),
  'validation_failed {"field" : "rotation_user_ids", "message" : "Choose members who can see every site of this schedule."}',
  'nor rotated through it');
select is(tests.outcome($$update public.schedules set assignee_id = (select l_inspector from actors) where id = (select north_rounds from actors)$$), '1 rows',
  'North''s rounds can');
select is(tests.error_of($$insert into public.schedule_sites (schedule_id, site_id) select north_rounds, south_site from actors$$),
  'validation_failed {"field" : "site_ids", "message" : "Choose sites the schedule''s assignees can see."}',
  'and then take no site its assignee does not see');
update public.schedules set assignee_id = null where id = (select north_rounds from actors);

-- The managers' digest of missed occurrences: a limited manager's lists its sites' only. Day d, 40
-- days ahead, the other schedules paused: daily at 07:00, due in an hour, at North's and South's sites.
select tests.reset_role();
update public.schedules set paused_at = now() where org_id = (select org_a from actors);
create temp table t on commit drop as select current_date + 40 as d;
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Dawn rounds', template, 'FREQ=DAILY', (select d from t), '07:00', 'PT1H' from actors;
insert into public.schedule_sites (schedule_id, site_id)
  select s.id, v.site from public.schedules s, actors a, lateral (values (a.north_site), (a.south_site)) v (site) where s.name = 'Dawn rounds';
select private.materialise_schedules(((select d from t) - 1) + time '00:00', org_a) from actors;
select private.note_missed_occurrences(((select d from t) + 1) + time '05:00');
select private.queue_reminders(((select d from t) + 1) + time '06:01', org_a) from actors;
select results_eq($$select o.user_id, o.digest_count, (select string_agg(n.name, ', ' order by n.name) from public.inspections i join site_names n on n.id = i.site_id
                      where i.id = any (o.digest_inspection_ids))
    from private.reminder_outbox o where o.kind = 'missed_digest' and o.org_id = (select org_a from actors) and o.user_id in (select manager from actors union all select l_manager from actors)
    order by o.digest_count$$,
  $$select l_manager, 1, 'North kitchen'::text from actors union all select manager, 2, 'North kitchen, South depot' from actors$$,
  'day d''s digest lists both missed occurrences to the org-wide manager, and to the limited manager only the one at North''s site');
select tests.act_as((select l_manager from actors));

-- Moving North's site out: the limited manager no longer manages North's rounds, nor reads the mixed schedule.
select tests.act_as((select owner from actors));
update public.sites set group_id = null where id = (select north_site from actors);
select tests.act_as((select l_manager from actors));
select is(pg_temp.schedule_sites_read(), 'Harbour rounds: Pier kiosk; North walk: Pier kiosk', 'with North''s site moved out, the limited manager reads neither it nor the mixed schedule');
select is(tests.outcome($$update public.schedules set name = 'North loop' where id = (select north_rounds from actors)$$), '0 rows', 'and can no longer rename North''s rounds, which still have that site (0 rows)');

select * from finish();
rollback;
