-- Corrective actions (PRODUCT.md §3, §4, §6): a problem found at a site, assigned to someone to
-- fix, tracked open → in progress → resolved → verified. Most are opened by submitting an
-- inspection with failed items (20261124100500); anyone who works actions can open one by hand,
-- from an item of an inspection or from a site. This migration holds the table, what a new
-- action must satisfy, and who may see and change which rows; the status moves are in
-- 20261124100400 and their history in 20261124100300.

create type public.action_status as enum ('open', 'in_progress', 'resolved', 'verified', 'canceled');
comment on type public.action_status is 'Lifecycle of a corrective action; allowed moves are in public.action_transitions.';

create type public.action_priority as enum ('low', 'medium', 'high', 'critical');
comment on type public.action_priority is 'How urgent a corrective action is; also sets its default due date.';

create table public.actions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  -- Sites and inspections are archived or canceled, never deleted, so these keep pointing somewhere.
  site_id uuid not null references public.sites (id),
  inspection_id uuid references public.inspections (id),
  item_key text
    constraint actions_item_key_check check (item_key ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  -- 'submit': opened by submitting the inspection with the item failed; 'manual': by a person.
  origin text not null default 'manual'
    constraint actions_origin_check check (origin in ('submit', 'manual')),
  title text not null
    constraint actions_title_check check (char_length(title) between 1 and 200 and title !~ '^\s|\s$'),
  description text
    constraint actions_description_check check (char_length(description) between 1 and 4000),
  priority public.action_priority not null default 'medium',
  assignee_id uuid references auth.users (id) on delete set null,
  -- Every action has a deadline; when none is given it follows from the priority.
  due_at timestamptz not null,
  status public.action_status not null default 'open',
  -- Write-only: the note given with the status change an update makes. The transition trigger
  -- moves it into action_events (and into resolution_note when resolving), so at rest it is
  -- always null and a note in an update is always that update's own.
  transition_note text
    constraint actions_transition_note_check check (char_length(transition_note) between 1 and 2000),
  resolution_note text
    constraint actions_resolution_note_check check (char_length(resolution_note) between 1 and 2000),
  resolved_at timestamptz,
  resolved_by uuid references auth.users (id) on delete set null,
  verified_at timestamptz,
  verified_by uuid references auth.users (id) on delete set null,
  canceled_at timestamptz,
  canceled_by uuid references auth.users (id) on delete set null,
  -- Set when a later submission of the inspection no longer fails the item ("item now passes"):
  -- the action stays, for a manager to verify or cancel; cleared if the item fails again.
  item_passed_at timestamptz,
  -- Row version: bumped by every update.
  version integer not null default 1,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint actions_item_needs_inspection_check check (item_key is null or inspection_id is not null),
  constraint actions_submit_names_item_check check (origin <> 'submit' or item_key is not null)
);

comment on table public.actions is 'Corrective actions: a problem at a site, assigned to be fixed and verified.';
comment on column public.actions.transition_note is 'Write-only note of the status change an update makes; always null at rest (kept in action_events).';
comment on column public.actions.item_passed_at is 'When a later submission of the inspection passed the item this action is about; null while it fails.';

-- Submitting opens at most one action per failed item, whatever races or resubmissions happen.
create unique index actions_inspection_id_item_key_submit_key on public.actions (inspection_id, item_key) where origin = 'submit';
-- The list's default order and its org_id policy column.
create index actions_org_id_created_at_idx on public.actions (org_id, created_at desc, id desc);
create index actions_org_id_status_idx on public.actions (org_id, status);
create index actions_org_id_updated_at_idx on public.actions (org_id, updated_at);
-- "My open actions" and the inspector's update policy.
create index actions_assignee_id_status_idx on public.actions (assignee_id, status);
create index actions_site_id_idx on public.actions (site_id);
create index actions_inspection_id_item_key_idx on public.actions (inspection_id, item_key);
create index actions_resolved_by_idx on public.actions (resolved_by);
create index actions_verified_by_idx on public.actions (verified_by);
create index actions_canceled_by_idx on public.actions (canceled_by);
create index actions_created_by_idx on public.actions (created_by);

