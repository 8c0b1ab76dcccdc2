-- Closes the door "no user id means a trusted server": until now some triggers skipped their
-- checks when auth.uid() was null, which was true only of servers (migrations, the seed, workers)
-- while every client was a user. An API key is a client without a user, so these rules now ask
-- private.is_client_request() (the request's JWT role and the database role) whether to apply,
-- and private.current_org_role() for the caller's role. Each function is the one before with
-- only that changed.

-- Clients (users and keys) lock only their organizations' inspections; servers any.
create or replace function private.lock_inspection(inspection_id uuid)
returns table (org_id uuid, status public.inspection_status, template_version_id uuid, assignee_id uuid)
language sql
volatile
security definer
set search_path = ''
as $$
  select i.org_id, i.status, i.template_version_id, i.assignee_id
  from public.inspections i
  where i.id = inspection_id
    and (not private.is_client_request() or i.org_id in (select private.org_ids_of_current_user()))
  for no key update of i;
$$;

-- A client's new inspection is checked whether or not the client is a user.
create or replace function private.prepare_inspection()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  site record;
  template record;
  version_template uuid;
begin
  -- A missing org_id counts as not theirs: the checks below would otherwise describe another
  -- organization's site or template to anyone who names its id.
  if private.is_client_request()
     and (new.org_id is null or new.org_id not in (select private.org_ids_of_current_user('{owner,admin,manager}'))) then
    return new;
  end if;

  select s.org_id, s.name, s.archived_at into site from public.sites s where s.id = new.site_id;
  if not found or site.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'Choose a site of this organization.')::text;
  end if;
  if site.archived_at is not null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'site_id', 'message', 'This site is archived. Choose an active site.')::text;
  end if;

  -- Shared lock: archiving or publishing the template waits until this inspection is in.
  select t.org_id, t.name, t.status, t.latest_version into template
  from public.templates t where t.id = new.template_id
  for share;
  if not found or template.org_id <> new.org_id then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Choose a template of this organization.')::text;
  end if;
  if template.status = 'archived' then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'This template is archived. Choose an active template.')::text;
  end if;
  if template.latest_version is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'template_id', 'message', 'Publish this template before scheduling it.')::text;
  end if;

  if new.template_version_id is null then
    select v.id into new.template_version_id
    from public.template_versions v
    where v.template_id = new.template_id and v.version = template.latest_version;
  else
    select v.template_id into version_template from public.template_versions v where v.id = new.template_version_id;
    if version_template is distinct from new.template_id then
      raise exception 'validation_failed'
        using detail = json_build_object('field', 'template_version_id', 'message', 'Choose a version of this template.')::text;
    end if;
  end if;

  perform private.check_inspection_assignee(new.org_id, new.assignee_id);

  -- Both names fit 120 characters each; the title keeps the first 120 of the pair.
  new.title := coalesce(new.title, rtrim(left(template.name || ' — ' || site.name, 120)));
  return new;
end;
$$;

-- A key's answer is stamped now and by nobody, not left to say who and when as a server's may.
create or replace function private.apply_answer_rules()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  target record;
  definition jsonb;
  item jsonb;
  problem text;
  caller uuid := (select auth.uid());
