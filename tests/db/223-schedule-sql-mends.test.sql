-- The schedules' SQL after the review's mends (docs/schedules.md): what they change is how the
-- database does the work, not what it does, so the behaviour stays proved by 220-222 and the API
-- tests; this file holds what each mend must leave true that those cannot see.
begin;
select plan(5);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('223o') m, tests.create_published_template(m.org_a,
    '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p;
alter table actors add column daily uuid;
grant select, update on actors to authenticated;

-- The guard of the schedule columns is skipped by updates that touch none of them (an answer save
-- updates the inspection's totals): a WHEN clause, not a PL/pgSQL call that returns at once.
select ok((select t.tgqual is not null from pg_trigger t
  where t.tgrelid = 'public.inspections'::regclass and t.tgname = 'inspections_stamp_schedule_columns'),
  'the schedule columns'' guard fires only when the status or a column it guards changes');

-- resync_schedule (security definer) plans in one statement: no temporary table of its own, so
-- none of the session's, resolved through pg_temp first, can stand in for it.
select tests.act_as((select manager from actors));
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'Daily', template, 'FREQ=DAILY', current_date + 1, '08:00', 'P1D' from actors;
update actors set daily = (select id from public.schedules where name = 'Daily' and org_id = (select org_a from actors));
insert into public.schedule_sites (schedule_id, site_id) select daily, site from actors;
create temp table schedule_plan (planted text);
insert into schedule_plan values ('the session''s own');
select lives_ok($$update public.schedules set time_of_day = '09:00' where id = (select daily from actors)$$,
  'an edit of a schedule works while the session has a temporary table named schedule_plan');
select is((select planted from schedule_plan), 'the session''s own', 'and leaves that table as it was');
select ok((select bool_and(i.occurrence_at::time = '09:00') from public.inspections i
  where i.schedule_id = (select daily from actors) and i.status = 'scheduled'),
  'the edit moved the future occurrences (updated in place, or made anew)');
select tests.reset_role();
drop table schedule_plan;

-- A new inspection's initially hidden items are set by prepare_inspection, which reads the version.
select hasnt_trigger('public', 'inspections', 'inspections_set_hidden_items', 'no second trigger reads the version again');

select * from finish();
rollback;
