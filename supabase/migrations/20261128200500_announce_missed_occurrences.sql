-- Missed occurrences (issue 26 part 4; docs/schedules.md). Missed is derived, never stored: a
-- schedule's occurrence, not canceled, whose due time has passed without a submission
-- (private.occurrence_missed); it can still be started, and a submission then counts as done late.
-- What is stored is that it was announced: the background run finds occurrences that became missed,
-- stamps `missed_noted_at` and sends the `inspection.missed` webhook event with the stamp, in one
-- statement, so each is announced exactly once however many runs overlap. The stamp's update is
-- also the inspection's audit entry and its `inspection_updated` realtime event. Reminders by email
-- (a later part) hang off the same stamp.

create or replace function private.note_missed_occurrences(at timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  noted integer;
begin
  with newly_missed as (
    select i.id from public.inspections i
    -- The conditions of inspections_unnoted_occurrences_idx, then the one meaning of missed.
    where i.schedule_id is not null and i.first_submitted_at is null and i.missed_noted_at is null and i.status <> 'canceled'
      and i.due_at <= at and private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, at)
    order by i.due_at
    -- Another run holding some: they are its to announce.
    for no key update skip locked
  ), stamped as (
    update public.inspections i set missed_noted_at = at
    from newly_missed m where i.id = m.id
    returning i.*
  )
  select count(*)::integer into noted
  from stamped s
  -- The event carries the inspection as the other inspection events do.
  cross join lateral (select private.enqueue_webhook_event(s.org_id, 'inspection.missed', 'inspection', to_jsonb(s) - 'version')) e;
  return noted;
end;
$$;

comment on function private.note_missed_occurrences(timestamptz) is
  'Background run: stamps occurrences that became missed by `at` and sends inspection.missed for each, once; answers how many.';

-- The background run (every 5 minutes: stack/scheduler.ts locally, pg_cron on hosted): make what
-- the next 14 days need, then announce what was missed. Answers what it did.
create or replace function private.run_schedules(at timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  made integer := private.materialise_schedules(at);
begin
  return jsonb_build_object('made', made, 'missed', private.note_missed_occurrences(at));
end;
$$;

comment on function private.run_schedules(timestamptz) is
  'The schedules'' background run: materialise every active schedule up to at + 14 days, then announce missed occurrences.';

revoke all on function private.note_missed_occurrences(timestamptz) from public, anon, authenticated;
revoke all on function private.run_schedules(timestamptz) from public, anon, authenticated;