begin
  -- Deleting the user who answered clears answered_by (on delete set null) in every state; the
  -- answer itself is unchanged, so none of the rules below applies.
  if tg_op = 'UPDATE' and old.answered_by is not null and new.answered_by is null
     and to_jsonb(new) - 'answered_by' = to_jsonb(old) - 'answered_by' then
    return new;
  end if;
  select * into target from private.lock_inspection(new.inspection_id);
  if not found then
    -- Not the caller's inspection: no organization, so RLS refuses the row right after.
    new.org_id := null;
    return new;
  end if;
  if tg_op = 'UPDATE' and (new.inspection_id <> old.inspection_id or new.item_key <> old.item_key) then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'item_key', 'message', 'An answer stays with its item.')::text;
  end if;
  new.org_id := target.org_id;

  if target.status <> 'in_progress' then
    raise exception 'invalid_transition'
      using detail = json_build_object('status', private.inspection_status_label(target.status), 'verb', 'answered')::text;
  end if;

  select v.definition into definition from public.template_versions v where v.id = target.template_version_id;
  item := private.template_item(definition, new.item_key);
  if item is null then
    raise exception 'validation_failed'
      using detail = json_build_object('field', 'item_key', 'message', 'This item is not in the inspection''s template.')::text;
  end if;

  -- JSON null and SQL null both mean "no answer"; store one of them.
  if new.value = 'null'::jsonb then
    new.value := null;
  end if;
  problem := private.answer_value_problem(item, new.value);
  if problem is not null then
    raise exception 'validation_failed' using detail = json_build_object('field', 'value', 'message', problem)::text;
  end if;

  new.failed := private.answer_failed(item, new.value);
  new.weight := case when new.failed is null then 0 else coalesce((item ->> 'weight')::numeric, 0) end;

  -- A client's write is theirs (a key's is nobody's) and now; server writes (seed, imports) may
  -- say who and when.
  if private.is_client_request() then
    new.answered_by := caller;
    new.answered_at := now();
  elsif tg_op = 'UPDATE' and new.answered_at is not distinct from old.answered_at then
    new.answered_at := now();
  end if;
  new.version := case when tg_op = 'INSERT' then 1 else old.version + 1 end;
  return new;
end;
$$;

-- A client who may not fill the inspection learns nothing here, key or user.
create or replace function private.prepare_attachment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  inspection public.inspections;
  item jsonb;
  max_photos integer;
  taken integer;
  folder text := new.org_id || '/' || new.inspection_id || '/' || new.item_key || '/';
begin
  -- A caller who may not fill this inspection is refused by RLS next, told nothing about it here.
  if private.is_client_request() and not private.can_fill_inspection(new.inspection_id) then
    return new;
  end if;
  select * into inspection from public.inspections i where i.id = new.inspection_id;
  if inspection.id is null or inspection.org_id <> new.org_id then
    raise exception 'validation_failed' using detail = json_build_object('field', 'inspection_id', 'message', 'Choose an inspection of this organization.')::text;
  end if;
  perform private.require_inspection_in_progress(new.inspection_id);

  select private.template_item(v.definition, new.item_key) into item
  from public.template_versions v
  where v.id = inspection.template_version_id;
  if item is null then
    raise exception 'validation_failed' using detail = json_build_object('field', 'item_key', 'message', 'Choose an item of this inspection''s template.')::text;
  end if;
  if item ->> 'kind' is distinct from 'photo' then
    raise exception 'validation_failed' using detail = json_build_object('field', 'item_key', 'message', 'Photos can only be added to photo items.')::text;
  end if;

  -- The inspection is locked since require_inspection_in_progress: the count below holds.
  max_photos := coalesce((item ->> 'max_photos')::integer, 1);
  select count(*) into taken
  from public.attachments a
  where a.inspection_id = new.inspection_id and a.item_key = new.item_key
    and (a.confirmed_at is not null or a.created_at > now() - interval '2 hours');
  if taken >= max_photos then
    raise exception 'limit_exceeded' using detail = json_build_object('n', max_photos, 'things', 'photos')::text;
  end if;

  -- The folder is fixed by the row; the file name is a fresh uuid with the type's extension.
  if left(new.object_path, length(folder)) is distinct from folder
     or substr(new.object_path, length(folder) + 1)
        !~ ('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.' || private.photo_extension(new.content_type) || '$') then
    raise exception 'validation_failed' using detail = json_build_object('field', 'object_path', 'message', 'Use the path <org>/<inspection>/<item>/<uuid>.<ext> of this photo.')::text;
  end if;
  return new;
end;
$$;

-- Role checks apply to every client, by its role in the organization (a member's or a key's).
create or replace function private.enforce_inspection_transition()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  client boolean := private.is_client_request();
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

  if client then
    caller_role := private.current_org_role(old.org_id);
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
    if client and (
      caller_role is null
      or not caller_role = any (move.roles)
      or (caller_role = 'inspector' and old.assignee_id is not null and old.assignee_id is distinct from caller)
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
    if client and (caller_role is null or caller_role not in ('owner', 'admin', 'manager')) then
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
