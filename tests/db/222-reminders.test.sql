-- Reminder emails (issue 26 part 5; docs/schedules.md, "Reminders"): what the background run
-- writes to the outbox and when, with "now" passed in — an occurrence's opening to its assignee,
-- unassigned to the site's inspectors (or, with none, the others who may fill it in), 24 hours
-- before its due time when the window is longer than a day, once when missed, and the managers'
-- digest of a day's missed occurrences once that day is over at every site; each exactly once
-- however often the run goes, each kind only to those who have it on, nothing stale. Then the
-- worker's side: the claim holds its rows and skips what should no longer go (switched off,
-- started), the digest's occurrences carry their sites' time zones, outcomes are recorded with
-- retries until dead. And the preferences' RLS, both sides. (Two connections queueing and claiming
-- at once, and the mail through the stack's SMTP: tests/api/schedules/reminders.test.ts.)
begin;
select plan(48);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('222r') m, tests.create_published_template(m.org_a,
    '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p;
alter table actors add column inspector2 uuid, add column auckland uuid, add column org_c uuid, add column c_owner uuid,
  add column c_manager uuid, add column c_site uuid, add column c_template uuid;
update actors set inspector2 = tests.create_user('inspector2-222r@example.test', 'Second inspector 222r');
select tests.add_member(org_a, inspector2, 'inspector') from actors;
insert into public.sites (org_id, name, timezone) select org_a, 'Auckland kitchen', 'Pacific/Auckland' from actors;
update actors set auckland = (select id from public.sites where name = 'Auckland kitchen' and org_id = actors.org_a);
-- An organization with nobody in the inspector role.
update actors set c_owner = tests.create_user('owner-c-222r@example.test', 'C owner 222r'),
                  c_manager = tests.create_user('manager-c-222r@example.test', 'C manager 222r');
update actors set org_c = tests.create_org('org-c-222r', c_owner);
select tests.add_member(org_c, c_manager, 'manager') from actors;
update actors set (c_site, c_template) = (select p.site, p.template from actors a, tests.create_published_template(a.org_c,
  '[{"key":"clean","kind":"pass_fail","label":"Clean","help":null,"required":true,"weight":1}]') p);
grant select on actors to authenticated;

-- Day d, 40 days ahead (beyond the horizon: making the schedules makes nothing until the run is
-- told a "now" near d). Sites in UTC and Auckland; the session's zone is UTC.
create temp table t on commit drop as select current_date + 40 as d;
create function pg_temp.at(day_offset integer, hhmm text) returns timestamptz language sql stable as $$
  select ((select d from t) + day_offset + hhmm::time) at time zone 'UTC';
$$;

-- A: daily 08:00, due two days later, assigned to the inspector. B: daily 09:00, due in four
-- hours, for anyone. D: daily 07:00, due in an hour, for anyone, at the UTC site and in Auckland.
-- C: daily 10:00 in the organization without inspectors, for anyone.
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after, assignee_id)
  select org_a, 'A', template, 'FREQ=DAILY', (select d from t), '08:00', 'P2D', inspector from actors;
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, 'B', template, 'FREQ=DAILY', (select d from t), time '09:00', interval 'PT4H' from actors
  union all select org_a, 'D', template, 'FREQ=DAILY', (select d from t), '07:00', 'PT1H' from actors
  union all select org_c, 'C', c_template, 'FREQ=DAILY', (select d from t), '10:00', 'PT4H' from actors;
insert into public.schedule_sites (schedule_id, site_id)
  select s.id, a.site from public.schedules s, actors a where s.org_id = a.org_a and s.name in ('A', 'B', 'D')
  union all select s.id, a.auckland from public.schedules s, actors a where s.org_id = a.org_a and s.name = 'D'
  union all select s.id, a.c_site from public.schedules s, actors a where s.org_id = a.org_c;
select private.materialise_schedules(pg_temp.at(-1, '00:00'), org_a) from actors;
select private.materialise_schedules(pg_temp.at(-1, '00:00'), org_c) from actors;

