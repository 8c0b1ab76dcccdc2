-- Hidden items on submit (issue 17; docs/inspections.md, "Logic"): an item the template's rules
-- hide for the answers given is not required, and a failed answer it kept from when it showed
-- opens no corrective action. Both are evaluated afresh at submit, from the answers as they are
-- (private.inspection_hidden_item_keys, 20261126120200), in the same transaction as the move.

-- Keys of the required items of a pinned version that show and have no answer yet, in
-- definition order. An item is answered when its answer has a value, or, for a photo item, when
-- it has at least one confirmed photo. security definer: it reads answers and attachments
-- whatever the caller sees.
create or replace function private.missing_required_items(inspection uuid, version_id uuid)
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  hidden text[] := coalesce(private.inspection_hidden_item_keys(inspection), '{}');
begin
  return (
    select coalesce(array_agg(item ->> 'key' order by s.section_index, i.item_index), '{}')
    from public.template_versions v
    cross join lateral jsonb_array_elements(v.definition -> 'sections') with ordinality as s (section, section_index)
    cross join lateral jsonb_array_elements(s.section -> 'items') with ordinality as i (item, item_index)
    where v.id = version_id
      and (item ->> 'required')::boolean
      and (item ->> 'key') <> all (hidden)
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

revoke all on function private.missing_required_items(uuid, uuid) from public, anon, authenticated;
grant execute on function private.missing_required_items(uuid, uuid) to service_role;

-- After an inspection moves to submitted. security definer because the submitter may not write
-- the marks on actions, nor open actions for someone else; the actions' own triggers still check
-- every row it writes (site, item, assignee, transitions) and record their events and audit.
-- An answer counts as failed only while its item shows: a hidden failed item opens no action,
-- and an open action on an item hidden since is marked like one whose item now passes.
create or replace function private.open_actions_for_failed_items()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  hidden text[] := coalesce(private.inspection_hidden_item_keys(new.id), '{}');
begin
  -- Earlier actions on items of this inspection: marked when the item no longer fails, unmarked
  -- when it fails again. Finished actions keep what they were finished with.
  update public.actions a
  set item_passed_at = now()
  where a.inspection_id = new.id and a.item_key is not null and a.item_passed_at is null
    and a.status in ('open', 'in_progress', 'resolved')
    and not exists (
      select 1 from public.answers x
      where x.inspection_id = new.id and x.item_key = a.item_key and x.failed and x.item_key <> all (hidden));
  update public.actions a
  set item_passed_at = null
  where a.inspection_id = new.id and a.item_passed_at is not null
    and a.status in ('open', 'in_progress', 'resolved')
    and exists (
      select 1 from public.answers x
      where x.inspection_id = new.id and x.item_key = a.item_key and x.failed and x.item_key <> all (hidden));

  -- One action per failed item that shows and has none, in the order the template lists the
  -- items. The work goes to the inspection's assignee, else to whoever submitted it, when they
  -- may work actions; otherwise it waits unassigned for a manager.
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
    and x.item_key <> all (hidden)
    and not exists (select 1 from public.actions a where a.inspection_id = new.id and a.item_key = x.item_key)
  order by s.section_index, i.item_index
  on conflict (inspection_id, item_key) where origin = 'submit' do nothing;
  return null;
end;
$$;

comment on function private.open_actions_for_failed_items() is
  'After-update trigger on inspections: on submit, opens one action per failed item that shows and has none, and marks items that no longer fail.';

revoke all on function private.open_actions_for_failed_items() from public, anon, authenticated;
