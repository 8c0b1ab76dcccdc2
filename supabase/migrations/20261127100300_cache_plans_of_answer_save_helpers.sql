-- Two helpers on the answer-save path were SQL functions that cannot be inlined (they have
-- `set search_path`, and one is security definer), so Postgres planned their bodies again at
-- every call: is_client_request() twice for every answer written (the item rules and
-- lock_inspection ask it), inspection_hidden_item_keys() once per saved batch (its totals). As
-- PL/pgSQL their plans live as long as the connection, as 20261126100400 did for the caller
-- helpers (issue 15). In a 5-answer save, measured with EXPLAIN ANALYZE per trigger (median of 40):
-- the item rules 0.75 → 0.55 ms, the batch's totals and message 1.87 → 1.54 ms. Same signatures,
-- same bodies, same results.

-- As 20261124100100_create_caller_role_helpers.sql.
create or replace function private.is_client_request()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return current_user in ('anon', 'authenticated')
      or coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role', '') in ('anon', 'authenticated');
end;
$$;

-- As 20261126120200_create_visibility_evaluator.sql.
create or replace function private.inspection_hidden_item_keys(inspection uuid)
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select case when private.definition_has_visibility_rules(v.definition) then
      private.hidden_item_keys(
        v.definition,
        (select coalesce(jsonb_object_agg(a.item_key, a.value), '{}') from public.answers a where a.inspection_id = i.id and a.value is not null)
      )
    else '{}'::text[] end
    from public.inspections i
    join public.template_versions v on v.id = i.template_version_id
    where i.id = inspection_hidden_item_keys.inspection
  );
end;
$$;
