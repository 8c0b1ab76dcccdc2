-- An inspection's totals evaluated its visibility rules once per answer, not once per inspection:
-- the planner flattened the subquery that computed the hidden items and copied the call of
-- private.inspection_hidden_item_keys() into the answers scan's filter and the grouping key, so a
-- batch of 100 answers called it about 200 times (12 ms of a 100-answer save's 40 ms of SQL,
-- issue 15). The hidden items are now computed first, in a materialized CTE, once per inspection.
-- Same rows, same totals as 20261127100200_announce_answers_once_per_statement.sql.
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

  with touched as materialized (
    select t.inspection_id, coalesce(private.inspection_hidden_item_keys(t.inspection_id), '{}') as hidden
    from (select distinct u.inspection_id from unnest(inspection_ids) as u (inspection_id)) t
  )
  update public.inspections i
  set score = totals.score, max_score = totals.max_score, failed_count = totals.failed_count,
      hidden_item_keys = totals.hidden
  from (
    select touched.inspection_id, touched.hidden,
           coalesce(sum(a.weight) filter (where a.failed = false), 0) as score,
           coalesce(sum(a.weight), 0) as max_score,
           count(*) filter (where a.failed)::integer as failed_count
    from touched
    left join public.answers a on a.inspection_id = touched.inspection_id and a.item_key <> all (touched.hidden)
    group by touched.inspection_id, touched.hidden
  ) totals
  where i.id = totals.inspection_id
    and (i.score, i.max_score, i.failed_count, i.hidden_item_keys)
      is distinct from (totals.score, totals.max_score, totals.failed_count, totals.hidden);
end;
$$;
