-- Reminder emails by site access (issue 27; docs/site-groups.md, "Reminders"; docs/schedules.md,
-- "Reminders"): an occurrence's reminders go only to people who see its site — the assignee while
-- they see it, and for an unassigned one "the site's inspectors" are the inspectors who see the
-- site (with none, the owners, admins and managers who see it). A manager limited to site groups
-- gets a missed digest of the occurrences at their sites only. reminder_skip_reason asks
-- occurrence_reminder_recipients again when a mail is sent, so someone who lost the site since
-- the reminder was queued is skipped ("no longer theirs").

create or replace function private.occurrence_reminder_recipients(inspection_ids uuid[], kind public.reminder_kind default null)
returns table (inspection_id uuid, user_id uuid)
language sql
stable
set search_path = ''
as $$
  with o as (
    select i.id, i.org_id, i.site_id, i.assignee_id, s.group_id
    from public.inspections i join public.sites s on s.id = i.site_id
    where i.id = any (inspection_ids)
  ), seeing as materialized (
    -- The members who see each occurrence's site, with their role.
    select o.id, o.assignee_id, m.user_id, m.role
    from o join public.memberships m on m.org_id = o.org_id
    where not m.site_access_limited
       or exists (
         select 1 from public.membership_site_groups g
         join private.site_group_tree t on t.ancestor_id = g.site_group_id
         where g.org_id = m.org_id and g.user_id = m.user_id and t.descendant_id = o.group_id)
  ), people as (
    -- Assigned: the assignee, while they may fill it in (a member who left, became a viewer or
    -- no longer sees the site: nobody).
    select s.id, s.user_id from seeing s
    where s.user_id = s.assignee_id and s.role in ('owner', 'admin', 'manager', 'inspector')
    union all
    -- Unassigned: the site's inspectors…
    select s.id, s.user_id from seeing s
    where s.assignee_id is null and s.role = 'inspector'
    union all
    -- …or, with none, the others who may fill it in.
    select s.id, s.user_id from seeing s
    where s.assignee_id is null and s.role in ('owner', 'admin', 'manager')
      and not exists (select 1 from seeing x where x.id = s.id and x.role = 'inspector')
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
  'Who gets these occurrences'' reminders: the assignee while they may fill it in and see its site; unassigned, the inspectors who see the site, or with none the owners, admins and managers who see it; with `kind`, only those who have it on.';

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
    select i.id, i.org_id, i.due_at, (i.due_at at time zone s.timezone)::date as day, s.group_id
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
  ), readers as materialized (
    select r.org_id, r.day, r.missed_count, r.first_ids, m.user_id, m.site_access_limited
    from ready r
    join public.memberships m on m.org_id = r.org_id and m.role in ('owner', 'admin', 'manager')
    where r.ready_at <= at and r.ready_at > at - grace
      and private.wants_reminder(m.user_id, 'missed_digest')
  ), limited_digests as (
    -- A manager limited to site groups hears only of the occurrences at the sites they see
    -- (issue 27), and of none when they see none of that day's.
    select rd.org_id, rd.day, rd.user_id, count(*)::integer as missed_count,
           (array_agg(m.id order by m.due_at, m.id))[1:50] as first_ids
    from readers rd
    join recent_missed m on m.org_id = rd.org_id and m.day = rd.day
    where rd.site_access_limited
      and exists (
        select 1 from public.membership_site_groups g
        join private.site_group_tree t on t.ancestor_id = g.site_group_id
        where g.org_id = rd.org_id and g.user_id = rd.user_id and t.descendant_id = m.group_id)
    group by rd.org_id, rd.day, rd.user_id
  ), written as (
    insert into private.reminder_outbox (org_id, user_id, kind, digest_date, digest_inspection_ids, digest_count, queued_at)
    select rd.org_id, rd.user_id, 'missed_digest'::public.reminder_kind, rd.day, rd.first_ids, rd.missed_count, at
    from readers rd
    where not rd.site_access_limited
    union all
    select l.org_id, l.user_id, 'missed_digest'::public.reminder_kind, l.day, l.first_ids, l.missed_count, at
    from limited_digests l
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
