-- Submitting an inspection opens one corrective action per failed item (PRODUCT.md §4), in the
-- same transaction as the submit: titled from the item and its answer, linked to the inspection,
-- the item and the site, assigned to whoever does the inspection's work. Idempotent: an item
-- that already has an action (opened by an earlier submission, or by hand) gets no second one,
-- and the partial unique index on (inspection_id, item_key) holds that even against a race. An
-- open action whose item passes on a later submission stays, marked "item now passes" for a
-- manager to verify or cancel; the mark goes if the item fails again (docs/actions.md).

-- How an answer reads to a person: "Fail", "No", "7.5 °C", "Poor", "Wet floor, Blocked exit".
create or replace function private.answer_text(item jsonb, value jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when value is null or jsonb_typeof(value) = 'null' then null
    when item ->> 'kind' = 'pass_fail' then
      case value #>> '{}' when 'pass' then 'Pass' when 'fail' then 'Fail' when 'na' then 'N/A' end
    when item ->> 'kind' = 'yes_no' then
      case value #>> '{}' when 'yes' then 'Yes' when 'no' then 'No' end
    when item ->> 'kind' = 'number' then
      (value #>> '{}') || coalesce(' ' || nullif(item ->> 'unit', ''), '')
    when item ->> 'kind' = 'multi_choice' and jsonb_typeof(value) = 'array' then
      (select string_agg(chosen, ', ' order by position) from jsonb_array_elements_text(value) with ordinality as c (chosen, position))
    when item ->> 'kind' = 'signature' then 'Signed by ' || (value ->> 'signer')
    else value #>> '{}'
  end;
$$;

revoke all on function private.answer_text(jsonb, jsonb) from public, anon;
grant execute on function private.answer_text(jsonb, jsonb) to authenticated, service_role;

-- "Walk-in fridge at or below 5 °C — 7.5 °C": the item's label and the failing answer, cut to an
-- action title's 200 characters.
create or replace function private.failed_item_action_title(item jsonb, value jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when char_length(title) > 200 then rtrim(left(title, 199)) || '…' else title end
  from (select btrim(item ->> 'label') || coalesce(' — ' || private.answer_text(item, value), '') as title) t;
$$;

revoke all on function private.failed_item_action_title(jsonb, jsonb) from public, anon;
grant execute on function private.failed_item_action_title(jsonb, jsonb) to authenticated, service_role;

-- After an inspection moves to submitted. security definer because the submitter may not write
-- the marks on actions, nor open actions for someone else; the actions' own triggers still check
-- every row it writes (site, item, assignee, transitions) and record their events and audit.
create or replace function private.open_actions_for_failed_items()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- Earlier actions on items of this inspection: marked when the item no longer fails, unmarked
  -- when it fails again. Finished actions keep what they were finished with.
  update public.actions a
  set item_passed_at = now()
  where a.inspection_id = new.id and a.item_key is not null and a.item_passed_at is null
    and a.status in ('open', 'in_progress', 'resolved')
    and not exists (select 1 from public.answers x where x.inspection_id = new.id and x.item_key = a.item_key and x.failed);
  update public.actions a
  set item_passed_at = null
  where a.inspection_id = new.id and a.item_passed_at is not null
    and a.status in ('open', 'in_progress', 'resolved')
    and exists (select 1 from public.answers x where x.inspection_id = new.id and x.item_key = a.item_key and x.failed);

  -- One action per failed item that has none, in the order the template lists the items. The
  -- work goes to the inspection's assignee, else to whoever submitted it, when they may work
  -- actions; otherwise it waits unassigned for a manager.
  insert into public.actions (org_id, site_id, inspection_id, item_key, origin, title, description, assignee_id, created_by)
  select new.org_id, new.site_id, new.id, x.item_key, 'submit',
         private.failed_item_action_title(i.item, x.value), x.note,
         (select m.user_id from public.memberships m
          where m.org_id = new.org_id and m.user_id = coalesce(new.assignee_id, new.submitted_by)
            and m.role in ('owner', 'admin', 'manager', 'inspector')),
         new.submitted_by
  from public.answers x
  join public.template_versions v on v.id = new.template_version_id
  cross join lateral jsonb_array_elements(v.definition -> 'sections') with ordinality as s (section, section_index)
  cross join lateral jsonb_array_elements(s.section -> 'items') with ordinality as i (item, item_index)
  where x.inspection_id = new.id and x.failed and i.item ->> 'key' = x.item_key
    and not exists (select 1 from public.actions a where a.inspection_id = new.id and a.item_key = x.item_key)
  order by s.section_index, i.item_index
  on conflict (inspection_id, item_key) where origin = 'submit' do nothing;
  return null;
end;
$$;

comment on function private.open_actions_for_failed_items() is
  'After-update trigger on inspections: on submit, opens one action per failed item without one and marks items that now pass.';

revoke all on function private.open_actions_for_failed_items() from public, anon, authenticated;

create trigger inspections_open_actions_for_failed_items
  after update of status on public.inspections
  for each row
  when (new.status = 'submitted' and old.status is distinct from 'submitted')
  execute function private.open_actions_for_failed_items();
