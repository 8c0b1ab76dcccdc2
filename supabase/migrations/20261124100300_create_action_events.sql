-- The history of each corrective action (PRODUCT.md §3 action_events): who opened it, every
-- status move with its note, every change of assignee, and what later submissions of its
-- inspection said about the item. Written only by the actions triggers, never changed
-- afterwards: the action page's timeline and the proof of who fixed and who verified what.

create table public.action_events (
  id bigint generated always as identity primary key,
  org_id uuid not null references public.organizations (id) on delete cascade,
  action_id uuid not null references public.actions (id) on delete cascade,
  -- opened | status_changed | assigned | item_passed | item_failed_again
  kind text not null
    constraint action_events_kind_check check (kind in ('opened', 'status_changed', 'assigned', 'item_passed', 'item_failed_again')),
  from_status public.action_status,
  to_status public.action_status,
  -- The assignee after an 'assigned' event (null: unassigned).
  assignee_id uuid references auth.users (id) on delete set null,
  note text
    constraint action_events_note_check check (char_length(note) between 1 and 2000),
  -- Who, as in audit_log: a user, an API key, or the system (a worker, the seed).
  actor_kind text not null
    constraint action_events_actor_kind_check check (actor_kind in ('user', 'api_key', 'system')),
  actor_user_id uuid references auth.users (id) on delete set null,
  actor_api_key_id uuid,
  at timestamptz not null default now(),
  constraint action_events_status_change_check check (kind <> 'status_changed' or (from_status is not null and to_status is not null))
);

comment on table public.action_events is 'Append-only history of a corrective action: opened, status moves with notes, assignments, item results.';

-- The timeline of one action, oldest first.
create index action_events_action_id_at_idx on public.action_events (action_id, at, id);
create index action_events_org_id_idx on public.action_events (org_id);
create index action_events_assignee_id_idx on public.action_events (assignee_id);
create index action_events_actor_user_id_idx on public.action_events (actor_user_id);

-- Appends one event for an action, with the actor taken from the request's claims exactly as the
-- audit log takes it. security definer because nobody may insert into action_events directly.
create or replace function private.append_action_event(
  action public.actions,
  kind text,
  from_status public.action_status default null,
  note text default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  actor text := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;
begin
  insert into public.action_events (org_id, action_id, kind, from_status, to_status, assignee_id, note, actor_kind, actor_user_id, actor_api_key_id)
  values (
    action.org_id, action.id, kind, from_status,
    case when kind in ('opened', 'status_changed') then action.status end,
    case when kind in ('opened', 'assigned') then action.assignee_id end,
    note,
    actor,
    case when actor = 'user' then (claims ->> 'sub')::uuid end,
    case when actor = 'api_key' then (claims ->> 'api_key_id')::uuid end
  );
end;
$$;

comment on function private.append_action_event(public.actions, text, public.action_status, text) is
  'Appends one action_events row for the action, the actor read from the request claims.';

revoke all on function private.append_action_event(public.actions, text, public.action_status, text) from public, anon, authenticated;

-- After every insert and update of an action: the events the transitions trigger does not
-- write itself (it records each status move with its note as it checks it, 20261124100400).
-- Opening records the assignee; a new assignee gets its own event, and so do the item marks of a
-- later submission of the inspection.
create or replace function private.record_action_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.append_action_event(new, 'opened');
    return null;
  end if;
  -- Deleting the assignee's account clears the column (on delete set null): not a reassignment.
  if new.assignee_id is distinct from old.assignee_id
     and (new.assignee_id is not null or exists (select 1 from auth.users u where u.id = old.assignee_id)) then
    perform private.append_action_event(new, 'assigned');
  end if;
  if new.item_passed_at is distinct from old.item_passed_at then
    perform private.append_action_event(new, case when new.item_passed_at is null then 'item_failed_again' else 'item_passed' end);
  end if;
  return null;
end;
$$;

revoke all on function private.record_action_events() from public, anon, authenticated;

create trigger actions_record_events
  after insert or update on public.actions
  for each row execute function private.record_action_events();

-- Events never change, for every role including the table's owner. Deleting one is only possible
-- as part of deleting its organization (the cascade), when that row is already gone; deleting a
-- user clears their ids (on delete set null) and nothing else.
create or replace function private.refuse_action_event_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.organizations o where o.id = old.org_id) then
    return old;
  end if;
  if tg_op = 'UPDATE'
     and to_jsonb(new) - '{actor_user_id,assignee_id}'::text[] = to_jsonb(old) - '{actor_user_id,assignee_id}'::text[]
     and (new.actor_user_id is null or new.actor_user_id = old.actor_user_id)
     and (new.assignee_id is null or new.assignee_id = old.assignee_id) then
    return new;
  end if;
  raise exception 'action events are append-only' using errcode = '42501';
end;
$$;

revoke all on function private.refuse_action_event_change() from public, anon, authenticated;

create trigger action_events_append_only
  before update or delete on public.action_events
  for each row execute function private.refuse_action_event_change();

create trigger action_events_no_truncate
  before truncate on public.action_events
  for each statement execute function private.refuse_action_event_change();

alter table public.action_events enable row level security;

create policy "Members can read their organization's action history"
  on public.action_events
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

-- No insert, update or delete policies: only the actions triggers write, and history stays.

revoke all on table public.action_events from anon, authenticated, service_role;
grant select on table public.action_events to authenticated, service_role;
