-- A schedule's occurrences as inspections (issue 26 parts 3 and 4): made at once when a schedule
-- gets its sites, resumes or changes, in the same transaction; idempotent (one per schedule, site
-- and occurrence, however often the materialiser runs); the background run catches up from where
-- it stopped, with the time it treats as now passed in; titles, due times, the template's latest
-- version, one assignee or a rotation taken in turn at each site; an edit changes future
-- occurrences only (the not yet started ones updated in place or replaced, started ones never
-- touched); pausing, deleting, taking a site off and archiving it cancel the future ones with the
-- reason, audited; an occurrence a person canceled is never made again; missed is derived, stamped
-- and sent as inspection.missed once; a late submission counts as late; the first submission is kept.
-- (Two materialisers at once: tests/api/schedules/materialise-concurrently.test.ts, two connections.)
begin;
select plan(58);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('221o') m, tests.create_published_template(m.org_a,
    '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p;
alter table actors add column pantry uuid, add column auckland uuid, add column other_template uuid, add column daily uuid,
  add column rotating uuid, add column first_future uuid, add column started uuid, add column canceled_by_hand uuid;
insert into public.sites (org_id, name) select org_a, 'Pantry' from actors;
insert into public.sites (org_id, name, timezone) select org_a, 'Auckland kitchen', 'Pacific/Auckland' from actors;
update actors set pantry = (select id from public.sites where name = 'Pantry'), auckland = (select id from public.sites where name = 'Auckland kitchen');
insert into public.templates (org_id, name, definition) select org_a, 'Fire walk', (select definition from public.templates where id = template) from actors;
insert into public.template_versions (template_id) select id from public.templates where name = 'Fire walk';
update actors set other_template = (select id from public.templates where name = 'Fire walk');
insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://hooks.example.test/all', 'whsec_' || repeat('O', 32) from actors;
grant select, update on actors to anon, authenticated;

-- What a daily 08:00 rule starting tomorrow has within the 14 days ahead, counted without the
-- database's recurrence functions (the session's time zone, like the sites', is UTC).
create temp table expected on commit drop as
  select count(*) filter (where d + time '08:00' < now() + interval '14 days')::int as per_site,
         count(*) filter (where d + time '10:15' < now() + interval '14 days')::int as per_site_at_10_15
  from generate_series(current_date + 1, current_date + 15, interval '1 day') d;
grant select on expected to authenticated;

-- Made at once, as the manager adds the schedule's sites.
select tests.act_as((select manager from actors));
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Daily', template, 'FREQ=DAILY', current_date + 1, '08:00', 'P2D' from actors;
update actors set daily = (select id from public.schedules where name = 'Daily');
insert into public.schedule_sites (schedule_id, site_id) select daily, site from actors union all select daily, pantry from actors;
select is((select count(*)::int from public.inspections where schedule_id = (select daily from actors)), 2 * (select per_site from expected),
  'adding two sites to a daily schedule makes every occurrence of the next 14 days at each, at once');
select is((select count(*)::int from public.inspections i where i.schedule_id = (select daily from actors)
    and i.status = 'scheduled' and i.due_at = i.occurrence_at + interval '2 days' and i.occurrence_at::time = '08:00'
    and i.template_version_id = (select version_id from actors) and i.assignee_id is null),
  2 * (select per_site from expected), 'scheduled, at 08:00 local, due two days later, on the latest version, for anyone to claim');
select is((select title from public.inspections where schedule_id = (select daily from actors) and site_id = (select pantry from actors) order by occurrence_at limit 1),
  'Audit — Pantry — ' || to_char(current_date + 1, 'YYYY-MM-DD'), 'titled by the default pattern, with the local date');
select ok((select max(occurrence_at) < now() + interval '14 days' and min(occurrence_at) > now() from public.inspections where schedule_id = (select daily from actors)),
  'nothing beyond the horizon, nothing before the start');
select is((select count(*)::int from public.audit_log l join public.inspections i on i.id = l.entity_id
  where i.schedule_id = (select daily from actors) and l.action = 'insert' and l.actor_kind = 'user' and l.actor_user_id = (select manager from actors)),
  2 * (select per_site from expected), 'each is audited as made by the manager who added the sites');
select tests.reset_role();
select is((select count(*)::int from public.webhook_events e join public.inspections i on i.id = e.entity_id
  where i.schedule_id = (select daily from actors) and e.type = 'inspection.created'), 2 * (select per_site from expected),
  'and sent to webhooks as inspection.created');

-- Idempotent: running again, by the background run or directly, makes nothing twice.
select is(private.materialise_schedules(now(), (select org_a from actors)), 0, 'the background run right after makes nothing');
select is(private.materialise_schedules(now(), (select org_a from actors)), 0, 'nor does a second');
select is((select made from private.materialise_schedule((select daily from actors), now(), null, true)), 0,
  'nor the materialiser asked again for everything still open');
select is((select materialised_until from private.schedule_progress where schedule_id = (select daily from actors)), now() + interval '14 days',
  'the schedule''s progress says everything before the horizon exists');

-- The background run with a later "now": only the new days, from where it stopped.
select is(private.materialise_schedules(now() + interval '3 days', (select org_a from actors)), 6, 'three days later it makes three more days at two sites');
select is(private.materialise_schedules(now() + interval '3 days', (select org_a from actors)), 0, 'and nothing the second time');
select is((select count(*)::int from (select site_id, occurrence_at from public.inspections where schedule_id = (select daily from actors)
  group by 1, 2 having count(*) > 1) twice), 0, 'no occurrence exists twice');

-- A budget looks at each site's next occurrence first, and says until when all exist.
select results_eq($$select made, complete_until < now() + interval '34 days' from private.materialise_schedule((select daily from actors), now() + interval '20 days', now() + interval '17 days', false, null, 3)$$,
  $$values (3, true)$$, 'with a budget of three it makes three (each site''s next, then one more) and says where it stopped');

-- A rotation, taken in turn at each site: the nth occurrence of the rule goes to person (n - 1) mod 2.
select tests.act_as((select manager from actors));
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after, rotation_user_ids, title_pattern)
  select org_a, 'Rotating', template, 'FREQ=WEEKLY;BYDAY=MO,TH', current_date + 1, '09:00', 'PT8H', array[inspector, manager], '{site} {date} ({template})' from actors;
