-- Hidden items are not scored (issue 17; docs/inspections.md, "Logic"): an inspection's score,
-- max score and failed count count only the answers of items its template's rules show for the
-- current answers. An answer given while its item showed and hidden since stays stored, with its
-- own failed and weight, but counts for nothing while hidden.
--
-- The inspection keeps the keys of its hidden items (`hidden_item_keys`), recomputed with the
-- totals after every statement on its answers (the only thing visibility depends on: the pinned
-- version never changes), so lists, the dashboard and API clients read them without evaluating
-- rules; submit and the actions it opens evaluate them afresh (20261126120400).

alter table public.inspections
  add column hidden_item_keys text[] not null default '{}';

comment on column public.inspections.hidden_item_keys is
  'Items of the pinned version hidden by its visibility rules for the current answers, in definition order; kept by the answers trigger.';

-- A new inspection has no answers yet, but its rules may already hide items ("show when the
-- kitchen question is Yes"). Named to fire after inspections_prepare, which pins the version.
-- As the caller, who has just read that version to schedule the inspection.
create or replace function private.set_initially_hidden_items()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.hidden_item_keys := coalesce(
    (select private.hidden_item_keys(v.definition, '{}') from public.template_versions v where v.id = new.template_version_id),
    '{}'
  );
  return new;
end;
$$;

revoke all on function private.set_initially_hidden_items() from public, anon, authenticated;

create trigger inspections_set_hidden_items
  before insert on public.inspections
  for each row execute function private.set_initially_hidden_items();

-- Like the score, which items are hidden follows the answers: not an audit entry of its own, and
-- not news on the organization's topic (the run page works it out from the answers it receives).
drop trigger inspections_write_audit_log on public.inspections;
create trigger inspections_write_audit_log
  after insert or update or delete on public.inspections
  for each row execute function private.write_audit_log('score', 'max_score', 'failed_count', 'version', 'hidden_item_keys');

drop trigger inspections_broadcast_change on public.inspections;
create trigger inspections_broadcast_change
  after insert or update on public.inspections
  for each row execute function private.broadcast_organization_change('score', 'max_score', 'version', 'updated_at', 'hidden_item_keys');

-- After every statement on answers: score, max score, failed count and hidden items of each
-- inspection it touched, recomputed from all its answers, leaving out the answers of hidden
-- items. security definer because fillers may not update inspections' scores themselves.
create or replace function private.refresh_inspection_scores()
returns trigger
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
  where i.id in (select distinct c.inspection_id from changed_answers c)
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
      from (select distinct c.inspection_id from changed_answers c) touched
    ) ids
    left join public.answers a on a.inspection_id = ids.inspection_id and a.item_key <> all (ids.hidden)
    group by ids.inspection_id, ids.hidden
  ) totals
  where i.id = totals.inspection_id
    and (i.score, i.max_score, i.failed_count, i.hidden_item_keys)
      is distinct from (totals.score, totals.max_score, totals.failed_count, totals.hidden);
  return null;
end;
$$;

comment on function private.refresh_inspection_scores() is
  'After-statement trigger on answers: recomputes score, max_score, failed_count and hidden_item_keys of the inspections touched; hidden items count for nothing.';

revoke all on function private.refresh_inspection_scores() from public, anon, authenticated;
