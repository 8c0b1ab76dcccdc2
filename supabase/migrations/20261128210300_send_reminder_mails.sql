-- Sending the reminder emails (issue 26 part 5; docs/schedules.md, "Reminders"): the
-- reminder-mails function claims due rows of the outbox (migration 20261128210200), mails them
-- through the same SMTP path as invitations (_shared/mail.ts), one mail per person, organization
-- and kind per claim, and records the outcome; the database decides retries. A claim holds its
-- rows (FOR UPDATE SKIP LOCKED, then a lease), so two workers never take the same row. Rows that
-- should no longer go (the kind switched off since, the occurrence started, submitted or
-- canceled, the person no longer the one to do it) are marked skipped at the claim, with why.
-- Woken every minute: by the local stack's scheduler, and on hosted by pg_cron through pg_net
-- (as the webhook worker is, migration 20261125100700).

-- Why a row should not be sent now, or null. The occurrence's checks are made at the claim, in real
-- time: the run wrote it at its moment, the worker may send it later.
create or replace function private.reminder_skip_reason(kind public.reminder_kind, person uuid, org uuid, inspection uuid)
returns text
language sql
stable
set search_path = ''
as $$
  select case
    when not private.wants_reminder(person, kind) then 'switched off'
    when not exists (select 1 from public.profiles p where p.user_id = person and p.email is not null) then 'no email address'
    when kind = 'missed_digest' then
      case when not exists (
        select 1 from public.memberships m where m.org_id = org and m.user_id = person and m.role in ('owner', 'admin', 'manager')
      ) then 'no longer a manager' end
    else (
      select case
        when i.status = 'canceled' then 'canceled'
        when person not in (select r.user_id from private.occurrence_reminder_recipients(array[i.id]) r) then 'no longer theirs'
        when kind = 'occurrence_opened' and i.status <> 'scheduled' then 'started'
        when i.first_submitted_at is not null then 'submitted'
        when kind = 'occurrence_due_soon' and i.due_at <= now() then 'already due'
      end
      from public.inspections i
      where i.id = inspection
    )
  end;
$$;

comment on function private.reminder_skip_reason(public.reminder_kind, uuid, uuid, uuid) is
  'Why a queued reminder should not be sent now (switched off, started, submitted, canceled, no longer theirs…), or null.';

-- The worker's claim: up to `max` due rows, held for `lease`; those that should no longer go are
-- marked skipped instead, and answered with why (and nothing else), so the worker knows the claim
-- was full. Each claimed row comes with what its mail says: the person, the organization, and the
-- occurrence (with its site's time zone) or the digest's occurrences. `org` limits the claim to one
-- organization's rows (tests, beside other files' rows).
create or replace function private.claim_reminder_mails(max integer default 200, lease interval default '5 minutes', org uuid default null)
returns table (
  id uuid, kind public.reminder_kind, skipped_because text, user_id uuid, email text, display_name text,
  org_id uuid, org_name text, org_slug text, role public.org_role, details jsonb
)
language sql
volatile
security definer
set search_path = ''
as $$
  with due as (
    select o.id, o.kind, o.user_id, o.org_id, o.inspection_id
    from private.reminder_outbox o
    where o.status = 'pending' and o.next_attempt_at <= now()
      and (o.claimed_until is null or o.claimed_until < now())
      and (org is null or o.org_id = org)
    order by o.next_attempt_at, o.user_id, o.id
    limit max
    for update skip locked
  ), judged as (
    select d.id, private.reminder_skip_reason(d.kind, d.user_id, d.org_id, d.inspection_id) as skip from due d
  ), skipped as (
    update private.reminder_outbox o set status = 'skipped', skipped_because = j.skip, claimed_until = null
    from judged j where o.id = j.id and j.skip is not null
    returning o.id, o.kind, o.skipped_because
  ), claimed as (
    update private.reminder_outbox o set claimed_until = now() + lease
    from judged j where o.id = j.id and j.skip is null
    returning o.*
  )
  select s.id, s.kind, s.skipped_because, null, null, null, null, null, null, null, null
  from skipped s
  union all
  select c.id, c.kind, null, c.user_id, p.email, p.display_name, c.org_id, organization.name, organization.slug, m.role,
    case when c.kind = 'missed_digest' then jsonb_build_object(
      'date', c.digest_date,
      'count', c.digest_count,
      'occurrences', (
        select coalesce(jsonb_agg(jsonb_build_object(
          'inspection_id', i.id, 'title', i.title, 'site_name', s.name, 'timezone', s.timezone,
          'due_at', i.due_at, 'assignee_name', ap.display_name, 'status', i.status
        ) order by i.due_at, i.id), '[]')
        from public.inspections i
        join public.sites s on s.id = i.site_id
        left join public.profiles ap on ap.user_id = i.assignee_id
        where i.id = any (c.digest_inspection_ids)
      )
    ) else (
      select jsonb_build_object(
        'inspection_id', i.id, 'title', i.title, 'site_name', s.name, 'timezone', s.timezone,
        'occurrence_at', i.occurrence_at, 'due_at', i.due_at, 'assigned', i.assignee_id is not null, 'status', i.status
      )
      from public.inspections i
      join public.sites s on s.id = i.site_id
      where i.id = c.inspection_id
    ) end
  from claimed c
  join public.profiles p on p.user_id = c.user_id
  join public.organizations organization on organization.id = c.org_id
  left join public.memberships m on m.org_id = c.org_id and m.user_id = c.user_id;
