-- Turning schedules into inspections (issue 26 part 3; docs/schedules.md). Every occurrence whose
-- window opens within 14 days becomes a `scheduled` inspection of its site, pinned to the
-- template's latest published version, titled by the schedule's pattern, assigned to the
-- schedule's person (or the rotation's turn at that site, or nobody), due `due_after` after it
-- starts in local time, with `schedule_id` and `occurrence_at`. Idempotent: one per schedule, site
-- and occurrence (inspections_schedule_occurrence_key), however often and however concurrently it
-- runs. Creating, editing, resuming a schedule or adding sites to it makes its occurrences at once,
-- in the same transaction (triggers below); pausing, deleting, taking sites off and archiving a
-- site cancel the not-yet-started future ones, with the reason; an edit changes future
-- occurrences only: the not-yet-started ones are updated in place (title, assignee, due time) or,
-- when they no longer occur or run another template, canceled and made anew; started ones are never
-- touched. The background run (private.run_schedules, every 5 minutes: stack/scheduler.ts locally,
-- pg_cron on hosted) catches up from where each schedule's last run stopped
-- (private.schedule_progress), so a run does only the work that is new. Every function takes the
-- time it treats as now: tests pass one and never sleep.

-- How far ahead occurrences are made (docs/product.md §9).
create or replace function private.schedule_horizon()
returns interval
language sql
immutable
set search_path = ''
as $$
  select interval '14 days';
$$;

-- Where each schedule's making stands: every occurrence of its sites starting before
-- `materialised_until` exists (or was deliberately not made). Kept apart from public.schedules so
-- that a background run writes no audit entry, event or version of the schedule.
create table private.schedule_progress (
  schedule_id uuid primary key references public.schedules (id) on delete cascade,
  materialised_until timestamptz not null
);

comment on table private.schedule_progress is 'How far each active schedule''s occurrences have been made: all starting before materialised_until exist.';

-- A schedule's occurrences at its sites (or the `only_sites` among them) starting in
-- [from_at, to_at): each with the rule's number (when `numbered`, or the schedule has a rotation;
-- otherwise null, and the expansion need not start at DTSTART), its local start and the instants
-- it starts and is due in its site's time zone. Read as the caller (RLS applies): the occurrences route lists these.
-- Local times are converted once per time zone, not once per site: sites share few zones.
create or replace function private.schedule_occurrences(
  schedule uuid, from_at timestamptz, to_at timestamptz, only_sites uuid[] default null, numbered boolean default false
)
returns table (site_id uuid, n bigint, local_at timestamp, occurrence_at timestamptz, due_at timestamptz)
language sql
stable
set search_path = ''
as $$
  with s as (
    select sc.*, (private.recurrence_of(sc.rrule)).until_at from public.schedules sc where sc.id = schedule
  ), schedule_sites as (
    select st.id, st.timezone
    from public.sites st
    where st.id in (select private.schedule_site_ids(schedule)) and (only_sites is null or st.id = any (only_sites))
  ), local_times as (
    select t.n, t.local_at
    from s, private.recurrence_local_times(s.rrule, s.start_date, s.time_of_day,
      -- Local dates two days either side of the instants cover every offset (UTC-12 to UTC+14).
      (from_at at time zone 'UTC')::date - 2, least((to_at at time zone 'UTC')::date + 2, s.end_date),
      numbered or cardinality(s.rotation_user_ids) > 0) t
  ), zoned as (
    select z.timezone, t.n, t.local_at,
           private.instant_of_local_time(t.local_at, z.timezone) as occurrence_at,
           private.instant_of_local_time(t.local_at + s.due_after, z.timezone) as due_at
    from (select distinct schedule_sites.timezone from schedule_sites) z
    cross join local_times t
    cross join s
  )
  select st.id, zoned.n, zoned.local_at, zoned.occurrence_at, zoned.due_at
  from zoned
  join schedule_sites st on st.timezone = zoned.timezone
  cross join s
  where zoned.occurrence_at >= from_at and zoned.occurrence_at < to_at
    and (s.until_at is null or zoned.occurrence_at <= s.until_at)
  order by zoned.occurrence_at, st.id;
$$;

