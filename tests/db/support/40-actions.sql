-- Fixtures for the corrective-action tests. Like the other fixtures they write without a user's
-- claims (a server write), so the role rules do not apply to them, but the table of moves does:
-- an action reaches its status by the allowed moves, not past the triggers.

-- An action of `org` at `site`, assigned to `assignee`, moved to `status` through the allowed moves.
create or replace function tests.create_action(org uuid, site uuid, status public.action_status default 'open',
                                               assignee uuid default null, title text default 'Fix the leak')
returns uuid
language plpgsql
as $$
declare
  created uuid;
begin
  perform set_config('request.jwt.claims', '', true);
  insert into public.actions (org_id, site_id, assignee_id, title)
  values (org, site, assignee, title)
  returning id into created;
  if status = 'canceled' then
    update public.actions a set status = 'canceled' where a.id = created;
  elsif status <> 'open' then
    update public.actions a set status = 'in_progress' where a.id = created;
    if status in ('resolved', 'verified') then
      update public.actions a set status = 'resolved', transition_note = 'Fixed.' where a.id = created;
    end if;
    if status = 'verified' then
      update public.actions a set status = 'verified' where a.id = created;
    end if;
  end if;
  return created;
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