-- An occurrence: schedule name, site, and its start.
create function pg_temp.occurrence(schedule_name text, site uuid, starts timestamptz) returns uuid language sql stable as $$
  select i.id from public.inspections i join public.schedules s on s.id = i.schedule_id
  where s.name = schedule_name and i.site_id = site and i.occurrence_at = starts and i.canceled_reason is null;
$$;
-- Who has a row of this kind about this occurrence, in order.
create function pg_temp.recipients(inspection uuid, k public.reminder_kind) returns uuid[] language sql stable as $$
  select coalesce(array_agg(o.user_id order by o.user_id), '{}') from private.reminder_outbox o where o.inspection_id = inspection and o.kind = k;
$$;
create function pg_temp.sorted(ids uuid[]) returns uuid[] language sql immutable as $$
  select array_agg(x order by x) from unnest(ids) x;
$$;
create temp table occ on commit drop as select
  pg_temp.occurrence('A', (select site from actors), pg_temp.at(0, '08:00')) as a1,
  pg_temp.occurrence('A', (select site from actors), pg_temp.at(1, '08:00')) as a2,
  pg_temp.occurrence('B', (select site from actors), pg_temp.at(0, '09:00')) as b0,
  pg_temp.occurrence('B', (select site from actors), pg_temp.at(1, '09:00')) as b1,
  pg_temp.occurrence('D', (select site from actors), pg_temp.at(0, '07:00')) as d_utc,
  -- 07:00 on day d in Auckland is 18:00 or 19:00 UTC the day before (NZDT or NZST).
  pg_temp.occurrence('D', (select auckland from actors), private.instant_of_local_time((select d from t) + time '07:00', 'Pacific/Auckland')) as d_akl,
  pg_temp.occurrence('C', (select c_site from actors), pg_temp.at(0, '10:00')) as c0;
grant select on occ, t to authenticated;
select ok((select a1 is not null and a2 is not null and b0 is not null and b1 is not null and d_utc is not null and d_akl is not null and c0 is not null from occ),
  'the run told a "now" near day d made the occurrences (Auckland''s 07:00 the evening before in UTC)');

-- Opened: at its start, to its assignee, once.
select is((select private.queue_reminders(pg_temp.at(0, '07:59'), org_a) from actors) ->> 'opened', '2',
  'a minute before A opens, only D''s occurrence at the UTC site has opened (Auckland''s was already due): one row for each inspector');
select is(pg_temp.recipients((select a1 from occ), 'occurrence_opened'), '{}', 'nothing about A yet');
select is(pg_temp.recipients((select d_akl from occ), 'occurrence_opened'), '{}', 'nor about an occurrence whose window had closed by the run');
select private.queue_reminders(pg_temp.at(0, '08:01'), org_a) from actors;
select is(pg_temp.recipients((select a1 from occ), 'occurrence_opened'), array[(select inspector from actors)],
  'when it opens, an assigned occurrence is mailed to its assignee alone');
select private.queue_reminders(pg_temp.at(0, '08:01'), org_a) from actors;
select private.queue_reminders(pg_temp.at(0, '08:04'), org_a) from actors;
select is((select count(*)::int from private.reminder_outbox where inspection_id = (select a1 from occ) and kind = 'occurrence_opened'), 1,
  'the same run again, and the next, write it no second time');

-- Unassigned: the site's inspectors; with none, the others who may fill it in.
select private.queue_reminders(pg_temp.at(0, '09:01'), org_a) from actors;
select is(pg_temp.recipients((select b0 from occ), 'occurrence_opened'), (select pg_temp.sorted(array[inspector, inspector2]) from actors),
  'an unassigned occurrence goes to the organization''s inspectors, not its owner, admin, manager or viewer');
select is(pg_temp.recipients((select d_utc from occ), 'occurrence_opened'), (select pg_temp.sorted(array[inspector, inspector2]) from actors),
  'so did D''s');