update actors set rotating = (select id from public.schedules where name = 'Rotating');
insert into public.schedule_sites (schedule_id, site_id) select rotating, site from actors union all select rotating, auckland from actors;
select tests.reset_role();
select is((select count(*)::int from (
    select i.site_id, i.assignee_id, o.n from public.inspections i
    join private.schedule_occurrences((select rotating from actors), now(), now() + interval '14 days') o
      on o.site_id = i.site_id and o.occurrence_at = i.occurrence_at
    where i.schedule_id = (select rotating from actors)
  ) x where x.assignee_id is distinct from case when x.n % 2 = 1 then (select inspector from actors) else (select manager from actors) end), 0,
  'every occurrence goes to the rotation''s person for its number, at each site alike');
select ok((select count(distinct assignee_id) = 2 from public.inspections where schedule_id = (select rotating from actors)), 'both people have turns');
select is((select title from public.inspections where schedule_id = (select rotating from actors) and site_id = (select auckland from actors) order by occurrence_at limit 1),
  (select 'Auckland kitchen ' || to_char(min(o.local_at), 'YYYY-MM-DD') || ' (Audit)' from private.schedule_occurrences((select rotating from actors), now(), now() + interval '14 days') o
   where o.site_id = (select auckland from actors)), 'the pattern is filled in with the site, its local date and the template');
select ok((select bool_and(occurrence_at = ((occurrence_at at time zone 'Pacific/Auckland')::date + time '09:00') at time zone 'Pacific/Auckland')
  from public.inspections where schedule_id = (select rotating from actors) and site_id = (select auckland from actors)), 'the Auckland site''s occurrences are at 09:00 in Auckland');
-- Someone who can no longer fill in inspections there leaves their turn to anyone.
delete from public.memberships where org_id = (select org_a from actors) and user_id = (select inspector from actors);
select is(private.materialise_schedules(now() + interval '10 days', (select org_a from actors)) > 0, true, 'later occurrences are made');
select ok(not exists (select 1 from public.inspections where schedule_id = (select rotating from actors) and occurrence_at > now() + interval '14 days'
  and assignee_id = (select inspector from actors)), 'none of them goes to the inspector who left');
select ok(exists (select 1 from public.inspections where schedule_id = (select rotating from actors) and occurrence_at > now() + interval '14 days'
  and assignee_id is null), 'their turns are for anyone to claim');
insert into public.memberships (org_id, user_id, role) select org_a, inspector, 'inspector' from actors;

