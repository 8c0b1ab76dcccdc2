-- Inspection lifecycle (PRODUCT.md §4, §6) enforced in the database: every status change must be
-- a row of public.inspection_transitions and made by one of its roles; the timestamps, actors and
-- start distance of a move are set here, never taken from the caller; a submission needs every
-- required item answered; and the assignment fields change only while the work is open. No path
-- around the api function (another client, a worker) can skip a state.

create table public.inspection_transitions (
  from_status public.inspection_status not null,
  to_status public.inspection_status not null,
  -- How the move reads in "This inspection is {status}, so it can't be {verb}."
  verb text not null,
  -- Roles that may make the move; inspectors only on inspections assigned to them or to nobody.
  roles public.org_role[] not null,
  primary key (from_status, to_status)
);

comment on table public.inspection_transitions is 'The allowed status moves of an inspection and who may make each.';

insert into public.inspection_transitions (from_status, to_status, verb, roles) values
  ('scheduled', 'in_progress', 'started', '{owner,admin,manager,inspector}'),
  ('changes_requested', 'in_progress', 'started', '{owner,admin,manager,inspector}'),
  ('in_progress', 'submitted', 'submitted', '{owner,admin,manager,inspector}'),
  ('submitted', 'approved', 'approved', '{owner,admin,manager}'),
  ('submitted', 'changes_requested', 'sent back', '{owner,admin,manager}'),
  ('scheduled', 'canceled', 'canceled', '{owner,admin,manager}'),
  ('in_progress', 'canceled', 'canceled', '{owner,admin,manager}');

alter table public.inspection_transitions enable row level security;

-- Reference data: the web reads it to show only the buttons a state allows.
create policy "Signed-in users can read the inspection transitions"
  on public.inspection_transitions
  for select
  to authenticated
  using (true);

revoke all on table public.inspection_transitions from anon, authenticated;
grant select on table public.inspection_transitions to authenticated;
grant all on table public.inspection_transitions to service_role;

-- Keys of the required items of a pinned version that have no answer yet, in definition order.
-- An item is answered when its answer has a value, or, for a photo item, when it has at least one
-- confirmed photo. security definer: it reads answers and attachments whatever the caller sees.
-- plpgsql so its body is checked when called: answers and attachments come in later migrations.
create or replace function private.missing_required_items(inspection uuid, version_id uuid)
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(array_agg(item ->> 'key' order by s.section_index, i.item_index), '{}')
    from public.template_versions v
    cross join lateral jsonb_array_elements(v.definition -> 'sections') with ordinality as s (section, section_index)
    cross join lateral jsonb_array_elements(s.section -> 'items') with ordinality as i (item, item_index)
    where v.id = version_id
      and (item ->> 'required')::boolean
      and case
        when item ->> 'kind' = 'photo' then not exists (
          select 1 from public.attachments a
          where a.inspection_id = inspection and a.item_key = item ->> 'key' and a.confirmed_at is not null)
        else not exists (
          select 1 from public.answers ans
          where ans.inspection_id = inspection and ans.item_key = item ->> 'key'
            and ans.value is not null and ans.value <> 'null'::jsonb)
      end
  );
end;
$$;

-- Not for the API roles' own calls: it takes any inspection id and reads past RLS. The
-- transition trigger calls it as its owner.
revoke all on function private.missing_required_items(uuid, uuid) from public, anon, authenticated;
grant execute on function private.missing_required_items(uuid, uuid) to service_role;

-- Refuses a status move no row of the table allows: "This inspection is {from}, so it can't be
-- {verb of the target}." Shared by the two triggers below.
create or replace function private.refuse_inspection_move(from_status public.inspection_status, to_status public.inspection_status)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  raise exception 'invalid_transition'
    using detail = json_build_object(
      'status', private.inspection_status_label(from_status),
      'verb', coalesce((select t.verb from public.inspection_transitions t where t.to_status = refuse_inspection_move.to_status limit 1), 'changed')
    )::text;
end;
$$;

revoke all on function private.refuse_inspection_move(public.inspection_status, public.inspection_status) from public, anon;
-- refuse_same_status runs as the caller.
grant execute on function private.refuse_inspection_move(public.inspection_status, public.inspection_status) to authenticated, service_role;

