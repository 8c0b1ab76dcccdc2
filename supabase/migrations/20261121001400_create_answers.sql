-- Answers (PRODUCT.md §3): one row per (inspection, item key), so several inspectors can fill
-- one inspection at once without overwriting each other; each row has its own version.
-- Each value is checked against its item's kind here as well as in the api function, so no path
-- around the function stores a bad value; failed and weight come from the item's rules, and the
-- inspection's score, max score and failed count are recomputed after every write.

create table public.answers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  inspection_id uuid not null references public.inspections (id) on delete cascade,
  item_key text not null,
  -- Shape depends on the item's kind (docs/templates.md); null = cleared / not answered.
  value jsonb,
  note text
    constraint answers_note_check check (char_length(note) between 1 and 2000),
  -- Whether the answer fails the item's rules; null when the item is not scored or unanswered.
  failed boolean,
  -- The item's weight when the answer counts toward the score, else 0.
  weight numeric not null default 0,
  answered_by uuid default auth.uid() references auth.users (id) on delete set null,
  answered_at timestamptz not null default now(),
  -- Row version for optimistic concurrency (PUT …/answers base_version).
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint answers_inspection_id_item_key_key unique (inspection_id, item_key)
);

comment on table public.answers is 'One answer per inspection item, versioned for concurrent editing.';

create index answers_org_id_idx on public.answers (org_id);
create index answers_answered_by_idx on public.answers (answered_by);


-- The item with this key in a template definition (sections → items), or null.
create or replace function private.template_item(definition jsonb, item_key text)
returns jsonb
language sql
immutable
parallel safe
set search_path = ''
as $$
  select item
  from jsonb_array_elements(coalesce(definition -> 'sections', '[]')) as section,
       jsonb_array_elements(coalesce(section -> 'items', '[]')) as item
  where item ->> 'key' = item_key
  limit 1;
$$;

revoke all on function private.template_item(jsonb, text) from public, anon;
grant execute on function private.template_item(jsonb, text) to authenticated, service_role;

-- Why a value does not fit its item (the message users see), or null when it does. The same
-- rules and wording as answerValueSchemaFor in _shared/schemas/templates.ts; null (cleared,
-- unanswered) fits every kind. A jsonb number is always finite: JSON has no NaN or Infinity.
create or replace function private.answer_value_problem(item jsonb, value jsonb)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  value_type text := jsonb_typeof(value);
  options jsonb := coalesce(item -> 'options', '[]');
  text_value text;
  date_parts text[];
  signer text;
  image text;
begin
  if value is null or value_type = 'null' then
    return null;
  end if;
  text_value := case when value_type = 'string' then value #>> '{}' end;

  case item ->> 'kind'
    when 'pass_fail' then
      if text_value is null or text_value not in ('pass', 'fail', 'na') then
        return 'Choose pass, fail or n/a.';
      end if;
    when 'yes_no' then
      if text_value is null or text_value not in ('yes', 'no') then
        return 'Choose yes or no.';
      end if;
    when 'number' then
      if value_type <> 'number' then
        return 'Enter a number.';
      end if;
    when 'text' then
      if text_value is null then
        return 'Enter some text.';
      elsif char_length(text_value) > 4000 then
        return 'Use at most 4000 characters.';
      elsif text_value !~ '\S' then
        return 'Enter some text, or clear the answer.';
      end if;
    when 'single_choice' then
      if text_value is null or not options @> jsonb_build_array(text_value) then
        return 'Choose one of the options.';
      end if;
    when 'multi_choice' then
      if value_type <> 'array' then
        return 'Choose at least one option.';
      elsif jsonb_array_length(value) = 0 then
        return 'Choose at least one option, or clear the answer.';
      elsif exists (
        select 1 from jsonb_array_elements(value) as chosen
        where jsonb_typeof(chosen) <> 'string' or not options @> jsonb_build_array(chosen)
      ) then
        return 'Choose from the options.';
      elsif (select count(distinct chosen) from jsonb_array_elements(value) as chosen) <> jsonb_array_length(value) then
        return 'Choose each option once.';
      end if;
    when 'date' then
      if text_value is null then
        return 'Enter a date as YYYY-MM-DD.';
      end if;
      date_parts := regexp_match(text_value, '^(\d{4})-(\d{2})-(\d{2})$');
      if date_parts is null or date_parts[1]::int < 1 or date_parts[2]::int not between 1 and 12 or date_parts[3]::int < 1 then
        return 'Enter a date that exists, as YYYY-MM-DD.';
      end if;
      -- Only now that year and month are in range: make_date on the first of the month cannot
      -- fail, so the day is checked against the month's length without catching a cast error.
      if date_parts[3]::int > extract(day from make_date(date_parts[1]::int, date_parts[2]::int, 1) + interval '1 month - 1 day') then
        return 'Enter a date that exists, as YYYY-MM-DD.';
      end if;
    when 'photo' then
      return 'Add photos as attachments; a photo item has no value.';
    when 'signature' then
      if value_type <> 'object'
         or (select array_agg(k order by k) from jsonb_object_keys(value) as k) <> '{image,signer}'::text[] then
        return 'Sign and enter the signer''s name.';
      end if;
      signer := case when jsonb_typeof(value -> 'signer') = 'string' then btrim(value ->> 'signer', E' \t\n\r') end;
      image := case when jsonb_typeof(value -> 'image') = 'string' then value ->> 'image' end;
      if signer is null or signer = '' then
        return 'Enter the signer''s name.';
      elsif char_length(signer) > 120 then
        return 'Use at most 120 characters.';
      elsif signer ~ '[\x01-\x1f\x7f]' then
        return 'Remove the control characters.';
      elsif image is null then
        return 'Sign in the box.';
      elsif char_length(image) > 200000 then
        return 'The signature image is too large; clear it and sign again.';
      elsif image !~ '^data:image/png;base64,[A-Za-z0-9+/]+={0,2}$' then
        return 'Send the signature as a PNG data URL.';
      end if;
    else
      return 'This item cannot be answered.';
  end case;
  return null;
