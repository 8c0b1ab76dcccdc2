-- Live inspections list and dashboard (PRODUCT.md §4, §7 "Realtime"): every new inspection and
-- every change of its status or scheduling details is broadcast on the organization's topic
-- `org:<id>` as inspection_created / inspection_updated, with the status, so lists and counts
-- refresh without a reload; so is a change in the number of failed items, which the dashboard
-- counts. Score-only changes (most saved answers) go to `inspection:<id>` only
-- (docs/realtime.md), so one busy inspection does not flood the whole organization.

-- security definer because it writes realtime.messages, which callers may not insert into.
create or replace function private.broadcast_inspection_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  action text := case tg_op when 'INSERT' then 'created' else 'updated' end;
begin
  if tg_op = 'UPDATE'
     and (to_jsonb(new) - '{score,max_score,version,updated_at}'::text[])
       = (to_jsonb(old) - '{score,max_score,version,updated_at}'::text[]) then
    return null;
  end if;
  perform realtime.send(
    jsonb_build_object(
      'entity', 'inspection',
      'action', action,
      'id', new.id,
      'org_id', new.org_id,
      'actor_id', (select auth.uid()),
      'at', now(),
      'status', new.status
    ),
    'inspection_' || action,
    'org:' || new.org_id::text,
    true
  );
  return null;
end;
$$;

comment on function private.broadcast_inspection_change() is
  'After-row trigger: broadcasts inspection_created / inspection_updated with the status on org:<id>.';

revoke all on function private.broadcast_inspection_change() from public, anon, authenticated;

-- No delete: inspections are canceled, never deleted (only an organization's deletion cascades).
create trigger inspections_broadcast_change
  after insert or update on public.inspections
  for each row execute function private.broadcast_inspection_change();
