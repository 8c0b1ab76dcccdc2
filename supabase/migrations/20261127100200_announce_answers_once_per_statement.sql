-- One realtime message per saved batch of answers (issue 15; docs/realtime.md): `answers_saved`
-- with `{ inspection_id, answers: [...] }` on `inspection:<id>`, instead of one `answer_saved`
-- per row; and the inspection's totals recomputed once per batch, after that message, instead of
-- after each part of the statement.
--
-- A statement that inserts some answers and updates others (the api's save: an update and an
-- insert in one statement; `insert … on conflict do update`; `merge`) fires the after-statement
-- triggers of each event separately, each seeing only its own transition table. So each part's
-- answers wait in a transaction-local setting until the last part finishes: a before-statement
-- trigger counts the parts that have started (Postgres fires before-statement triggers as each
-- part starts and after-statement triggers only once the whole statement is done, once per
-- table and event either way), and the after-statement trigger that brings the count back to
-- zero sends. Settings made in a subtransaction that rolls back are undone with it, so a failed
-- part never leaves the count behind.

-- Sends `saved` (a list of {inspection_id, answer}, in the order written) as answers_saved: one
-- message per inspection, in the order each first appears. Realtime refuses broadcasts over
-- 256 KB (the free plan's limit), so a batch whose answers would not fit in 240,000 bytes is split
-- into several messages, in order; one answer alone always fits (a signature image is at most
-- 200,000 characters and a note 2,000).
create or replace function private.send_answers_saved(saved jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  budget constant integer := 240000;
  inspection record;
  answer jsonb;
  part jsonb;
  part_bytes integer;
  answer_bytes integer;
begin
  for inspection in
    select e ->> 'inspection_id' as id, jsonb_agg(e -> 'answer' order by k) as answers
    from jsonb_array_elements(saved) with ordinality as t (e, k)
    group by e ->> 'inspection_id'
    order by min(k)
  loop
    if octet_length(inspection.answers::text) <= budget then
      perform realtime.send(
        jsonb_build_object('inspection_id', inspection.id, 'answers', inspection.answers),
        'answers_saved', 'inspection:' || inspection.id, true);
      continue;
    end if;
    part := '[]';
    part_bytes := 0;
    for answer in select value from jsonb_array_elements(inspection.answers) loop
      answer_bytes := octet_length(answer::text) + 2;
      if part_bytes > 0 and part_bytes + answer_bytes > budget then
        perform realtime.send(jsonb_build_object('inspection_id', inspection.id, 'answers', part),
          'answers_saved', 'inspection:' || inspection.id, true);
        part := '[]';
        part_bytes := 0;
      end if;
      part := part || jsonb_build_array(answer);
      part_bytes := part_bytes + answer_bytes;
    end loop;
    perform realtime.send(jsonb_build_object('inspection_id', inspection.id, 'answers', part),
      'answers_saved', 'inspection:' || inspection.id, true);
  end loop;
end;
$$;

comment on function private.send_answers_saved(jsonb) is
  'Broadcasts answers_saved on inspection:<id>, one message per inspection unless a message would exceed Realtime''s payload limit.';

revoke all on function private.send_answers_saved(jsonb) from public, anon, authenticated;

-- Score, max score, failed count and hidden items of these inspections, recomputed from all their
-- answers, leaving out the answers of hidden items: the body of private.refresh_inspection_scores
-- (20261126120300_score_only_visible_items.sql) for a list of inspections. security definer
-- because fillers may not update inspections' scores themselves.
create or replace function private.refresh_inspection_totals(inspection_ids uuid[])
returns void
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
  where i.id = any (inspection_ids)
  order by i.id
  for no key update of i;

  update public.inspections i
  set score = totals.score, max_score = totals.max_score, failed_count = totals.failed_count,
      hidden_item_keys = totals.hidden
  from (
    select ids.inspection_id, ids.hidden,
           coalesce(sum(a.weight) filter (where a.failed = false), 0) as score,
           coalesce(sum(a.weight), 0) as max_score,
           count(*) filter (where a.failed)::integer as failed_count
    from (
      select touched.inspection_id, coalesce(private.inspection_hidden_item_keys(touched.inspection_id), '{}') as hidden
      from (select distinct t.inspection_id from unnest(inspection_ids) as t (inspection_id)) touched
    ) ids
    left join public.answers a on a.inspection_id = ids.inspection_id and a.item_key <> all (ids.hidden)
    group by ids.inspection_id, ids.hidden
  ) totals
  where i.id = totals.inspection_id
    and (i.score, i.max_score, i.failed_count, i.hidden_item_keys)
      is distinct from (totals.score, totals.max_score, totals.failed_count, totals.hidden);
end;
$$;

comment on function private.refresh_inspection_totals(uuid[]) is
  'Recomputes score, max_score, failed_count and hidden_item_keys of these inspections from their answers; hidden items count for nothing.';

revoke all on function private.refresh_inspection_totals(uuid[]) from public, anon, authenticated;

-- Deleting answers (a server's cleanup, or an inspection's deletion) still recomputes per statement.
create or replace function private.refresh_inspection_scores()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.refresh_inspection_totals(array(select distinct c.inspection_id from changed_answers c));
  return null;
end;
$$;

-- Before each part of a statement that inserts or updates answers: one more part to wait for.
create or replace function private.start_answers_statement()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('fieldcheck.answer_statements_open',
    (coalesce(nullif(current_setting('fieldcheck.answer_statements_open', true), '')::integer, 0) + 1)::text, true);
  return null;
end;
$$;

revoke all on function private.start_answers_statement() from public, anon, authenticated;

-- After each part: its answers join those of the parts before; the last part announces them all
-- and then recomputes the inspections' totals (so `inspection_updated` follows `answers_saved`).
-- security definer because it writes realtime.messages and inspections' totals, which callers
-- may not write themselves.
create or replace function private.finish_answers_statement()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  still_open integer := coalesce(nullif(current_setting('fieldcheck.answer_statements_open', true), '')::integer, 1) - 1;
  saved jsonb := coalesce(nullif(current_setting('fieldcheck.saved_answers', true), '')::jsonb, '[]');
begin
  -- Each answer as answers_saved carries it: the api's Answer without the display name, its
  -- time as the api writes it (toISOString), so clients compare them as they are.
  saved := saved || coalesce(
    (select jsonb_agg(jsonb_build_object(
              'inspection_id', (w.answer).inspection_id,
              'answer', jsonb_build_object(
                'item_key', (w.answer).item_key,
                'value', (w.answer).value,
                'note', (w.answer).note,
                'failed', (w.answer).failed,
                'answered_by', (w.answer).answered_by,
                'answered_at', to_char((w.answer).answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'version', (w.answer).version))
              order by w.written)
     from (select n as answer, row_number() over () as written from new_answers n) w),
    '[]');
  perform set_config('fieldcheck.answer_statements_open', greatest(still_open, 0)::text, true);
  if still_open > 0 then
    perform set_config('fieldcheck.saved_answers', case when saved = '[]' then '' else saved::text end, true);
    return null;
  end if;

  perform set_config('fieldcheck.saved_answers', '', true);
  if saved <> '[]' then
    perform private.send_answers_saved(saved);
    perform private.refresh_inspection_totals(array(select (e ->> 'inspection_id')::uuid from jsonb_array_elements(saved) e));
  end if;
  return null;
end;
$$;

comment on function private.finish_answers_statement() is
  'After-statement trigger on answers: once every part of the statement is done, broadcasts answers_saved and recomputes the inspections'' totals.';

revoke all on function private.finish_answers_statement() from public, anon, authenticated;

drop trigger answers_broadcast_saved on public.answers;
drop function private.broadcast_answer_saved();
drop trigger answers_refresh_scores_after_insert on public.answers;
drop trigger answers_refresh_scores_after_update on public.answers;

create trigger answers_start_statement
  before insert or update on public.answers
  for each statement execute function private.start_answers_statement();

-- One trigger per event: a trigger with transition tables may have only one.
create trigger answers_finish_statement_after_insert
  after insert on public.answers
  referencing new table as new_answers
  for each statement execute function private.finish_answers_statement();

create trigger answers_finish_statement_after_update
  after update on public.answers
  referencing new table as new_answers
  for each statement execute function private.finish_answers_statement();
