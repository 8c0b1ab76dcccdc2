-- Reminder emails, what is due (issue 26 part 5; docs/schedules.md, "Reminders"): an outbox with
-- one row per person, occurrence and kind, written by the schedules' background run
-- (private.run_schedules, every 5 minutes) and sent by the reminder-mails function (migration
-- 20261128210300). A row is written exactly once (unique per person + occurrence + kind, and per
-- person + organization + day for the managers' digest), so any number of runs, at once or late,
-- write nothing twice. Every function takes "now" as a parameter: tests pass one and never sleep.
--
-- Who (private.occurrence_reminder_recipients): an occurrence's assignee while they may fill it in;
-- unassigned, the site's inspectors (today every inspector of the organization: site groups will
-- narrow it), or, where the organization has no inspector, its owners, admins and managers (the
-- others who may fill it in), so an unassigned occurrence is never reminded to nobody. Each only
-- with that kind switched on (private.wants_reminder). When:
--   occurrence_opened    its window opened (occurrence_at) and it is not started, not yet due;
--   occurrence_due_soon  24 hours before its due time, not submitted — only when its window is
--                        longer than 24 hours (a shorter one is due within a day from the start,
--                        and the opening mail says when);
--   occurrence_missed    once, when the background run notes it missed (missed_noted_at);
--   missed_digest        to owners, admins and managers: the organization's occurrences due on a
--                        day (each on its site's own calendar) and still missed, sent from 06:00 on
--                        the next day at the organization's last site to reach it (so the day is
--                        over everywhere); none when nothing was missed.
-- A reminder whose moment is more than 24 hours past is not written: a stack stopped for days does
-- not fill inboxes with stale news. A run writes the reminders of at most 10,000 occurrences of
-- each kind (the earliest first; the next run, five minutes later, goes on), so its work is bounded
-- however many open at once. Rows are kept 30 days after they are done with.

create table private.reminder_outbox (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind public.reminder_kind not null,
  -- The occurrence (an inspection of a schedule), for every kind but the digest.
  inspection_id uuid references public.inspections (id) on delete cascade,
  -- The digest's day, its occurrences (the first 50 by due time: what one mail lists) and how many.
  digest_date date,
  digest_inspection_ids uuid[],
  digest_count integer,
  -- The background run's "now" when it was written (its moment), and the real time it was.
  queued_at timestamptz not null,
  created_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'sent', 'skipped', 'dead')),
  attempts integer not null default 0,
  -- Sent from the real time it is written: the worker works in real time, whatever "now" the run took.
  next_attempt_at timestamptz not null default now(),
  -- A worker sending it holds it until then; past that, another may (a crashed worker's claim runs out).
  claimed_until timestamptz,
  sent_at timestamptz,
  -- Why it was not sent: switched off meanwhile, started, submitted, no longer theirs (migration 20261128210300).
  skipped_because text,
  last_error text,
  constraint reminder_outbox_occurrence_or_digest check (
    case when kind = 'missed_digest'
      then inspection_id is null and digest_date is not null and digest_inspection_ids is not null and digest_count > 0
      else inspection_id is not null and digest_date is null and digest_inspection_ids is null and digest_count is null
    end
  )
);

comment on table private.reminder_outbox is
  'Reminder emails to send: one row per person, occurrence and kind (per person, organization and day for the digest), written once by the schedules'' background run, sent by the reminder-mails function.';

-- Exactly once.
create unique index reminder_outbox_occurrence_key on private.reminder_outbox (user_id, inspection_id, kind) where inspection_id is not null;
create unique index reminder_outbox_digest_key on private.reminder_outbox (user_id, org_id, digest_date) where kind = 'missed_digest';
-- What a worker claims next.
create index reminder_outbox_pending_idx on private.reminder_outbox (next_attempt_at) where status = 'pending';
-- What the run removes: rows done with a month ago (below).
create index reminder_outbox_done_idx on private.reminder_outbox (created_at) where status <> 'pending';
-- Foreign keys (deleting an organization or an inspection); the run asks whether an occurrence's
-- reminder of a kind was written.
create index reminder_outbox_org_id_idx on private.reminder_outbox (org_id);
create index reminder_outbox_inspection_id_kind_idx on private.reminder_outbox (inspection_id, kind);