comment on function private.schedule_occurrences(uuid, timestamptz, timestamptz, uuid[], boolean) is
  'A schedule''s occurrences at its sites starting in [from_at, to_at), numbered, with local start, start and due instants (as the caller).';

revoke all on function private.schedule_occurrences(uuid, timestamptz, timestamptz, uuid[], boolean) from public, anon;
grant execute on function private.schedule_occurrences(uuid, timestamptz, timestamptz, uuid[], boolean) to authenticated, service_role;

-- The title of an occurrence: the pattern with {site}, {template} and {date} (the local date) filled
-- in, in one pass (a site named "{date}" stays so), cut to an inspection title's 120 characters.
create or replace function private.occurrence_title(pattern text, site_name text, template_name text, on_date date)
returns text
language sql
stable
parallel safe
set search_path = ''
as $$
  select btrim(left(string_agg(case part
      when '{site}' then site_name
      when '{template}' then template_name
      when '{date}' then to_char(on_date, 'YYYY-MM-DD')
      else part
    end, '' order by position), 120))
  from regexp_matches(pattern, '\{(?:site|template|date)\}|[^{]+|\{', 'g') with ordinality m (parts, position)
  cross join lateral (select m.parts[1] as part) p;
$$;

revoke all on function private.occurrence_title(text, text, text, date) from public, anon;
grant execute on function private.occurrence_title(text, text, text, date) to authenticated, service_role;