-- Late: an occurrence due in the past, submitted now, counts as late and is no longer missed.
create temp table late on commit drop as select null::uuid as schedule, null::uuid as id;
grant select on late to authenticated;
select tests.act_as((select manager from actors));
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Since last week', template, 'FREQ=DAILY', current_date - 10, '06:00', 'PT1H' from actors;
select tests.reset_role();
update late set schedule = (select id from public.schedules where name = 'Since last week');
insert into public.schedule_sites (schedule_id, site_id) select schedule, (select site from actors) from late;
select is((select made from private.materialise_schedule((select schedule from late), now() - interval '3 days', null, true)),
  (select count(*)::int from generate_series(current_date - 3, current_date + 11, interval '1 day') d
   where d + time '07:00' > now() - interval '3 days' and d + time '06:00' < now() + interval '11 days'
     and not (d + time '07:00' > now() and d + time '06:00' < now() + interval '14 days')),
  'the materialiser asked three days back makes what was open then and not made since');
update late set id = (select id from public.inspections where schedule_id = (select schedule from late) and due_at < now() order by due_at limit 1);
select ok(private.occurrence_missed((select schedule from late), 'scheduled', (select due_at from public.inspections where id = (select id from late)), null, now()),
  'one of them is missed now');
select tests.act_as((select manager from actors));
update public.inspections set status = 'in_progress' where id = (select id from late);
insert into public.answers (inspection_id, item_key, value) select id, 'clean', '"pass"' from late;
update public.inspections set status = 'submitted' where id = (select id from late);
select results_eq($$select first_submitted_at > due_at, private.occurrence_missed(schedule_id, status, due_at, first_submitted_at, now()) from public.inspections where id = (select id from late)$$,
  $$values (true, false)$$, 'it can still be started and submitted: done late, no longer missed');
select tests.reset_role();
-- As if that submission had been an hour ago: a resubmission after changes keeps the first.
set local session_replication_role = replica;
update public.inspections set first_submitted_at = now() - interval '1 hour' where id = (select id from late);
set local session_replication_role = origin;
select tests.act_as((select manager from actors));
update public.inspections set status = 'changes_requested' where id = (select id from late);
update public.inspections set status = 'in_progress' where id = (select id from late);
update public.inspections set status = 'submitted' where id = (select id from late);
select results_eq($$select first_submitted_at, submitted_at from public.inspections where id = (select id from late)$$,
  $$select now() - interval '1 hour', now()$$, 'a second submission after changes keeps the first submission''s time');
select tests.reset_role();

-- An edit changes the future only: not yet started ones follow it, started ones stay.
update actors set first_future = (select id from public.inspections where schedule_id = (select daily from actors) and site_id = (select site from actors)
  order by occurrence_at limit 1 offset 1);
update actors set started = (select id from public.inspections where schedule_id = (select daily from actors) and site_id = (select site from actors)
  order by occurrence_at limit 1);
set local session_replication_role = replica;
update public.inspections set status = 'in_progress', started_at = now() where id = (select started from actors);
set local session_replication_role = origin;
select tests.act_as((select manager from actors));
update public.schedules set title_pattern = '{site}: {date}', assignee_id = inspector from actors where id = daily;
select results_eq($$select title, assignee_id, status from public.inspections where id = (select first_future from actors)$$,
  $$select 'Kitchen: ' || to_char(current_date + 2, 'YYYY-MM-DD'), (select inspector from actors), 'scheduled'::public.inspection_status$$,
  'a new title pattern and assignee update the not yet started occurrences in place');
select results_eq($$select title, assignee_id from public.inspections where id = (select started from actors)$$,
  $$select 'Audit — Kitchen — ' || to_char(current_date + 1, 'YYYY-MM-DD'), null::uuid$$, 'a started one is not touched');
update public.schedules set time_of_day = '10:15' from actors where id = daily;
select results_eq($$select status, canceled_reason from public.inspections where id = (select first_future from actors)$$,
  $$values ('canceled'::public.inspection_status, 'schedule changed'::text)$$, 'a new time of day replaces the not yet started ones: canceled, saying why');
select ok((select count(*) > 0 and bool_and(occurrence_at::time = '10:15' and status = 'scheduled' and title like 'Kitchen: %')
  from public.inspections where schedule_id = (select daily from actors) and site_id = (select site from actors) and canceled_reason is null
    and id <> (select started from actors)), 'and made anew at the new time');
