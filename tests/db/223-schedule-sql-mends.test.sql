-- The schedules' SQL after the review's mends (docs/schedules.md): what they change is how the
-- database does the work, not what it does, so the behaviour stays proved by 220-222 and the API
-- tests; this file holds what each mend must leave true that those cannot see.
begin;
select plan(1);

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

select * from finish();
rollback;