-- The inspections a schedule would make for its occurrences starting in [from_at, to_at) at its
-- active sites (or `only_sites` among them): with the title, the assignee (its person, or the
-- rotation's turn: the nth occurrence of the rule goes to person (n - 1) mod len at every site;
-- someone no longer able to fill in inspections there leaves it to anyone), the due time and the
-- version. Nothing while the schedule is paused or deleted or its template cannot be run.
create or replace function private.schedule_occurrence_plan(schedule uuid, from_at timestamptz, to_at timestamptz, only_sites uuid[] default null)
returns table (
  org_id uuid, site_id uuid, template_id uuid, template_version_id uuid, title text, assignee_id uuid,
  occurrence_at timestamptz, due_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  with s as (
    select sc.* from public.schedules sc where sc.id = schedule and sc.paused_at is null and sc.deleted_at is null
  ), version as (
    select v.id, v.name
    from s
    join public.templates t on t.id = s.template_id and t.status = 'published'
    join public.template_versions v on v.template_id = t.id and v.version = t.latest_version
  )
  select s.org_id, o.site_id, s.template_id, version.id,
         private.occurrence_title(s.title_pattern, st.name, version.name, o.local_at::date),
         m.user_id, o.occurrence_at, o.due_at
  from s
  cross join version
  cross join lateral private.schedule_occurrences(s.id, from_at, to_at, only_sites) o
  join public.sites st on st.id = o.site_id and st.archived_at is null
  left join public.memberships m
    on m.org_id = s.org_id and m.role in ('owner', 'admin', 'manager', 'inspector')
   and m.user_id = coalesce(s.assignee_id,
         case when cardinality(s.rotation_user_ids) > 0 then s.rotation_user_ids[(o.n - 1) % cardinality(s.rotation_user_ids) + 1] end);
$$;

comment on function private.schedule_occurrence_plan(uuid, timestamptz, timestamptz, uuid[]) is
  'The inspections a schedule would make for its occurrences in [from_at, to_at): title, assignee (person or rotation turn), due time, version.';

-- Makes the inspections of a schedule's occurrences that start from `since` and before `at` + the
-- horizon, and with `still_open` only those still open at `at` (due after it): a schedule just made
-- (without `since`), resumed or a site restored (since the pause or archiving began) does not make
-- the occurrences whose whole window passed meanwhile, while the background run (from where it
-- stopped) makes every one, so none goes uncounted when a run is late. Existing ones are left as
-- they are. At most `budget` occurrences are looked at: each site's next one first, then each
-- site's second, and so on, so a schedule of 10,000 sites shows every site's next occurrence at
-- once and the background run makes the rest. Answers how many it made and the instant before
-- which every occurrence now exists. Definer: it runs for the caller who changed the schedule
-- (whose role the inspections' triggers still check) and for the background run alike, and writes
-- columns no caller may.
create or replace function private.materialise_schedule(
  schedule uuid, at timestamptz, since timestamptz, still_open boolean, only_sites uuid[] default null, budget integer default null,
  out made integer, out complete_until timestamptz
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  due_after interval := (select s.due_after from public.schedules s where s.id = schedule);
begin
  with plan as (
    select p.*, row_number() over (partition by p.site_id order by p.occurrence_at) as turn
    from private.schedule_occurrence_plan(schedule,
           -- An occurrence still open at `at` started less than due_after (and a daylight-saving hour) before it.
           case when still_open then greatest(since, at - due_after - interval '1 day') else since end,
           at + private.schedule_horizon(), only_sites) p
    where not still_open or p.due_at > at
  ), ranked as (
    select plan.*, row_number() over (order by plan.turn, plan.occurrence_at, plan.site_id) as k from plan
  ), inserted as (
    insert into public.inspections (org_id, site_id, template_id, template_version_id, title, assignee_id, due_at, schedule_id, occurrence_at)
    select r.org_id, r.site_id, r.template_id, r.template_version_id, r.title, r.assignee_id, r.due_at, schedule, r.occurrence_at
    from ranked r
    where budget is null or r.k <= budget
    order by r.k
    on conflict (schedule_id, site_id, occurrence_at) where schedule_id is not null and canceled_reason is null do nothing
    returning 1
  )
  select (select count(*) from inserted)::integer,
         coalesce((select min(r.occurrence_at) from ranked r where r.k > budget), at + private.schedule_horizon())
  into made, complete_until;
end;
$$;

comment on function private.materialise_schedule(uuid, timestamptz, timestamptz, boolean, uuid[], integer) is
  'Makes a schedule''s inspections starting from `since` and before at + 14 days (only those still open at `at` when told), at most `budget`, next ones first; idempotent; answers how many and until when all exist.';

-- Records that every occurrence of the schedule starting before `until` exists: for all its sites
-- (the new mark), or for some (`partial`: the mark can only stay or come down to it).
create or replace function private.record_schedule_progress(schedule uuid, until timestamptz, partial boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.schedule_progress (schedule_id, materialised_until) values (schedule, until)
  on conflict (schedule_id) do update set materialised_until = case
    when partial then least(private.schedule_progress.materialised_until, excluded.materialised_until)
    else excluded.materialised_until
  end;
$$;

-- How many occurrences a change of a schedule looks at in its own transaction (every site's next
-- one, for the largest schedule allowed), and one background run in all.
create or replace function private.schedule_budget(background boolean)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case when background then 20000 else 10000 end;
$$;

-- Cancels a schedule's occurrences that start after `at` and were never started (status scheduled),
-- at all its sites or `only_sites`, with the reason. A person's own cancellation stays as it was.
create or replace function private.cancel_future_occurrences(schedule uuid, at timestamptz, reason text, only_sites uuid[] default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  canceled integer;
begin
  update public.inspections i set status = 'canceled', canceled_reason = reason
  where i.schedule_id = schedule and i.status = 'scheduled' and i.canceled_reason is null and i.occurrence_at > at
    and (only_sites is null or i.site_id = any (only_sites));
  get diagnostics canceled = row_count;
  return canceled;
end;
$$;

-- After an edit (or a site's time zone changing): the schedule's future occurrences follow it.
-- Those not yet started that still occur, with the same template, take the new title, assignee and
-- due time; the rest are canceled with `reason` and the new ones made. Started ones stay as they are.
create or replace function private.resync_schedule(schedule uuid, at timestamptz, reason text, only_sites uuid[] default null)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
begin
  create temp table if not exists schedule_plan (
    site_id uuid, template_id uuid, title text, assignee_id uuid, occurrence_at timestamptz, due_at timestamptz
  ) on commit drop;
  truncate schedule_plan;
  insert into schedule_plan
  select p.site_id, p.template_id, p.title, p.assignee_id, p.occurrence_at, p.due_at
  from private.schedule_occurrence_plan(schedule, at, at + private.schedule_horizon(), only_sites) p
  where p.occurrence_at > at;

  update public.inspections i set status = 'canceled', canceled_reason = reason
  where i.schedule_id = schedule and i.status = 'scheduled' and i.canceled_reason is null and i.occurrence_at > at
    and (only_sites is null or i.site_id = any (only_sites))
    and not exists (
      select 1 from schedule_plan p
      where p.site_id = i.site_id and p.occurrence_at = i.occurrence_at and p.template_id = i.template_id
    );

  update public.inspections i set title = p.title, assignee_id = p.assignee_id, due_at = p.due_at
  from schedule_plan p
  where i.schedule_id = schedule and i.status = 'scheduled' and i.canceled_reason is null and i.occurrence_at > at
    and p.site_id = i.site_id and p.occurrence_at = i.occurrence_at and p.template_id = i.template_id
    and (i.title, i.assignee_id, i.due_at) is distinct from (p.title, p.assignee_id, p.due_at);

  return (select m.complete_until from private.materialise_schedule(schedule, at, at, false, only_sites, private.schedule_budget(false)) m);
end;
$$;

comment on function private.resync_schedule(uuid, timestamptz, text, uuid[]) is
  'Brings a schedule''s future, not yet started occurrences in line with it: updated in place, or canceled (with the reason) and made anew; answers until when all exist.';

-- What a change of a schedule does to its occurrences, in the change's transaction.
create or replace function private.apply_schedule_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  at timestamptz := now();
begin
  if new.deleted_at is not null and old.deleted_at is null then
    perform private.cancel_future_occurrences(new.id, at, 'schedule deleted');
    delete from private.schedule_progress p where p.schedule_id = new.id;
  elsif new.paused_at is not null and old.paused_at is null then
    perform private.cancel_future_occurrences(new.id, at, 'schedule paused');
    delete from private.schedule_progress p where p.schedule_id = new.id;
  elsif new.paused_at is null and old.paused_at is not null then
    -- Resumed: the occurrences that opened while it was paused and are still open, and the next ones.
    perform private.record_schedule_progress(new.id,
      (select m.complete_until from private.materialise_schedule(new.id, at, old.paused_at, true, null, private.schedule_budget(false)) m), false);
  elsif new.paused_at is null
        and (new.template_id, new.rrule, new.start_date, new.end_date, new.time_of_day, new.due_after, new.assignee_id,
             new.rotation_user_ids, new.title_pattern)
            is distinct from
            (old.template_id, old.rrule, old.start_date, old.end_date, old.time_of_day, old.due_after, old.assignee_id,
             old.rotation_user_ids, old.title_pattern) then
    perform private.record_schedule_progress(new.id, private.resync_schedule(new.id, at, 'schedule changed'), false);
  end if;
  return null;
end;
$$;

create trigger schedules_apply_change after update on public.schedules
  for each row execute function private.apply_schedule_change();

-- Sites added to a schedule get their occurrences at once (those still open, and the next 14 days').
create or replace function private.materialise_added_schedule_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  at timestamptz := now();
  added_to record;
begin
  for added_to in select a.schedule_id, array_agg(a.site_id) as site_ids from added a group by a.schedule_id loop
    -- A new schedule's first sites set its mark; more sites can only keep it or bring it down.
    perform private.record_schedule_progress(added_to.schedule_id,
      (select m.complete_until from private.materialise_schedule(added_to.schedule_id, at, null, true, added_to.site_ids,
                                                                private.schedule_budget(false)) m), true)
    from public.schedules s where s.id = added_to.schedule_id and s.paused_at is null and s.deleted_at is null;
  end loop;
  return null;
end;
$$;

-- Sites taken off a schedule: their occurrences not yet started are canceled.
create or replace function private.cancel_removed_schedule_sites()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  removed_from record;
begin
  for removed_from in
    select r.schedule_id, array_agg(r.site_id) as site_ids from removed r
    -- Not when the organization is being deleted (its sites and schedules go with it).
    where exists (select 1 from public.organizations o where o.id = r.org_id)
    group by r.schedule_id
  loop
    perform private.cancel_future_occurrences(removed_from.schedule_id, now(), 'schedule changed', removed_from.site_ids);
  end loop;
  return null;
end;
$$;

-- Named to run after schedule_sites_check (the limit) and before the audit entry.
create trigger schedule_sites_materialise after insert on public.schedule_sites
  referencing new table as added for each statement execute function private.materialise_added_schedule_sites();
create trigger schedule_sites_cancel_removed after delete on public.schedule_sites
  referencing old table as removed for each statement execute function private.cancel_removed_schedule_sites();

-- A site's time zone or archiving changes its schedules' future occurrences there: a new time zone
-- moves them (resync), archiving cancels them, restoring makes them again.
create or replace function private.apply_site_change_to_schedules()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  at timestamptz := now();
  schedule uuid;
begin
  for schedule in
    select ss.schedule_id from public.schedule_sites ss
    join public.schedules s on s.id = ss.schedule_id and s.paused_at is null and s.deleted_at is null
    where ss.site_id = new.id
  loop
    if new.archived_at is not null and old.archived_at is null then
      perform private.cancel_future_occurrences(schedule, at, 'site archived', array[new.id]);
    elsif new.archived_at is null and old.archived_at is not null then
      perform private.record_schedule_progress(schedule,
        (select m.complete_until from private.materialise_schedule(schedule, at, old.archived_at, true, array[new.id], private.schedule_budget(false)) m), true);
    elsif new.archived_at is null and new.timezone is distinct from old.timezone then
      perform private.record_schedule_progress(schedule, private.resync_schedule(schedule, at, 'schedule changed', array[new.id]), true);
    end if;
  end loop;
  return null;
end;
$$;

create trigger sites_apply_change_to_schedules after update of timezone, archived_at on public.sites
  for each row when (old.timezone is distinct from new.timezone or old.archived_at is distinct from new.archived_at)
  execute function private.apply_site_change_to_schedules();

-- The background run's half (with private.note_missed_occurrences, next migration): every active
-- schedule made up to `at` + the horizon, from where its last run stopped. Schedules another
-- transaction is changing are skipped (that change makes its own occurrences); a second run at the
-- same time skips those the first holds. Answers how many inspections it made. `org` limits the
-- run to one organization's schedules (a test's own, among others running at the same time).
create or replace function private.materialise_schedules(at timestamptz default now(), org uuid default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  due record;
  result record;
  made integer := 0;
begin
  for due in
    select s.id, p.materialised_until
    from public.schedules s
    left join private.schedule_progress p on p.schedule_id = s.id
    where s.paused_at is null and s.deleted_at is null and (org is null or s.org_id = org)
      and (p.materialised_until is null or p.materialised_until < at + private.schedule_horizon())
    -- The furthest behind first: a run that reaches its budget leaves the rest to the next.
    order by p.materialised_until nulls first, s.id
    for no key update of s skip locked
  loop
    exit when made >= private.schedule_budget(true);
    select * into result
    from private.materialise_schedule(due.id, at, due.materialised_until, due.materialised_until is null, null,
                                      private.schedule_budget(true) - made);
    made := made + result.made;
    perform private.record_schedule_progress(due.id, result.complete_until, false);
  end loop;
  return made;
end;
$$;

comment on function private.materialise_schedules(timestamptz, uuid) is
  'Background run: makes every active schedule''s occurrences up to at + 14 days from where it stopped; skips schedules being changed; answers how many.';

revoke all on function private.schedule_horizon() from public, anon, authenticated;
revoke all on function private.schedule_occurrence_plan(uuid, timestamptz, timestamptz, uuid[]) from public, anon, authenticated;
revoke all on function private.materialise_schedule(uuid, timestamptz, timestamptz, boolean, uuid[], integer) from public, anon, authenticated;
revoke all on function private.record_schedule_progress(uuid, timestamptz, boolean) from public, anon, authenticated;
revoke all on function private.schedule_budget(boolean) from public, anon, authenticated;
revoke all on function private.cancel_future_occurrences(uuid, timestamptz, text, uuid[]) from public, anon, authenticated;
revoke all on function private.resync_schedule(uuid, timestamptz, text, uuid[]) from public, anon, authenticated;
revoke all on function private.apply_schedule_change() from public, anon, authenticated;
revoke all on function private.materialise_added_schedule_sites() from public, anon, authenticated;
revoke all on function private.cancel_removed_schedule_sites() from public, anon, authenticated;
revoke all on function private.apply_site_change_to_schedules() from public, anon, authenticated;
revoke all on function private.materialise_schedules(timestamptz, uuid) from public, anon, authenticated;
