-- Answers' audit rows, written set-based (issue 15): one `insert … select` per statement from its
-- transition tables, instead of a call of private.write_audit_log() and an insert for every
-- answer. The rows are exactly those that function writes for answers (which log every column):
-- the actor from the request's claims (API key, else user, else system), the action, the answer's
-- id and organization, the row before and after as jsonb, and no entry for an update that changed
-- nothing but updated_at. Every other table keeps private.write_audit_log().

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
  if tg_op = 'INSERT' then
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
    select n.org_id, kind, actor_user, actor_key, 'insert', tg_table_name, n.id, null, to_jsonb(n)
    from new_answers n;
  elsif tg_op = 'UPDATE' then
    -- An answer's id never changes (only value and note may be updated by clients), so it pairs
    -- each row with what it was.
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
    select changed.org_id, kind, actor_user, actor_key, 'update', tg_table_name, changed.id, changed.before_row, changed.after_row
    from (
      select (w.answer).org_id, (w.answer).id, to_jsonb(o) as before_row, to_jsonb(w.answer) as after_row, w.written
      from (select n as answer, row_number() over () as written from new_answers n) w
      join old_answers o on o.id = (w.answer).id
    ) changed
    -- An update that changed nothing but its timestamp is not worth an entry.
    where changed.before_row - 'updated_at' <> changed.after_row - 'updated_at'
    order by changed.written;
  else
    insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
    select o.org_id, kind, actor_user, actor_key, 'delete', tg_table_name, o.id, to_jsonb(o), null
    from old_answers o;
  end if;
  return null;
end;
$$;

comment on function private.write_answer_audit_rows() is
  'After-statement trigger on answers: appends the statement''s changes to audit_log in one insert, as write_audit_log would row by row.';

revoke all on function private.write_answer_audit_rows() from public, anon, authenticated;

drop trigger answers_write_audit_log on public.answers;

-- One trigger per event: a trigger with transition tables may have only one.
create trigger answers_write_audit_log_after_insert
  after insert on public.answers
  referencing new table as new_answers
  for each statement execute function private.write_answer_audit_rows();

create trigger answers_write_audit_log_after_update
  after update on public.answers
  referencing old table as old_answers new table as new_answers
  for each statement execute function private.write_answer_audit_rows();

create trigger answers_write_audit_log_after_delete
  after delete on public.answers
  referencing old table as old_answers
  for each statement execute function private.write_answer_audit_rows();
