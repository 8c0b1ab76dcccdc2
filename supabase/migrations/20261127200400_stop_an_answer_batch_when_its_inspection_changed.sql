-- Issue 15: an answer batch is checked against the inspection as the api read it a moment
-- before, and written in the same message as that check (api/answers.ts), so a save is one round
-- trip after its read. If the inspection or one of the batch's answers changed in between, this
-- stops the message (its implicit transaction rolls back) and the api saves again the careful
-- way: lock, read, check, write. A statement cannot raise by itself, hence this helper.
create or replace function private.stop_if_changed(changed boolean)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if changed then
    raise exception 'changed since it was read' using errcode = 'FC409';
  end if;
end;
$$;

comment on function private.stop_if_changed(boolean) is
  'Raises FC409 when told something changed since it was read; the answers route then saves under the lock.';

revoke all on function private.stop_if_changed(boolean) from public, anon;
grant execute on function private.stop_if_changed(boolean) to authenticated, service_role;
