-- The answers' statement-level audit trigger (20261127100100) writes a statement's entries in the
-- order the statement wrote its rows, as the per-row trigger did (tests/db/121 #22). Giving each
-- entry its site (20261129100800) joined the inspections in the insert and delete branches, and
-- the planner may hash the transition table into that join and emit its rows in another order.
-- The site is now a scalar sub-select per row, as the update branch already had it: the
-- transition table is scanned in order and nothing reorders it.

create or replace function private.write_answer_audit_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  kind text;
  actor_user uuid;
  actor_key uuid;
begin
  -- The same actor as private.write_audit_log(), read once for the statement.
  kind := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;
  actor_user := case when kind = 'user' then (claims ->> 'sub')::uuid end;
  actor_key := case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end;

  -- Rows in the order the statement wrote them, as the per-row trigger logged them. (A transition
  -- table is only named in the branch of its event: PL/pgSQL plans each query when it first runs.)
  -- Each with its inspection's site, looked up by a scalar sub-select per row (null for an
  -- inspection deleted with its organization): a join would let the planner hash the transition
  -- table and write the entries in another order than the statement's.
  if tg_op = 'INSERT' then
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select n.org_id, kind, actor_user, actor_key, 'insert', tg_table_name, n.id, null, to_jsonb(n),
           (select i.site_id from public.inspections i where i.id = n.inspection_id)
    from new_answers n;
  elsif tg_op = 'UPDATE' then
    -- An answer's id never changes (only value and note may be updated by clients), so it pairs
    -- each row with what it was.
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select changed.org_id, kind, actor_user, actor_key, 'update', tg_table_name, changed.id, changed.before_row, changed.after_row,
           (select i.site_id from public.inspections i where i.id = changed.inspection_id)
    from (
      select (w.answer).org_id, (w.answer).id, (w.answer).inspection_id, to_jsonb(o) as before_row, to_jsonb(w.answer) as after_row, w.written
      from (select n as answer, row_number() over () as written from new_answers n) w
      join old_answers o on o.id = (w.answer).id
    ) changed
    -- An update that changed nothing but its timestamp is not worth an entry.
    where changed.before_row - 'updated_at' <> changed.after_row - 'updated_at'
    order by changed.written;
  else
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, site_id)
    select o.org_id, kind, actor_user, actor_key, 'delete', tg_table_name, o.id, to_jsonb(o), null,
           (select i.site_id from public.inspections i where i.id = o.inspection_id)
    from old_answers o;
  end if;
  return null;
end;
$$;