select results_eq($$select status, occurrence_at::time from public.inspections where id = (select started from actors)$$,
  $$values ('in_progress'::public.inspection_status, time '08:00')$$, 'the started one keeps its time');
update public.schedules set template_id = other_template from actors where id = daily;
select ok((select bool_and(template_id = (select other_template from actors)) from public.inspections
  where schedule_id = (select daily from actors) and status = 'scheduled' and canceled_reason is null), 'a new template replaces the not yet started ones');
select ok(exists (select 1 from public.audit_log l join public.inspections i on i.id = l.entity_id
  where i.schedule_id = (select daily from actors) and l.after ->> 'canceled_reason' = 'schedule changed' and l.actor_user_id = (select manager from actors)),
  'the replacements'' cancellations are audited, by the manager who edited');

-- Pausing cancels the future ones not yet started; the background run leaves a paused schedule; resuming makes them again.
update actors set canceled_by_hand = (select id from public.inspections where schedule_id = (select daily from actors) and site_id = (select pantry from actors)
  and status = 'scheduled' order by occurrence_at limit 1 offset 2);
update public.inspections set status = 'canceled' where id = (select canceled_by_hand from actors);
update public.schedules set paused_at = now() from actors where id = daily;
select is((select count(*)::int from public.inspections where schedule_id = (select daily from actors) and status = 'scheduled' and occurrence_at > now()), 0,
  'pausing cancels every future occurrence not yet started');
select ok((select count(*) > 0 from public.inspections where schedule_id = (select daily from actors) and canceled_reason = 'schedule paused'),
  'saying "schedule paused"');
select is((select status from public.inspections where id = (select started from actors)), 'in_progress'::public.inspection_status, 'the started one goes on');
select tests.reset_role();
select ok((select count(*) = (select count(*) from public.inspections i join public.webhook_events e on e.entity_id = i.id and e.type = 'inspection.canceled'
  where i.schedule_id = (select daily from actors) and i.canceled_reason = 'schedule paused')
  from public.inspections where schedule_id = (select daily from actors) and canceled_reason = 'schedule paused'), 'each cancellation is an inspection.canceled event');
create temp table before_run on commit drop as select count(*) as n from public.inspections where schedule_id = (select daily from actors);
select is(private.materialise_schedules(now() + interval '5 days', (select org_a from actors)) >= 0 and (select count(*) from public.inspections where schedule_id = (select daily from actors)) = (select n from before_run),
  true, 'the background run makes nothing for a paused schedule');
select tests.act_as((select manager from actors));
update public.schedules set paused_at = null from actors where id = daily;
select is((select count(*)::int from public.inspections where schedule_id = (select daily from actors) and status = 'scheduled' and occurrence_at > now()),
  2 * (select per_site_at_10_15 from expected) - 1, 'resuming makes the future occurrences again, but the one a person canceled');
select is((select count(*)::int from public.inspections where schedule_id = (select daily from actors) and canceled_reason is null
  and occurrence_at = (select occurrence_at from public.inspections where id = (select canceled_by_hand from actors)) and site_id = (select pantry from actors)),
  1, 'that one stays canceled, and is the only one of its occurrence');

-- Sites: taking one off, archiving, restoring, moving it to another time zone.
delete from public.schedule_sites where schedule_id = (select daily from actors) and site_id = (select pantry from actors);
select is((select count(*)::int from public.inspections where schedule_id = (select daily from actors) and site_id = (select pantry from actors)
  and status = 'scheduled'), 0, 'taking a site off cancels its future occurrences');
insert into public.schedule_sites (schedule_id, site_id) select daily, auckland from actors;
select ok((select count(*) > 0 from public.inspections where schedule_id = (select daily from actors) and site_id = (select auckland from actors)),
  'adding a site makes its occurrences at once');
update public.sites set archived_at = now() where id = (select auckland from actors);
select ok((select count(*) > 0 and bool_and(status = 'canceled' and canceled_reason = 'site archived') from public.inspections
  where schedule_id = (select daily from actors) and site_id = (select auckland from actors)), 'archiving a site cancels them, saying so');
update public.sites set archived_at = null where id = (select auckland from actors);
select ok((select count(*) > 0 from public.inspections where schedule_id = (select daily from actors) and site_id = (select auckland from actors)
  and status = 'scheduled'), 'restoring it makes them again');
