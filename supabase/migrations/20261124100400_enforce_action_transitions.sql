-- Corrective action lifecycle (PRODUCT.md §4, §6) enforced in the database: every status change
-- must be a row of public.action_transitions and made by one of its roles (inspectors only on
-- actions assigned to them); moves that need a note get one; who resolved, verified or canceled
-- and when are set here, never taken from the caller; each move is written to action_events with
-- its note; the details of a finished action are frozen. No path around the api function can
-- skip a state or go back one, except the reopen that the table allows.

create table public.action_transitions (
  from_status public.action_status not null,
  to_status public.action_status not null,
  -- How the move reads in "This action is {status}, so it can't be {verb}."
  verb text not null,
  -- Roles that may make the move; inspectors only on actions assigned to them.
  roles public.org_role[] not null,
  -- What the note of the move is asked for with, when the move needs one (null: optional).
  note_message text,
  primary key (from_status, to_status)
);

comment on table public.action_transitions is 'The allowed status moves of a corrective action, who may make each, and which need a note.';

insert into public.action_transitions (from_status, to_status, verb, roles, note_message) values
  ('open', 'in_progress', 'started', '{owner,admin,manager,inspector}', null),
  ('in_progress', 'resolved', 'resolved', '{owner,admin,manager,inspector}', 'Say what was done to fix it.'),
  ('resolved', 'verified', 'verified', '{owner,admin,manager}', null),
  ('resolved', 'open', 'reopened', '{owner,admin,manager}', 'Say why the fix is not good enough.'),
  ('open', 'canceled', 'canceled', '{owner,admin,manager}', null),
  ('in_progress', 'canceled', 'canceled', '{owner,admin,manager}', null),
  ('resolved', 'canceled', 'canceled', '{owner,admin,manager}', null);

alter table public.action_transitions enable row level security;

-- Reference data: the web reads it to show only the buttons a state allows.
create policy "Signed-in users can read the action transitions"
  on public.action_transitions
  for select
  to authenticated
  using (true);

revoke all on table public.action_transitions from anon, authenticated;
grant select on table public.action_transitions to authenticated;
grant all on table public.action_transitions to service_role;

-- Refuses a move no row of the table allows: "This action is {from}, so it can't be {verb of the
-- target}." Shared by the two triggers below.
create or replace function private.refuse_action_move(from_status public.action_status, to_status public.action_status)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  raise exception 'invalid_transition'
    using detail = json_build_object(
      'thing', 'action',
      'status', private.action_status_label(from_status),
      'verb', coalesce((select t.verb from public.action_transitions t where t.to_status = refuse_action_move.to_status limit 1), 'changed')
    )::text;
end;
$$;

revoke all on function private.refuse_action_move(public.action_status, public.action_status) from public, anon;
grant execute on function private.refuse_action_move(public.action_status, public.action_status) to authenticated, service_role;

-- Before every update of an action. security definer so it reads the caller's membership and
-- appends to action_events, which callers may not write; whether the role rules apply is
-- private.is_client_request()'s call, so the product's own definer code acting for a client (the
-- submit trigger marking items) is held to the transition table and frozen fields all the same,
-- and column privileges keep clients off the columns only that code writes (item_passed_at).
create or replace function private.enforce_action_transition()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
  caller uuid := (select auth.uid());
  user_columns constant text[] := '{assignee_id,resolved_by,verified_by,canceled_by,created_by}';
  caller_role public.org_role;
  move public.action_transitions;
  note text := new.transition_note;
