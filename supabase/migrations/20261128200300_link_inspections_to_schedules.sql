-- Inspections that a schedule makes (issue 26 parts 3 and 4; docs/schedules.md): each knows its
-- schedule and the occurrence it runs (`schedule_id`, `occurrence_at`), one per schedule, site and
-- occurrence; a schedule's own cancellations say why (`canceled_reason`); the first submission is
-- kept (`first_submitted_at`: "done on time" and "done late" are judged by it, and a second
-- submission after changes were requested does not make a punctual inspection late); and
-- `missed_noted_at` records that the background run announced it missed (migration
-- 20261128200500). None of these is the caller's to write: only the schedule functions, the
-- transitions and the background run set them.

alter table public.inspections
  add column schedule_id uuid references public.schedules (id),
  add column occurrence_at timestamptz,
  add column canceled_reason text,
  add column first_submitted_at timestamptz,
  add column missed_noted_at timestamptz,
  add constraint inspections_occurrence_check check ((schedule_id is null) = (occurrence_at is null)),
  add constraint inspections_canceled_reason_check check (
    canceled_reason is null
    or (canceled_reason in ('schedule paused', 'schedule deleted', 'schedule changed', 'site archived') and status = 'canceled')
  );

comment on column public.inspections.schedule_id is 'The schedule whose occurrence this inspection runs; null for one scheduled by hand.';
comment on column public.inspections.occurrence_at is 'When the occurrence starts (its window opens); due_at is when it closes.';
comment on column public.inspections.canceled_reason is 'Why the schedule canceled it (paused, deleted, changed, its site archived); null when a person canceled it.';
comment on column public.inspections.first_submitted_at is 'The first submission: on time when not after due_at. A resubmission after changes keeps it.';
comment on column public.inspections.missed_noted_at is 'When the background run found the occurrence missed and announced it (inspection.missed, once); missed itself is derived.';

-- One inspection per schedule, site and occurrence: the materialiser's idempotency. Occurrences
-- the schedule itself canceled (paused, changed) leave it, so a resumed schedule can make them
-- again; one a person canceled stays, so it is never made again. Occurrence before site: a
-- schedule's occurrences in a range (the occurrences route) and its next one are read in order.
create unique index inspections_schedule_occurrence_key on public.inspections (schedule_id, occurrence_at, site_id)
  where schedule_id is not null and canceled_reason is null;
-- Compliance and the dashboard count occurrences by when they are due.
create index inspections_org_id_due_at_scheduled_idx on public.inspections (org_id, due_at) where schedule_id is not null;
-- The background run looks for open occurrences past their due time that it has not announced.
create index inspections_unnoted_occurrences_idx on public.inspections (due_at)
  where schedule_id is not null and first_submitted_at is null and missed_noted_at is null and status <> 'canceled';

-- Inspections submitted before this migration: their submission is the first we know of. Without
-- the triggers (replica mode, which hosted lets `postgres` set): a column filled in is no change of
-- the inspection to audit, announce or version.
set local session_replication_role = replica;
update public.inspections set first_submitted_at = submitted_at where submitted_at is not null;
set local session_replication_role = origin;

-- Before update: the schedule's columns keep their meaning whoever writes.
create or replace function private.guard_schedule_columns_of_inspection()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (new.schedule_id, new.occurrence_at) is distinct from (old.schedule_id, old.occurrence_at) then
    raise exception 'forbidden';
  end if;
  -- A reason comes with the cancellation it explains, and stays.
  if new.canceled_reason is distinct from old.canceled_reason
     and not (new.status = 'canceled' and old.status <> 'canceled') then
    raise exception 'forbidden';
  end if;
  -- Noted once: missed is announced once.
  if old.missed_noted_at is not null and new.missed_noted_at is distinct from old.missed_noted_at then
    raise exception 'forbidden';
  end if;
  -- The first submission is kept (submitted_at is stamped by inspections_enforce_transition).
  new.first_submitted_at := coalesce(old.first_submitted_at,
    case when new.status = 'submitted' and old.status is distinct from 'submitted' then new.submitted_at end);
  return new;
end;
$$;

comment on function private.guard_schedule_columns_of_inspection() is
  'Before-update trigger on inspections: schedule and occurrence fixed, a cancel reason only with the cancel, missed noted once, the first submission kept.';

revoke all on function private.guard_schedule_columns_of_inspection() from public, anon, authenticated;

-- Named to run after inspections_enforce_transition, which stamps submitted_at.
create trigger inspections_stamp_schedule_columns before update on public.inspections
  for each row execute function private.guard_schedule_columns_of_inspection();

-- Missed, the one meaning (docs/schedules.md): an occurrence of a schedule, not canceled, whose due
-- time has passed at `at` without a submission. It can still be started and submitted, and then
-- counts as done late. The inspections list, compliance and the dashboard all ask this.
create or replace function private.occurrence_missed(
  schedule_id uuid, status public.inspection_status, due_at timestamptz, first_submitted_at timestamptz, at timestamptz
)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select schedule_id is not null and status <> 'canceled' and first_submitted_at is null and due_at <= at;
$$;

comment on function private.occurrence_missed(uuid, public.inspection_status, timestamptz, timestamptz, timestamptz) is
  'Missed: a schedule''s occurrence, not canceled, due by `at` and never submitted (derived; still startable).';

revoke all on function private.occurrence_missed(uuid, public.inspection_status, timestamptz, timestamptz, timestamptz) from public, anon;
grant execute on function private.occurrence_missed(uuid, public.inspection_status, timestamptz, timestamptz, timestamptz) to authenticated, service_role;