update public.sites set timezone = 'America/New_York' where id = (select auckland from actors);
select ok((select bool_and((occurrence_at at time zone 'America/New_York')::time = '10:15') from public.inspections
  where schedule_id = (select daily from actors) and site_id = (select auckland from actors) and status = 'scheduled'),
  'moving a site to another time zone moves its future occurrences to 10:15 there');
select tests.reset_role();

-- A template that cannot be run makes nothing.
update public.templates set status = 'archived' where id = (select other_template from actors);
select is((select made from private.materialise_schedule((select daily from actors), now() + interval '30 days', now() + interval '20 days', false)), 0,
  'a schedule whose template was archived makes nothing more');

-- Deleting cancels the future ones not yet started.
select tests.act_as((select manager from actors));
update public.schedules set deleted_at = now() from actors where id = rotating;
select results_eq($$select count(*) filter (where status <> 'canceled')::int, count(*) filter (where canceled_reason = 'schedule deleted')::int > 0
  from public.inspections where schedule_id = (select rotating from actors) and occurrence_at > now()$$,
  $$values (0, true)$$, 'deleting a schedule cancels its future occurrences, saying so');
select tests.reset_role();
select is((select made from private.materialise_schedule((select rotating from actors), now() + interval '30 days', now(), false)), 0,
  'and it makes nothing more');

-- Missed: derived at a given time, announced once. (The run is for every organization; what is
-- asserted is about this file's.)
create temp table org_a_occurrences on commit drop as
  select i.id from public.inspections i where i.org_id = (select org_a from actors) and i.schedule_id is not null;
select private.note_missed_occurrences(now());
select ok(not exists (
    select 1 from public.inspections i join org_a_occurrences o on o.id = i.id
    where private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now()) and i.missed_noted_at is null),
  'the background run stamps every occurrence missed by now (the week-old schedule''s)');
select ok((select count(*) from public.inspections i join org_a_occurrences o on o.id = i.id
  where private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now() + interval '20 days') and i.missed_noted_at is null) > 0,
  'twenty days on, more are missed and not stamped yet');
select private.note_missed_occurrences(now() + interval '20 days');
select ok(not exists (
    select 1 from public.inspections i join org_a_occurrences o on o.id = i.id
    where private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, now() + interval '20 days') and i.missed_noted_at is null),
  'twenty days on it stamps every one of them');
create temp table stamped on commit drop as
  select i.id, i.missed_noted_at from public.inspections i join org_a_occurrences o on o.id = i.id where i.missed_noted_at is not null;
select is((select count(*)::int from stamped s where (select count(*) from public.webhook_events e where e.type = 'inspection.missed' and e.entity_id = s.id) = 1),
  (select count(*)::int from stamped), 'each stamped one is sent as inspection.missed');
select private.note_missed_occurrences(now() + interval '21 days');
select ok(not exists (
    select 1 from stamped s join public.inspections i on i.id = s.id
    where i.missed_noted_at is distinct from s.missed_noted_at
       or (select count(*) from public.webhook_events e where e.type = 'inspection.missed' and e.entity_id = s.id) <> 1),
  'and only once: a later run stamps and sends none of them again');
select ok((select bool_and(private.occurrence_missed(schedule_id, status, due_at, first_submitted_at, now() + interval '20 days'))
  from public.inspections where id = (select started from actors)), 'a started one not submitted by its due time is missed too');
select ok(not private.occurrence_missed((select schedule_id from public.inspections where id = (select canceled_by_hand from actors)), 'canceled', now(), null, now() + interval '1 day'),
  'a canceled one is never missed');

-- The schedule's columns keep their meaning, whoever writes.
select throws_ok($$update public.inspections set occurrence_at = occurrence_at + interval '1 hour' where id = (select first_future from actors)$$,
  'P0001', 'forbidden', 'an occurrence''s time never changes, not even for the database owner');
select throws_ok($$update public.inspections set canceled_reason = 'schedule paused' where id = (select started from actors)$$,
  'P0001', 'forbidden', 'a reason comes only with a cancellation');
select throws_ok($$update public.inspections set missed_noted_at = now() + interval '1 day' where missed_noted_at is not null and id in (select id from public.inspections where missed_noted_at is not null limit 1)$$,
  'P0001', 'forbidden', 'missed is noted once');
select tests.act_as((select manager from actors));
select throws_ok($$update public.inspections set schedule_id = null where id = (select first_future from actors)$$,
  '42501', null, 'a manager cannot unlink an occurrence from its schedule');
select tests.reset_role();

select * from finish();
rollback;