select private.queue_reminders(pg_temp.at(0, '10:01'), org_c) from actors;
select is(pg_temp.recipients((select c0 from occ), 'occurrence_opened'), (select pg_temp.sorted(array[c_owner, c_manager]) from actors),
  'in an organization with no inspector, to its owners, admins and managers');

-- Preferences: the inspector turns "due soon" off (their own row, through RLS).
select tests.act_as((select inspector from actors));
insert into public.notification_preferences (user_id, occurrence_due_soon) select inspector, false from actors;
select tests.reset_role();
select private.queue_reminders(pg_temp.at(1, '09:00'), org_a) from actors;
select is(pg_temp.recipients((select a1 from occ), 'occurrence_due_soon'), '{}', 'due in 23 hours, but "due soon" is off: nothing');
select is(pg_temp.recipients((select a2 from occ), 'occurrence_opened'), array[(select inspector from actors)], 'the other kinds still go');

-- The managers' digest of day d: D's two occurrences that day (each on its site's calendar) were
-- missed; B's was submitted (on time); the manager has the digest off.
select tests.act_as((select inspector2 from actors));
update public.inspections set status = 'in_progress' where id = (select b0 from occ);
insert into public.answers (inspection_id, item_key, value) select b0, 'clean', '"pass"' from occ;
update public.inspections set status = 'submitted' where id = (select b0 from occ);
select tests.act_as((select manager from actors));
insert into public.notification_preferences (user_id, missed_digest) select manager, false from actors;
select tests.reset_role();
select private.note_missed_occurrences(pg_temp.at(1, '05:00'));
select is((select (private.queue_reminders(pg_temp.at(1, '05:59'), org_a) ->> 'digests')::int from actors), 0,
  'at 05:59 UTC the next day, 06:00 has not come at the UTC site yet: no digest');
select is(pg_temp.recipients((select d_utc from occ), 'occurrence_missed'), (select pg_temp.sorted(array[inspector, inspector2]) from actors),
  'a missed occurrence is mailed to whom its opening went');
select is(pg_temp.recipients((select d_akl from occ), 'occurrence_missed'), '{}',
  'but not one noted missed more than a day after it was due: stale news');
select is((select (private.queue_reminders(pg_temp.at(1, '06:01'), org_a) ->> 'digests')::int from actors), 2, 'at 06:01 it is written');
select results_eq($$select user_id, digest_date, digest_count, digest_inspection_ids from private.reminder_outbox
    where kind = 'missed_digest' and org_id = (select org_a from actors) order by user_id$$,
  $$select u, (select d from t), 2, array[(select d_akl from occ), (select d_utc from occ)]
    from unnest((select pg_temp.sorted(array[owner, admin]) from actors)) u$$,
  'to the owner and the admin (the manager turned it off; inspectors and viewers never), listing day d''s two missed in due order');
select private.queue_reminders(pg_temp.at(1, '06:01'), org_a) from actors;
select private.queue_reminders(pg_temp.at(1, '09:00'), org_a) from actors;
select is((select count(*)::int from private.reminder_outbox where kind = 'missed_digest' and org_id = (select org_a from actors)), 2,
  'and only once');

-- Due soon: 24 hours before, when the window is longer than a day; not once submitted.
select tests.act_as((select inspector from actors));
update public.notification_preferences set occurrence_due_soon = true where user_id = (select inspector from actors);
select tests.reset_role();
select private.note_missed_occurrences(pg_temp.at(2, '08:01'));
select private.queue_reminders(pg_temp.at(2, '08:02'), org_a) from actors;
select is(pg_temp.recipients((select a1 from occ), 'occurrence_missed'), array[(select inspector from actors)], 'A''s first occurrence is missed: its assignee is told');
select private.queue_reminders(pg_temp.at(2, '09:00'), org_a) from actors;
select is(pg_temp.recipients((select a2 from occ), 'occurrence_due_soon'), array[(select inspector from actors)],
  'with "due soon" back on, the next occurrence due in 23 hours is mailed');
select is(pg_temp.recipients((select a1 from occ), 'occurrence_due_soon'), '{}', 'not the one already missed');
select is((select count(*)::int from private.reminder_outbox o join public.inspections i on i.id = o.inspection_id
    join public.schedules s on s.id = i.schedule_id where s.name = 'B' and o.kind = 'occurrence_due_soon'), 0,
  'and never an occurrence due within a day of opening (B''s four hours)');
select is((select count(*)::int from private.reminder_outbox where inspection_id = (select a1 from occ) and kind = 'occurrence_missed'), 1,
  'missed is written once, whatever runs follow');

-- The worker's claim, on this organization's rows. First, things changed since they were written:
-- the second inspector turned "opened" off; the inspector started A's second occurrence.
select tests.act_as((select inspector2 from actors));
insert into public.notification_preferences (user_id, occurrence_opened) select inspector2, false from actors;
select tests.act_as((select inspector from actors));
update public.inspections set status = 'in_progress' where id = (select a2 from occ);
select tests.reset_role();
create temp table claimed on commit drop as select * from private.claim_reminder_mails(1000, '5 minutes', (select org_a from actors));
select is((select count(*)::int from claimed), (select count(*)::int from private.reminder_outbox where org_id = (select org_a from actors)),
  'a claim takes every due row of the organization');
select ok((select bool_and(skipped_because = 'switched off') from claimed where user_id is null and id in (
    select id from private.reminder_outbox where user_id = (select inspector2 from actors) and kind = 'occurrence_opened')),
  'rows of a kind switched off since are skipped, saying so');
select is((select skipped_because from private.reminder_outbox where inspection_id = (select a2 from occ) and kind = 'occurrence_opened'), 'started',
  'an opening mail about an occurrence started since is skipped');
select is((select skipped_because from private.reminder_outbox where inspection_id = (select b0 from occ) and user_id = (select inspector from actors)
    and kind = 'occurrence_opened'), 'started', 'as is one about an occurrence someone else started and submitted');
select is((select count(*)::int from private.reminder_outbox where org_id = (select org_a from actors) and status = 'skipped'),
  (select count(*)::int from claimed where skipped_because is not null), 'each skipped row is answered as skipped');
select ok((select bool_and(o.status = 'pending' and o.claimed_until > now()) from claimed c join private.reminder_outbox o on o.id = c.id
    where c.skipped_because is null), 'the others are held for the lease');
select is((select count(*)::int from private.claim_reminder_mails(1000, '5 minutes', (select org_a from actors))), 0,
  'so a second claim gets none of them');
select ok((select bool_and(email like '%@example.test' and org_slug = 'org-a-222r') from claimed where skipped_because is null),
  'each comes with the address and the organization');
select is((select array_agg(x ->> 'timezone' order by x ->> 'due_at') from claimed c, jsonb_array_elements(c.details -> 'occurrences') x
    where c.kind = 'missed_digest' and c.user_id = (select owner from actors) and c.details ->> 'date' = (select d::text from t)), array['Pacific/Auckland', 'UTC'],
  'the digest''s occurrences come with their sites'' time zones, to be labelled');
select is((select details ->> 'count' from claimed where kind = 'missed_digest' and user_id = (select owner from actors) and details ->> 'date' = (select d::text from t)),
  '2', 'and the count');
select is((select details ->> 'count' from claimed where kind = 'missed_digest' and user_id = (select owner from actors) and details ->> 'date' = (select (d + 1)::text from t)),
  '3', 'the next day''s digest, ready by the last run, has that day''s three (B''s was missed then too)');
select is((select details ->> 'timezone' from claimed where kind = 'occurrence_missed' and (details ->> 'inspection_id')::uuid = (select a1 from occ)), 'UTC',
  'an occurrence''s row comes with its site''s time zone');

-- Recording: sent; failed and retried; dead after the sixth failure.
create temp table picks on commit drop as select
  (select id from claimed where kind = 'missed_digest' and user_id = (select owner from actors) and details ->> 'date' = (select d::text from t)) as sent,
  (select id from claimed where kind = 'missed_digest' and user_id = (select admin from actors) and details ->> 'date' = (select d::text from t)) as failed;
select is(private.record_reminder_mail(array[(select sent from picks)]), 1, 'a sent mail is recorded');
select results_eq($$select status, attempts, sent_at is not null, claimed_until from private.reminder_outbox where id = (select sent from picks)$$,
  $$values ('sent'::text, 1, true, null::timestamptz)$$, 'as sent, with when');
select is(private.record_reminder_mail(array[(select sent from picks)]), 0, 'recording it again changes nothing');
select is(private.record_reminder_mail(array[(select failed from picks)], 'connect ECONNREFUSED 127.0.0.1:25'), 1, 'a failed one is recorded');
select results_eq($$select status, attempts, next_attempt_at = now() + interval '1 minute', last_error, claimed_until from private.reminder_outbox where id = (select failed from picks)$$,
  $$values ('pending'::text, 1, true, 'connect ECONNREFUSED 127.0.0.1:25'::text, null::timestamptz)$$, 'to be tried again a minute later, the error kept');
update private.reminder_outbox set attempts = 5, claimed_until = now() + interval '1 minute' where id = (select failed from picks);
select private.record_reminder_mail(array[(select failed from picks)], 'still refused');
select is((select status from private.reminder_outbox where id = (select failed from picks)), 'dead', 'the sixth failure makes it dead');

-- Rows done with more than 30 days ago are removed by the run; pending ones and newer ones stay.
insert into private.reminder_outbox (org_id, user_id, kind, digest_date, digest_inspection_ids, digest_count, queued_at, created_at, status)
select a.org_a, a.owner, 'missed_digest', t.d - x.days_back, array[o.a1], 1, now(), now() - x.age, x.status
from actors a, t, occ o, (values (100, interval '31 days', 'sent'), (101, interval '31 days', 'pending'), (102, interval '29 days', 'skipped')) x (days_back, age, status);
select private.queue_reminders(pg_temp.at(2, '09:05'), org_a) from actors;
select is((select array_agg(status order by digest_date desc) from private.reminder_outbox
    where kind = 'missed_digest' and digest_date < (select d - 99 from t) and user_id = (select owner from actors)), array['pending', 'skipped'],
  'the run removes a row sent 31 days ago, and keeps a pending one that old and one done with 29 days ago');

-- The preferences are each person's own (RLS, both sides), and the outbox is nobody's to read.
insert into public.notification_preferences (user_id, occurrence_opened) select viewer, false from actors;
select tests.act_as((select inspector from actors));
select is((select array_agg(user_id) from public.notification_preferences), array[(select inspector from actors)],
  'a person reads their own preferences and nobody else''s');
select is((select count(*)::int from (
    select 1 from public.notification_preferences where user_id in (select viewer from actors)) x), 0, 'not even by asking for them');
with changed as (update public.notification_preferences set missed_digest = false where user_id = (select viewer from actors) returning 1)
select is((select count(*)::int from changed), 0, 'cannot change another person''s');
select throws_ok($$insert into public.notification_preferences (user_id) select manager_c.id from (select c_manager as id from actors) manager_c$$,
  '42501', null, 'cannot write a row for another person');
select throws_ok($$delete from public.notification_preferences$$, '42501', null, 'nor delete rows: they are switched, never removed');
select throws_ok($$select 1 from private.reminder_outbox$$, '42501', null, 'and a person cannot read the outbox');
select tests.act_as_anon();
select throws_ok($$select 1 from public.notification_preferences$$, '42501', null, 'anon reads no preferences');
select tests.reset_role();

select * from finish();
rollback;