$$;

comment on function private.claim_reminder_mails(integer, interval, uuid) is
  'The reminder worker''s claim: up to `max` due outbox rows held for `lease` (skip locked), with what each mail says; rows that should no longer go are marked skipped.';

-- The wait after the n-th failed send; after the sixth failure a row is dead (about 9 hours in all,
-- inside the day a reminder stays news).
create or replace function private.reminder_retry_delay(failed_attempts integer)
returns interval
language sql
immutable
set search_path = ''
as $$
  select (array['1 minute', '5 minutes', '30 minutes', '2 hours', '6 hours']::interval[])[failed_attempts];
$$;

-- Records the outcome of one mail (the rows it carried): sent, or failed with the error (retried
-- later, dead after the sixth failure). Only rows still pending and claimed are changed.
create or replace function private.record_reminder_mail(ids uuid[], error text default null)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  recorded integer;
begin
  update private.reminder_outbox o
  set attempts = o.attempts + 1,
      claimed_until = null,
      status = case
        when record_reminder_mail.error is null then 'sent'
        when private.reminder_retry_delay(o.attempts + 1) is null then 'dead'
        else 'pending'
      end,
      sent_at = case when record_reminder_mail.error is null then now() end,
      last_error = left(record_reminder_mail.error, 500),
      next_attempt_at = case
        when record_reminder_mail.error is null or private.reminder_retry_delay(o.attempts + 1) is null then o.next_attempt_at
        else now() + private.reminder_retry_delay(o.attempts + 1)
      end
  where o.id = any (ids) and o.status = 'pending' and o.claimed_until is not null;
  get diagnostics recorded = row_count;
  return recorded;
end;
$$;

comment on function private.record_reminder_mail(uuid[], text) is
  'Records one reminder mail''s outcome for the outbox rows it carried: sent, or failed (retried with backoff, dead after six failures).';

revoke all on function private.reminder_skip_reason(public.reminder_kind, uuid, uuid, uuid) from public, anon, authenticated;
revoke all on function private.claim_reminder_mails(integer, interval, uuid) from public, anon, authenticated;
revoke all on function private.reminder_retry_delay(integer) from public, anon, authenticated;
revoke all on function private.record_reminder_mail(uuid[], text) from public, anon, authenticated;
grant execute on function private.claim_reminder_mails(integer, interval, uuid) to service_role;
grant execute on function private.record_reminder_mail(uuid[], text) to service_role;

-- On hosted Supabase, pg_cron wakes the reminder-mails function every minute through pg_net when a
-- row is due, with the same Vault secrets as the webhook worker (`project_url`, and
-- `webhook_worker_key`: the project's service-role or secret key, which both workers accept).
create or replace function private.wake_reminder_mails()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  project_url text;
  worker_key text;
begin
  if not exists (select 1 from private.reminder_outbox o where o.status = 'pending' and o.next_attempt_at <= now()) then
    return null;
  end if;
  select s.decrypted_secret into project_url from vault.decrypted_secrets s where s.name = 'project_url';
  select s.decrypted_secret into worker_key from vault.decrypted_secrets s where s.name = 'webhook_worker_key';
  if project_url is null or worker_key is null then
    return null;
  end if;
  return net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/reminder-mails',
    headers := jsonb_build_object('authorization', 'Bearer ' || worker_key),
    timeout_milliseconds := 60000
  );
end;
$$;

comment on function private.wake_reminder_mails() is
  'pg_cron job: POSTs to the reminder-mails function when a reminder is due (URL and key from Vault).';

revoke all on function private.wake_reminder_mails() from public, anon, authenticated;

-- Where pg_cron and pg_net are not offered (the local stack, whose scheduler wakes the function
-- itself), this schedules nothing; where enabling them fails, it warns and goes on.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net') then
    begin
      create extension if not exists pg_net with schema extensions;
      create extension if not exists pg_cron with schema pg_catalog;
      perform cron.schedule('fieldcheck-reminder-mails', '* * * * *', 'select private.wake_reminder_mails()');
    exception when others then
      raise warning 'reminder mails are not scheduled: %', sqlerrm;
    end;
  end if;
end;
$$;
