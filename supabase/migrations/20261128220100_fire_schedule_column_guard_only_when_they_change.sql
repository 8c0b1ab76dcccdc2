-- The guard of an inspection's schedule columns (private.guard_schedule_columns_of_inspection,
-- migration 20261128200300) ran, as a PL/pgSQL call, on every update of every inspection: every
-- answer save updates the inspection's totals, the hottest write there is. It only acts when the
-- status or one of the columns it guards changes (with neither, schedule and occurrence, reason and
-- noted time are unchanged and the first submission is kept as it was), so the trigger now says so
-- in its WHEN clause and Postgres skips the call on the rest. In a BEFORE trigger WHEN sees NEW as
-- the triggers before it left it (inspections_enforce_transition stamps submitted_at first), just
-- as the function did; same name, so it still fires after that one.

drop trigger inspections_stamp_schedule_columns on public.inspections;

create trigger inspections_stamp_schedule_columns before update on public.inspections
  for each row
  when (
    new.status is distinct from old.status
    or (new.schedule_id, new.occurrence_at, new.canceled_reason, new.missed_noted_at, new.first_submitted_at)
       is distinct from (old.schedule_id, old.occurrence_at, old.canceled_reason, old.missed_noted_at, old.first_submitted_at)
  )
  execute function private.guard_schedule_columns_of_inspection();