-- Before every update of an inspection. security definer so it reads the caller's membership,
-- the site and the answers whatever RLS shows; who the caller is comes from the JWT (auth.uid()).
-- Updates without a user (workers, the answers trigger keeping the score) skip the role checks
-- but not the transition table.
create or replace function private.enforce_inspection_transition()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  user_columns constant text[] := '{assignee_id,started_by,submitted_by,reviewed_by,canceled_by,created_by}';
  caller_role public.org_role;
  move public.inspection_transitions;
  site record;
  missing text[];
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

  if caller is not null then
    select m.role into caller_role from public.memberships m where m.org_id = old.org_id and m.user_id = caller;
  end if;

  -- Set by this trigger only: whatever the caller wrote is replaced by the stored value first.
  new.started_at := old.started_at;
  new.started_by := old.started_by;
  new.start_distance_m := old.start_distance_m;
  new.start_outside_geofence := old.start_outside_geofence;
  new.submitted_at := old.submitted_at;
  new.submitted_by := old.submitted_by;
  new.reviewed_at := old.reviewed_at;
  new.reviewed_by := old.reviewed_by;
  new.canceled_at := old.canceled_at;
  new.canceled_by := old.canceled_by;
  new.version := old.version + 1;

  if new.status is distinct from old.status then
    select * into move from public.inspection_transitions t where t.from_status = old.status and t.to_status = new.status;
    if not found then
      perform private.refuse_inspection_move(old.status, new.status);
    end if;
    if caller is not null and (
      caller_role is null
      or not caller_role = any (move.roles)
      or (caller_role = 'inspector' and old.assignee_id is not null and old.assignee_id <> caller)
    ) then
      raise exception 'forbidden';
    end if;

    if new.status = 'in_progress' and old.started_at is null then
      -- The first start records where it happened; a continue after changes keeps it.
      new.started_at := now();
      new.started_by := caller;
      if new.start_latitude is not null then
        select s.latitude, s.longitude, s.geofence_m into site from public.sites s where s.id = old.site_id;
        if site.latitude is not null then
          new.start_distance_m := private.distance_m(new.start_latitude, new.start_longitude, site.latitude, site.longitude);
          new.start_outside_geofence := new.start_distance_m > site.geofence_m;
        end if;
      end if;
    elsif new.status = 'in_progress' then
      new.start_latitude := old.start_latitude;
      new.start_longitude := old.start_longitude;
      new.start_accuracy_m := old.start_accuracy_m;
    elsif new.status = 'submitted' then
      missing := private.missing_required_items(old.id, old.template_version_id);
      if cardinality(missing) > 0 then
        raise exception 'required_items_missing'
          using detail = json_build_object('n', cardinality(missing), 'missing', missing)::text;
      end if;
      new.submitted_at := now();
      new.submitted_by := caller;
    elsif new.status in ('approved', 'changes_requested') then
      new.reviewed_at := now();
      new.reviewed_by := caller;
    elsif new.status = 'canceled' then
      new.canceled_at := now();
      new.canceled_by := caller;
    end if;
  end if;

  -- The start position is written once, by the first start.
  if (new.start_latitude, new.start_longitude, new.start_accuracy_m)
     is distinct from (old.start_latitude, old.start_longitude, old.start_accuracy_m)
     and not (new.status = 'in_progress' and old.started_at is null) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'start_latitude', 'message', 'The start position is recorded when the inspection starts.')::text;
  end if;
  -- The review note belongs to a review.
  if new.review_note is distinct from old.review_note
     and not (new.status is distinct from old.status and new.status in ('approved', 'changes_requested')) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'review_note', 'message', 'A review note is given with a review.')::text;
  end if;

  -- Scheduling details: managers only, and only while the work is open.
  if (new.title, new.assignee_id, new.due_at, new.external_ref)
     is distinct from (old.title, old.assignee_id, old.due_at, old.external_ref) then
    if old.status not in ('scheduled', 'in_progress') then
      raise exception 'invalid_transition'
        using detail = json_build_object('status', private.inspection_status_label(old.status), 'verb', 'edited')::text;
    end if;
    if caller is not null and (caller_role is null or caller_role not in ('owner', 'admin', 'manager')) then
      raise exception 'forbidden';
    end if;
    if new.assignee_id is distinct from old.assignee_id then
      perform private.check_inspection_assignee(old.org_id, new.assignee_id);
    end if;
  end if;

  -- Where an inspection belongs and what it runs are fixed when it is scheduled.
  if (new.org_id, new.site_id, new.template_id, new.template_version_id, new.created_by, new.created_at)
     is distinct from (old.org_id, old.site_id, old.template_id, old.template_version_id, old.created_by, old.created_at) then
    raise exception 'forbidden';
  end if;
  return new;
end;
$$;

comment on function private.enforce_inspection_transition() is
  'Before-update trigger: allowed moves and roles, lifecycle stamps, required items on submit, frozen details, version bump.';

revoke all on function private.enforce_inspection_transition() from public, anon, authenticated;

-- Named to fire after inspections_enforce_mfa (triggers fire in name order): an aal1 session in
-- an organization requiring MFA is refused before anything else is checked.
create trigger inspections_enforce_transition
  before update on public.inspections
  for each row execute function private.enforce_inspection_transition();

-- Writing the status an inspection already has is a move too (a second start, a double submit
-- from two tabs), and no row of the table allows it. A trigger `of status` fires whenever the
-- update names the column, even with an unchanged value, which the row trigger cannot tell.
create or replace function private.refuse_same_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = old.status then
    perform private.refuse_inspection_move(old.status, new.status);
  end if;
  return new;
end;
$$;

revoke all on function private.refuse_same_status() from public, anon, authenticated;

create trigger inspections_refuse_same_status
  before update of status on public.inspections
  for each row execute function private.refuse_same_status();
