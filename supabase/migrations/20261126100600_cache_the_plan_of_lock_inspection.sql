-- lock_inspection runs once per request that changes an inspection and again before every
-- answer row written. As an SQL function that cannot be inlined (security definer) its body was
-- planned on every call; as PL/pgSQL the plan is kept for the connection (issue 15). Same
-- rows, same lock, same rule as 20261125100300_hold_clients_without_a_user_to_client_rules.sql.
create or replace function private.lock_inspection(inspection_id uuid)
returns table (org_id uuid, status public.inspection_status, template_version_id uuid, assignee_id uuid)
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return query
    select i.org_id, i.status, i.template_version_id, i.assignee_id
    from public.inspections i
    where i.id = lock_inspection.inspection_id
      and (not private.is_client_request() or i.org_id in (select private.org_ids_of_current_user()))
    for no key update of i;
end;
$$;