end;
$$;

comment on function private.answer_value_problem(jsonb, jsonb) is
  'Why an answer value does not fit its template item (user-facing sentence), or null when it does.';

revoke all on function private.answer_value_problem(jsonb, jsonb) from public, anon;
grant execute on function private.answer_value_problem(jsonb, jsonb) to authenticated, service_role;

-- Whether a value (already valid) fails its item: null when the item is not scored, the value is
-- empty, or it is n/a. The same rules as itemFails in _shared/schemas/templates.ts.
create or replace function private.answer_failed(item jsonb, value jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when value is null or jsonb_typeof(value) = 'null' then null
    when item ->> 'kind' = 'pass_fail' then
      case value #>> '{}' when 'fail' then true when 'pass' then false end
    when item ->> 'kind' = 'yes_no' then
      case when item ->> 'fail_on' is not null then value #>> '{}' = item ->> 'fail_on' end
    when item ->> 'kind' = 'number' then
      case when item ->> 'min' is not null or item ->> 'max' is not null then
        coalesce((value #>> '{}')::numeric < (item ->> 'min')::numeric, false)
        or coalesce((value #>> '{}')::numeric > (item ->> 'max')::numeric, false)
      end
    when item ->> 'kind' in ('single_choice', 'multi_choice') then
      case when jsonb_array_length(coalesce(item -> 'failing_options', '[]')) > 0 then
        exists (
          select 1
          from jsonb_array_elements(case when jsonb_typeof(value) = 'array' then value else jsonb_build_array(value) end) as chosen
          where item -> 'failing_options' @> jsonb_build_array(chosen)
        )
      end
  end;
$$;

revoke all on function private.answer_failed(jsonb, jsonb) from public, anon;
grant execute on function private.answer_failed(jsonb, jsonb) to authenticated, service_role;

-- Locks an inspection against concurrent changes of its answers, attachments and status, and
-- returns what writers check: only for members of its organization (a signed-in caller), or for
-- server roles without a user. security definer because taking the row lock needs update rights
-- on inspections, which fillers do not have; the membership check stands in for RLS.
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
    and ((select auth.uid()) is null or i.org_id in (select private.org_ids_of_current_user()))
  for no key update of i;
$$;

comment on function private.lock_inspection(uuid) is
  'Locks an inspection of the caller''s organizations (no key update) and returns its status; no row when not theirs.';

revoke all on function private.lock_inspection(uuid) from public, anon;
grant execute on function private.lock_inspection(uuid) to authenticated, service_role;

-- Before every answer write: the inspection must be in progress (checked with it locked, so a
-- concurrent submit cannot slip between), the item must exist in its pinned template version and
-- the value must fit the item; then failed, weight, who and when, and the row version. Runs as
-- the caller, so the template version is read under RLS. Named to sort before
-- answers_enforce_mfa, which reads the org_id set here.
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

  -- A user's write is theirs and now; server writes (seed, imports) may say who and when.
  if caller is not null then
    new.answered_by := caller;
    new.answered_at := now();
  elsif tg_op = 'UPDATE' and new.answered_at is not distinct from old.answered_at then
    new.answered_at := now();
  end if;
  new.version := case when tg_op = 'INSERT' then 1 else old.version + 1 end;
  return new;
end;
$$;

revoke all on function private.apply_answer_rules() from public, anon, authenticated;

create trigger answers_apply_item_rules
  before insert or update on public.answers
  for each row execute function private.apply_answer_rules();

-- After every statement on answers: score, max score and failed count of each inspection it
-- touched, recomputed from all its answers. security definer because fillers may not update
-- inspections' scores themselves.
create or replace function private.refresh_inspection_scores()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The lock comes first, in a statement of its own: the totals below are then read with a
  -- fresh snapshot that includes every earlier writer of these inspections, so concurrent
  -- batches serialize per inspection and the last commit leaves the true totals.
  perform 1
  from public.inspections i
  where i.id in (select distinct c.inspection_id from changed_answers c)
  order by i.id
  for no key update of i;

  update public.inspections i
  set score = totals.score, max_score = totals.max_score, failed_count = totals.failed_count
  from (
    select ids.inspection_id,
           coalesce(sum(a.weight) filter (where a.failed = false), 0) as score,
           coalesce(sum(a.weight), 0) as max_score,
           count(*) filter (where a.failed)::integer as failed_count
    from (select distinct c.inspection_id from changed_answers c) ids
    left join public.answers a on a.inspection_id = ids.inspection_id
    group by ids.inspection_id
  ) totals
  where i.id = totals.inspection_id
    and (i.score, i.max_score, i.failed_count) is distinct from (totals.score, totals.max_score, totals.failed_count);
  return null;
end;
$$;

comment on function private.refresh_inspection_scores() is
  'After-statement trigger on answers: recomputes score, max_score and failed_count of the inspections touched.';

revoke all on function private.refresh_inspection_scores() from public, anon, authenticated;

-- One trigger per event: a trigger with transition tables may have only one.
create trigger answers_refresh_scores_after_insert
  after insert on public.answers
  referencing new table as changed_answers
  for each statement execute function private.refresh_inspection_scores();

create trigger answers_refresh_scores_after_update
  after update on public.answers
  referencing new table as changed_answers
  for each statement execute function private.refresh_inspection_scores();

create trigger answers_refresh_scores_after_delete
  after delete on public.answers
  referencing old table as changed_answers
  for each statement execute function private.refresh_inspection_scores();

create trigger answers_set_updated_at
  before update on public.answers
  for each row execute function private.set_updated_at();

create trigger answers_write_audit_log
  after insert or update or delete on public.answers
  for each row execute function private.write_audit_log();

create trigger answers_enforce_mfa
  before insert or update or delete on public.answers
  for each row execute function private.enforce_organization_mfa();

alter table public.answers enable row level security;

create policy "Members can read their organization's answers"
  on public.answers
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

-- Owners, admins and managers answer any inspection of theirs; inspectors those assigned to them
-- or to nobody (an unassigned inspection is open to every inspector: that is how they
-- collaborate). Whether the inspection is in progress is the trigger's check.
create policy "Fillers can answer the inspections they work on"
  on public.answers
  for insert
  to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  );

create policy "Fillers can change answers of the inspections they work on"
  on public.answers
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin,manager,inspector}'))
    and private.can_fill_inspection(inspection_id)
  );

-- No delete policy: a null value clears an answer, and the row keeps its version history.

revoke all on table public.answers from anon, authenticated;
grant select on table public.answers to authenticated;
-- org_id, failed, weight, answered_by/at and version are set by the trigger, whatever is sent.
grant insert (org_id, inspection_id, item_key, value, note) on table public.answers to authenticated;
grant update (value, note) on table public.answers to authenticated;
grant all on table public.answers to service_role;