begin
  -- Deleting a user clears their references (on delete set null) in every state: the history
  -- keeps its rows. Only then are these columns nulled for someone who no longer exists.
  if (to_jsonb(new) - user_columns) = (to_jsonb(old) - user_columns) and not exists (
    select 1 from jsonb_each_text(to_jsonb(old)) o
    where o.key = any (user_columns) and o.value is distinct from to_jsonb(new) ->> o.key
      and (to_jsonb(new) ->> o.key is not null or exists (select 1 from auth.users u where u.id = o.value::uuid))
  ) then
    new.version := old.version + 1;
    return new;
  end if;

  if client then
    caller_role := private.current_org_role(old.org_id);
  end if;

  -- Set by this trigger only: whatever the caller wrote is replaced by the stored value first.
  new.transition_note := null;
  new.resolution_note := old.resolution_note;
  new.resolved_at := old.resolved_at;
  new.resolved_by := old.resolved_by;
  new.verified_at := old.verified_at;
  new.verified_by := old.verified_by;
  new.canceled_at := old.canceled_at;
  new.canceled_by := old.canceled_by;
  new.version := old.version + 1;

  if new.status is distinct from old.status then
    -- A role that never makes this move (an inspector verifying) is refused as such, whatever the state.
    if client and not exists (
      select 1 from public.action_transitions t where t.to_status = new.status and caller_role = any (t.roles)
    ) then
      raise exception 'forbidden';
    end if;
    select * into move from public.action_transitions t where t.from_status = old.status and t.to_status = new.status;
    if not found then
      perform private.refuse_action_move(old.status, new.status);
    end if;
    if client and (
      caller_role is null
      or not caller_role = any (move.roles)
      or (caller_role = 'inspector' and old.assignee_id is distinct from caller)
    ) then
      raise exception 'forbidden';
    end if;
    if move.note_message is not null and note is null then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'note', 'message', move.note_message)::text;
    end if;

    if new.status = 'resolved' then
      new.resolution_note := note;
      new.resolved_at := now();
      new.resolved_by := caller;
    elsif new.status = 'verified' then
      new.verified_at := now();
      new.verified_by := caller;
    elsif new.status = 'canceled' then
      new.canceled_at := now();
      new.canceled_by := caller;
    elsif new.status = 'open' then
      -- Reopened: the fix did not hold; who resolved it and how stays in the history.
      new.resolution_note := null;
      new.resolved_at := null;
      new.resolved_by := null;
    end if;
    -- Recorded here, where the note is at hand; a failure later in the statement undoes it too.
    perform private.append_action_event(new, 'status_changed', old.status, note);
  elsif note is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'note', 'message', 'A note is given with a status change.')::text;
  end if;

  -- The details: managers only, and only while the action is not finished.
  if (new.title, new.description, new.priority, new.assignee_id, new.due_at)
     is distinct from (old.title, old.description, old.priority, old.assignee_id, old.due_at) then
    if old.status in ('verified', 'canceled') then
      raise exception 'invalid_transition'
        using detail = json_build_object('thing', 'action', 'status', private.action_status_label(old.status), 'verb', 'edited')::text;
    end if;
    if client and (caller_role is null or caller_role not in ('owner', 'admin', 'manager')) then
      raise exception 'forbidden';
    end if;
    if new.assignee_id is distinct from old.assignee_id then
      perform private.check_action_assignee(old.org_id, new.assignee_id);
    end if;
  end if;

  -- Where an action belongs, what it is about and where it came from are fixed when it opens.
  if (new.org_id, new.site_id, new.inspection_id, new.item_key, new.origin, new.created_by, new.created_at)
     is distinct from (old.org_id, old.site_id, old.inspection_id, old.item_key, old.origin, old.created_by, old.created_at) then
    raise exception 'forbidden';
  end if;
  return new;
end;
$$;

comment on function private.enforce_action_transition() is
  'Before-update trigger: allowed moves and roles, notes, lifecycle stamps and events, frozen details, version bump.';

revoke all on function private.enforce_action_transition() from public, anon, authenticated;

-- Named to fire after actions_enforce_mfa (triggers fire in name order): an aal1 session in an
-- organization requiring MFA is refused before anything else is checked.
create trigger actions_enforce_transition
  before update on public.actions
  for each row execute function private.enforce_action_transition();

-- Writing the status an action already has is a move too (a second "resolve" from another tab),
-- and no row of the table allows it. A trigger `of status` fires whenever the update names the
-- column, even with an unchanged value, which the row trigger cannot tell. Named to fire before
-- actions_enforce_transition, so such a write is refused as a move (409) before its note is
-- judged as one given without a move.
create or replace function private.refuse_same_action_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = old.status then
    perform private.refuse_action_move(old.status, new.status);
  end if;
  return new;
end;
$$;

revoke all on function private.refuse_same_action_status() from public, anon, authenticated;

create trigger actions_enforce_status_change
  before update of status on public.actions
  for each row execute function private.refuse_same_action_status();