alter table private.reminder_outbox enable row level security;
-- No policy: only its owner (the background run, the mail worker's functions) reads and writes it.
revoke all on table private.reminder_outbox from public, anon, authenticated;
grant all on table private.reminder_outbox to service_role;

-- The run looks occurrences up by when they opened and when they were noted missed (by when they
-- are due: inspections_unnoted_occurrences_idx).
create index inspections_occurrence_at_idx on public.inspections (occurrence_at) where schedule_id is not null;
create index inspections_missed_noted_at_idx on public.inspections (missed_noted_at) where missed_noted_at is not null;

-- How late a reminder may still be written: after that its news is stale.
create or replace function private.reminder_grace()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '24 hours';
$$;

-- Who is reminded of these occurrences: (inspection, person) pairs; with `kind`, only the people who
-- have that kind on (private.wants_reminder's rule: no preferences row means on). The one place
-- that says it, set-based so a run works it out once for all its occurrences (site groups, next
-- issue, will narrow "the site's inspectors" to those whose membership covers `o.site_id`).
create or replace function private.occurrence_reminder_recipients(inspection_ids uuid[], kind public.reminder_kind default null)
returns table (inspection_id uuid, user_id uuid)
language sql
stable
set search_path = ''
as $$
  with o as (
    select i.id, i.org_id, i.site_id, i.assignee_id from public.inspections i where i.id = any (inspection_ids)
  ), with_inspectors as (
    select distinct m.org_id from public.memberships m where m.role = 'inspector' and m.org_id in (select o.org_id from o)
  ), people as (
    -- Assigned: the assignee, while they may fill it in (a member who left or became a viewer: nobody).
    select o.id, m.user_id
    from o join public.memberships m on m.org_id = o.org_id and m.user_id = o.assignee_id
    where m.role in ('owner', 'admin', 'manager', 'inspector')
    union all
    -- Unassigned: the site's inspectors…
    select o.id, m.user_id
    from o join public.memberships m on m.org_id = o.org_id
    where o.assignee_id is null and m.role = 'inspector'
    union all
    -- …or, with none, the others who may fill it in.
    select o.id, m.user_id
    from o join public.memberships m on m.org_id = o.org_id
    where o.assignee_id is null and m.role in ('owner', 'admin', 'manager')
      and o.org_id not in (select w.org_id from with_inspectors w)
  )
  select people.id, people.user_id
  from people
  left join public.notification_preferences p on p.user_id = people.user_id
  where kind is null or coalesce(case kind
    when 'occurrence_opened' then p.occurrence_opened
    when 'occurrence_due_soon' then p.occurrence_due_soon
    when 'occurrence_missed' then p.occurrence_missed
    when 'missed_digest' then p.missed_digest
  end, true);
$$;

comment on function private.occurrence_reminder_recipients(uuid[], public.reminder_kind) is
  'Who gets these occurrences'' reminders: the assignee while they may fill it in; unassigned, the site''s inspectors, or with none the owners, admins and managers; with `kind`, only those who have it on.';

-- How many occurrences a run writes reminders of, per kind: the earliest first, the rest at the
-- next run (five minutes later), so a run's work is bounded however many open at once.
create or replace function private.reminder_budget()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 10000;
$$;

-- When the missed digest of `day` is due: 06:00 on the next day at the organization's last site to
-- reach it (its westernmost time zone); null when it has no site.
create or replace function private.missed_digest_ready_at(org uuid, day date)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select max(private.instant_of_local_time((day + 1) + time '06:00', z.timezone))
  from (select distinct s.timezone from public.sites s where s.org_id = org) z;
$$;

comment on function private.missed_digest_ready_at(uuid, date) is
  'When the missed digest of a day is sent: 06:00 the next day at the organization''s last site to reach it.';

-- Background run: writes the reminders due at `at` to the outbox, each once. An occurrence whose
-- reminder of a kind was already written is passed over before its recipients are worked out (the
-- unique keys are what make it once; this keeps a run that finds nothing new cheap), and a run
-- takes at most private.reminder_budget() occurrences of each kind, the earliest first. Which were
-- written is asked once per kind for all the candidates (`= any`), not once per candidate: right
-- after a large run, before the table's statistics catch up, a per-candidate probe was planned as
-- a sequential scan of the outbox for each candidate (minutes, measured; docs/schedules.md).
create or replace function private.queue_reminders(at timestamptz default now(), org uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  grace constant interval := private.reminder_grace();
  budget constant integer := private.reminder_budget();
  opened integer;
  due_soon integer;
  missed integer;
  digests integer;
begin
  with candidates as materialized (
    select i.id, i.org_id, i.occurrence_at as moment
    from public.inspections i
    where i.schedule_id is not null and i.occurrence_at <= at and i.occurrence_at > at - grace
      and i.status = 'scheduled' and i.due_at > at
      and (org is null or i.org_id = org)
  ), written_before as materialized (
    select o.inspection_id from private.reminder_outbox o
    where o.kind = 'occurrence_opened' and o.inspection_id = any (array(select c.id from candidates c))
  ), open_now as (
    select c.id, c.org_id from candidates c
    where c.id not in (select w.inspection_id from written_before w)
    order by c.moment, c.id
    limit budget
  ), written as (
    insert into private.reminder_outbox (org_id, user_id, kind, inspection_id, queued_at)
    select o.org_id, r.user_id, 'occurrence_opened', o.id, at
    from open_now o
    join private.occurrence_reminder_recipients(array(select n.id from open_now n), 'occurrence_opened') r on r.inspection_id = o.id
    on conflict (user_id, inspection_id, kind) where inspection_id is not null do nothing
    returning 1
  )
  select count(*)::integer into opened from written;

  with candidates as materialized (
    select i.id, i.org_id, i.due_at as moment
    from public.inspections i
    -- The conditions of inspections_unnoted_occurrences_idx (nothing due later is noted missed).
    where i.schedule_id is not null and i.first_submitted_at is null and i.missed_noted_at is null and i.status <> 'canceled'
      and i.due_at > at and i.due_at <= at + interval '24 hours'
      and i.due_at - i.occurrence_at > interval '24 hours'
      and (org is null or i.org_id = org)
  ), written_before as materialized (
    select o.inspection_id from private.reminder_outbox o
    where o.kind = 'occurrence_due_soon' and o.inspection_id = any (array(select c.id from candidates c))
  ), due_within_a_day as (
    select c.id, c.org_id from candidates c
    where c.id not in (select w.inspection_id from written_before w)
    order by c.moment, c.id
    limit budget
  ), written as (
    insert into private.reminder_outbox (org_id, user_id, kind, inspection_id, queued_at)
    select d.org_id, r.user_id, 'occurrence_due_soon', d.id, at
    from due_within_a_day d
    join private.occurrence_reminder_recipients(array(select n.id from due_within_a_day n), 'occurrence_due_soon') r on r.inspection_id = d.id
    on conflict (user_id, inspection_id, kind) where inspection_id is not null do nothing
    returning 1
  )
  select count(*)::integer into due_soon from written;

  with candidates as materialized (
    select i.id, i.org_id, i.missed_noted_at as moment
    from public.inspections i
    where i.missed_noted_at is not null and i.missed_noted_at <= at and i.missed_noted_at > at - grace
      and i.due_at > at - grace
      and private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, at)
      and (org is null or i.org_id = org)
  ), written_before as materialized (
    select o.inspection_id from private.reminder_outbox o
    where o.kind = 'occurrence_missed' and o.inspection_id = any (array(select c.id from candidates c))
  ), noted_missed as (
    select c.id, c.org_id from candidates c
    where c.id not in (select w.inspection_id from written_before w)
    order by c.moment, c.id
    limit budget
  ), written as (
    insert into private.reminder_outbox (org_id, user_id, kind, inspection_id, queued_at)
    select m.org_id, r.user_id, 'occurrence_missed', m.id, at
    from noted_missed m
    join private.occurrence_reminder_recipients(array(select n.id from noted_missed n), 'occurrence_missed') r on r.inspection_id = m.id
    on conflict (user_id, inspection_id, kind) where inspection_id is not null do nothing
    returning 1
  )
  select count(*)::integer into missed from written;

  -- The digest: occurrences noted missed in the last four days (a local day's occurrences are due
  -- within about 50 hours of its start in UTC, and its digest goes within a day and a half of its
  -- end), still missed, by organization and by the day they were due on their site's calendar.
  -- Grouped first (materialized: asked once per organization and day, when the day's digest is
  -- due, not once per occurrence).
  with recent_missed as (
    select i.id, i.org_id, i.due_at, (i.due_at at time zone s.timezone)::date as day
    from public.inspections i
    join public.sites s on s.id = i.site_id
    where i.missed_noted_at is not null and i.missed_noted_at <= at and i.missed_noted_at > at - interval '4 days'
      and private.occurrence_missed(i.schedule_id, i.status, i.due_at, i.first_submitted_at, at)
      and (org is null or i.org_id = org)
  ), days as materialized (
    select m.org_id, m.day, count(*)::integer as missed_count,
           (array_agg(m.id order by m.due_at, m.id))[1:50] as first_ids
    from recent_missed m
    group by m.org_id, m.day
  ), ready as materialized (
    select d.*, private.missed_digest_ready_at(d.org_id, d.day) as ready_at from days d
  ), written as (
    insert into private.reminder_outbox (org_id, user_id, kind, digest_date, digest_inspection_ids, digest_count, queued_at)
    select r.org_id, m.user_id, 'missed_digest', r.day, r.first_ids, r.missed_count, at
    from ready r
    join public.memberships m on m.org_id = r.org_id and m.role in ('owner', 'admin', 'manager')
    where r.ready_at <= at and r.ready_at > at - grace
      and private.wants_reminder(m.user_id, 'missed_digest')
    on conflict (user_id, org_id, digest_date) where kind = 'missed_digest' do nothing
    returning 1
  )
  select count(*)::integer into digests from written;

  -- Rows sent, skipped or dead more than 30 days ago (real time) are of no more use: every key's
  -- window is a few days. Removed a bounded number a run, so the outbox stays about a month long.
  delete from private.reminder_outbox o
  where o.id in (
    select x.id from private.reminder_outbox x where x.status <> 'pending' and x.created_at < now() - interval '30 days' limit 10000
  );

  return jsonb_build_object('opened', opened, 'due_soon', due_soon, 'missed', missed, 'digests', digests);
end;
$$;

comment on function private.queue_reminders(timestamptz, uuid) is
  'Background run: writes the reminder emails due at `at` (opened, due in 24 hours, missed, the managers'' digest) to the outbox, each once; answers how many of each. `org` limits it to one organization (tests).';

-- The background run now also writes the reminders, after noting what was missed.
create or replace function private.run_schedules(at timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  made integer := private.materialise_schedules(at);
  missed integer := private.note_missed_occurrences(at);
begin
  return jsonb_build_object('made', made, 'missed', missed, 'reminders', private.queue_reminders(at));
end;
$$;

comment on function private.run_schedules(timestamptz) is
  'The schedules'' background run: materialise every active schedule up to at + 14 days, announce missed occurrences, write the reminder emails due.';

revoke all on function private.reminder_grace() from public, anon, authenticated;
revoke all on function private.occurrence_reminder_recipients(uuid[], public.reminder_kind) from public, anon, authenticated;
revoke all on function private.reminder_budget() from public, anon, authenticated;
revoke all on function private.missed_digest_ready_at(uuid, date) from public, anon, authenticated;
revoke all on function private.queue_reminders(timestamptz, uuid) from public, anon, authenticated;
revoke all on function private.run_schedules(timestamptz) from public, anon, authenticated;