create trigger actions_set_updated_at
  before update on public.actions
  for each row execute function private.set_updated_at();

-- How long a new action has when no due date is given (docs/actions.md).
create or replace function private.default_action_due_at(priority public.action_priority, since timestamptz)
returns timestamptz
language sql
immutable
set search_path = ''
as $$
  select since + case priority
    when 'critical' then interval '1 day'
    when 'high' then interval '3 days'
    when 'medium' then interval '7 days'
    else interval '30 days'
  end;
$$;

revoke all on function private.default_action_due_at(public.action_priority, timestamptz) from public, anon;
grant execute on function private.default_action_due_at(public.action_priority, timestamptz) to authenticated, service_role;

-- How an action's status reads in a sentence ("This action is in progress, so it can't be verified.").
create or replace function private.action_status_label(status public.action_status)
returns text
language sql
immutable
set search_path = ''
as $$
  select replace(status::text, '_', ' ');
$$;

revoke all on function private.action_status_label(public.action_status) from public, anon;
grant execute on function private.action_status_label(public.action_status) to authenticated, service_role;

-- Refuses an assignee who is not an owner, admin, manager or inspector of the organization:
-- viewers and outsiders do not work on actions.
create or replace function private.check_action_assignee(org uuid, assignee uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if assignee is not null and not exists (
    select 1 from public.memberships m
    where m.org_id = org and m.user_id = assignee and m.role in ('owner', 'admin', 'manager', 'inspector')
  ) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'assignee_id',
        'message', 'Choose a member of this organization who can work on actions.')::text;
  end if;
end;
$$;

revoke all on function private.check_action_assignee(uuid, uuid) from public, anon, authenticated;

-- Whether the caller works on this action (PRODUCT.md §6): owners, admins and managers of its
-- organization on every action, inspectors on those assigned to them. The one copy of the rule
-- behind the update policy, the photos and their storage policies. security definer so policies
-- can read the action whatever the caller's own policies allow.
create or replace function private.can_work_action(action uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.actions a
    where a.id = action
      and (private.current_org_role(a.org_id) in ('owner', 'admin', 'manager')
           or (private.current_org_role(a.org_id) = 'inspector' and a.assignee_id = (select auth.uid())))
  );
$$;

comment on function private.can_work_action(uuid) is
  'True when the caller works on this action: a manager or above of its organization, or the inspector it is assigned to.';

revoke all on function private.can_work_action(uuid) from public, anon;
grant execute on function private.can_work_action(uuid) to authenticated, service_role;

-- Before a new action: where it belongs (the site, and the inspection and item when given, all
-- of its organization), who it is for, when it is due, and that it starts open. security
-- definer so the checks read the rows whatever the caller's own visibility; a caller who may not
-- open actions in the organization is left to RLS, which refuses the insert right after (42501)
-- without learning anything here.
create or replace function private.prepare_action()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
  caller_role public.org_role;
  site record;
  inspection record;
