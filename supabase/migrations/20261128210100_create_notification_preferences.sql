-- Notification preferences (issue 26 part 5; docs/schedules.md, "Reminders"): each person turns
-- each kind of reminder email on or off, for every organization they belong to. One row per person,
-- written on their first change; a person without a row gets every kind (the columns' defaults,
-- read through private.wants_reminder). Only the person reads and changes their row
-- (`GET·PATCH /me/notifications`); the reminders' background run and the mail worker read it as its
-- owner. Not audited: it is the person's own setting, not their organization's data.

create table public.notification_preferences (
  user_id uuid primary key references auth.users (id) on delete cascade,
  occurrence_opened boolean not null default true,
  occurrence_due_soon boolean not null default true,
  occurrence_missed boolean not null default true,
  missed_digest boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.notification_preferences is
  'Which reminder emails each person gets (docs/schedules.md, "Reminders"); no row means every kind.';
comment on column public.notification_preferences.occurrence_opened is
  'An occurrence of a schedule opens that is theirs to fill in (assigned to them, or unassigned at a site they inspect).';
comment on column public.notification_preferences.occurrence_due_soon is
  'One of those is due in 24 hours and not submitted yet.';
comment on column public.notification_preferences.occurrence_missed is
  'One of those passed its due time without a submission (once).';
comment on column public.notification_preferences.missed_digest is
  'Owners, admins and managers: each morning, the occurrences their organization missed the day before.';

create trigger notification_preferences_set_updated_at
  before update on public.notification_preferences
  for each row execute function private.set_updated_at();

alter table public.notification_preferences enable row level security;

create policy "People can read their own notification preferences"
  on public.notification_preferences
  for select
  to authenticated
  using (user_id = (select auth.uid()));

create policy "People can set their own notification preferences"
  on public.notification_preferences
  for insert
  to authenticated
  with check (user_id = (select auth.uid()));

create policy "People can change their own notification preferences"
  on public.notification_preferences
  for update
  to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- No delete policy: a row is switched, never removed (deleting the account cascades).
revoke all on table public.notification_preferences from anon, authenticated;
grant select on table public.notification_preferences to authenticated;
grant insert (user_id, occurrence_opened, occurrence_due_soon, occurrence_missed, missed_digest)
  on table public.notification_preferences to authenticated;
grant update (occurrence_opened, occurrence_due_soon, occurrence_missed, missed_digest)
  on table public.notification_preferences to authenticated;
grant all on table public.notification_preferences to service_role;

-- The kinds of reminder, as the outbox (migration 20261128210200) and the api name them: the same
-- names as the preference columns.
create type public.reminder_kind as enum ('occurrence_opened', 'occurrence_due_soon', 'occurrence_missed', 'missed_digest');

comment on type public.reminder_kind is
  'A reminder email: an occurrence opened, due in 24 hours, missed; or the managers'' daily digest of missed occurrences.';

-- Whether a person gets a kind of reminder: their row's switch, or on when they have no row.
create or replace function private.wants_reminder(person uuid, kind public.reminder_kind)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((
    select case kind
      when 'occurrence_opened' then p.occurrence_opened
      when 'occurrence_due_soon' then p.occurrence_due_soon
      when 'occurrence_missed' then p.occurrence_missed
      when 'missed_digest' then p.missed_digest
    end
    from public.notification_preferences p
    where p.user_id = person
  ), true);
$$;

comment on function private.wants_reminder(uuid, public.reminder_kind) is
  'True when the person has this kind of reminder email on (no preferences row: every kind is on).';

revoke all on function private.wants_reminder(uuid, public.reminder_kind) from public, anon, authenticated;