begin
  if client then
    caller_role := private.current_org_role(new.org_id);
    if caller_role is null or caller_role not in ('owner', 'admin', 'manager', 'inspector') then
      return new;
    end if;
    -- An inspector opens actions for themselves (PRODUCT.md §6); the policy holds them to it.
    if caller_role = 'inspector' then
      new.assignee_id := coalesce(new.assignee_id, (select auth.uid()));
    end if;
  end if;

  if new.inspection_id is not null then
    -- Shared lock: a submit (which opens actions for failed items) waits until this one is in,
    -- and then sees it, so an item never gets a second action by a race.
    select i.org_id, i.site_id, i.template_version_id into inspection
    from public.inspections i where i.id = new.inspection_id
    for share;
    if not found or inspection.org_id <> new.org_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'inspection_id', 'message', 'Choose an inspection of this organization.')::text;
    end if;
    if new.site_id is null then
      new.site_id := inspection.site_id;
    elsif new.site_id <> inspection.site_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'site_id', 'message', 'Choose the site of the inspection, or leave the site out.')::text;
    end if;
    if new.item_key is not null and private.template_item(
      (select v.definition from public.template_versions v where v.id = inspection.template_version_id), new.item_key
    ) is null then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'item_key', 'message', 'Choose an item of this inspection''s template.')::text;
    end if;
  elsif new.item_key is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'item_key', 'message', 'Name the inspection the item belongs to.')::text;
  end if;

  select s.org_id, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  -- A failed item of an inspection still opens its action after the site was archived.
  if site.archived_at is not null and new.origin = 'manual' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  perform private.check_action_assignee(new.org_id, new.assignee_id);

  -- An action starts open; who resolved, verified or canceled it is for its moves to say.
  if new.status is distinct from 'open' then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'action', 'status', 'new', 'verb', private.action_status_label(new.status))::text;
  end if;
  new.transition_note := null;
  new.resolution_note := null;
  new.resolved_at := null;
  new.resolved_by := null;
  new.verified_at := null;
  new.verified_by := null;
  new.canceled_at := null;
  new.canceled_by := null;
  new.item_passed_at := null;
  new.version := 1;
  new.due_at := coalesce(new.due_at, private.default_action_due_at(new.priority, now()));
  if client then
    new.created_by := (select auth.uid());
  end if;
  return new;
end;
$$;

comment on function private.prepare_action() is
  'Before-insert trigger: site, inspection, item and assignee consistency, default due date, starts open.';

revoke all on function private.prepare_action() from public, anon, authenticated;

create trigger actions_prepare
  before insert on public.actions
  for each row execute function private.prepare_action();

create trigger actions_enforce_mfa
  before insert or update or delete on public.actions
  for each row execute function private.enforce_organization_mfa();

-- The write-only note and the row version are not news in the log.
create trigger actions_write_audit_log
  after insert or update or delete on public.actions
  for each row execute function private.write_audit_log('transition_note', 'version');

-- No delete: actions are canceled, never deleted (only an organization's deletion cascades).
create trigger actions_broadcast_change
  after insert or update on public.actions
  for each row execute function private.broadcast_organization_change('version', 'updated_at', 'transition_note');

alter table public.actions enable row level security;

create policy "Members can read their organization's actions"
  on public.actions
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

-- Managers and above open actions for anyone who works actions; inspectors for themselves only
-- (the insert trigger assigns an inspector's action to them when they name nobody).
create policy "Managers open actions for anyone, inspectors for themselves"
  on public.actions
  for insert
  to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{inspector}')) and assignee_id = (select auth.uid()))
  );

-- Which moves and edits each role may make is the transitions trigger's to decide; an inspector
-- reaches only the actions assigned to them, and cannot hand one to someone else.
create policy "Managers change any action, inspectors those assigned to them"
  on public.actions
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{inspector}')) and assignee_id = (select auth.uid()))
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager}'))
    or (org_id in (select private.org_ids_of_current_user('{inspector}')) and assignee_id = (select auth.uid()))
  );

-- No delete policy: an action is canceled, and its history stays.

revoke all on table public.actions from anon, authenticated;
grant select on table public.actions to authenticated;
-- Lifecycle stamps, the origin, the "item now passes" mark, version and created_by are set by
-- triggers only; a move is an update of status with its transition_note.
grant insert (id, org_id, site_id, inspection_id, item_key, title, description, priority, assignee_id, due_at)
  on table public.actions to authenticated;
grant update (title, description, priority, assignee_id, due_at, status, transition_note)
  on table public.actions to authenticated;
grant all on table public.actions to service_role;
