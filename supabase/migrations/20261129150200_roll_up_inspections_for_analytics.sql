-- Keeping the inspection rollups of analytics (issue 28; docs/analytics.md, "Rollups") in the
-- transaction of every write that changes what they sum: scores (analytics_inspection_days), failed
-- items (analytics_item_days) and scheduled occurrences (analytics_occurrence_days).
--
-- What an inspection contributes is a function of its own row (and, for items, of its answers):
--   - submitted or approved ("counted"): one inspection of its template version on the local day
--     of submitted_at at its site, its score in percent when it has something to score, and for
--     each item of its version that can fail (template_versions.scored_item_keys): a failure when
--     its answer failed, "not judged" when it did not pass or fail it — hidden by a visibility
--     rule (hidden_item_keys), n/a, or not answered. Passed answers need no row: an item's answers
--     are the inspections of the versions that have it less those that did not judge it;
--   - a schedule's occurrence, not canceled: one occurrence on the local day of due_at, on time when
--     first submitted by due_at, late when after it.
-- A write's change is the new rows' contributions minus the old rows', summed per key: one upsert
-- per rollup table per statement (statement-level triggers with transition tables), so the
-- background run canceling 10,000 occurrences makes one rollup statement, not 10,000.
--
-- Answers change only while their inspection is in progress (private.apply_answer_rules refuses
-- anything else, whoever writes), which is never counted, so saving answers costs the rollups
-- nothing: a batch of 100 answers writes no rollup row. The submit that freezes them adds them once.
-- The one path that changes a counted inspection's answers is deleting them (the service role;
-- an inspection deleted with its answers), handled below.

-- A change to one rollup row, as the producers below make them; summed per key before writing.
create type private.analytics_inspection_change as (
  org_id uuid, day date, site_id uuid, template_id uuid, template_version_id uuid, inspections integer, scored integer, score_sum numeric
);
create type private.analytics_item_change as (
  org_id uuid, day date, site_id uuid, template_id uuid, item_key text, failed integer, unjudged integer
);

create type private.analytics_occurrence_change as (
  org_id uuid, day date, site_id uuid, template_id uuid, occurrences integer, on_time integer, late integer
);

-- Each add_to_* function sums its changes per key and adds them to the rollup in key order (so two
-- transactions touching the same rows lock them in the same order). A key the rollup lacks is only
-- created by a change that adds something: taking away from a row that is not there happens only
-- while an organization is being deleted (its rollup rows went first), and is dropped.
create or replace function private.add_to_inspection_days(changes private.analytics_inspection_change[])
returns void
language plpgsql
security definer -- writes the rollup, which callers may only read
set search_path = ''
as $$
begin
  insert into public.analytics_inspection_days as t (org_id, day, site_id, template_id, template_version_id, inspections, scored, score_sum)
  select c.org_id, c.day, c.site_id, c.template_id, c.template_version_id, sum(c.inspections), sum(c.scored), sum(c.score_sum)
  from unnest(changes) c
  group by c.org_id, c.day, c.site_id, c.template_id, c.template_version_id
  having (sum(c.inspections) <> 0 or sum(c.scored) <> 0 or sum(c.score_sum) <> 0)
     and (sum(c.inspections) > 0 or sum(c.scored) > 0 or exists (
       select 1 from public.analytics_inspection_days x
       where x.org_id = c.org_id and x.day = c.day and x.site_id = c.site_id and x.template_id = c.template_id
         and x.template_version_id = c.template_version_id))
  order by c.org_id, c.day, c.site_id, c.template_id, c.template_version_id
  on conflict (org_id, day, site_id, template_id, template_version_id) do update
    set inspections = t.inspections + excluded.inspections,
        scored = t.scored + excluded.scored,
        score_sum = t.score_sum + excluded.score_sum;
end;
$$;

create or replace function private.add_to_item_days(changes private.analytics_item_change[])
returns void
language plpgsql
security definer -- writes the rollup, which callers may only read
set search_path = ''
as $$
begin
  insert into public.analytics_item_days as t (org_id, day, site_id, template_id, item_key, failed, unjudged)
  select c.org_id, c.day, c.site_id, c.template_id, c.item_key, sum(c.failed), sum(c.unjudged)
  from unnest(changes) c
  group by c.org_id, c.day, c.site_id, c.template_id, c.item_key
  having (sum(c.failed) <> 0 or sum(c.unjudged) <> 0)
     and (sum(c.failed) > 0 or sum(c.unjudged) > 0 or exists (
       select 1 from public.analytics_item_days x
       where x.org_id = c.org_id and x.day = c.day and x.site_id = c.site_id and x.template_id = c.template_id
         and x.item_key = c.item_key))
  order by c.org_id, c.day, c.site_id, c.template_id, c.item_key
  on conflict (org_id, day, site_id, template_id, item_key) do update
    set failed = t.failed + excluded.failed,
        unjudged = t.unjudged + excluded.unjudged;
end;
$$;

create or replace function private.add_to_occurrence_days(changes private.analytics_occurrence_change[])
returns void
language plpgsql
security definer -- writes the rollup, which callers may only read
set search_path = ''
as $$
begin
  insert into public.analytics_occurrence_days as t (org_id, day, site_id, template_id, occurrences, on_time, late)
  select c.org_id, c.day, c.site_id, c.template_id, sum(c.occurrences), sum(c.on_time), sum(c.late)
  from unnest(changes) c
  group by c.org_id, c.day, c.site_id, c.template_id
  having (sum(c.occurrences) <> 0 or sum(c.on_time) <> 0 or sum(c.late) <> 0)
     and (sum(c.occurrences) > 0 or sum(c.on_time) > 0 or sum(c.late) > 0 or exists (
       select 1 from public.analytics_occurrence_days x
       where x.org_id = c.org_id and x.day = c.day and x.site_id = c.site_id and x.template_id = c.template_id))
  order by c.org_id, c.day, c.site_id, c.template_id
  on conflict (org_id, day, site_id, template_id) do update
    set occurrences = t.occurrences + excluded.occurrences,
        on_time = t.on_time + excluded.on_time,
        late = t.late + excluded.late;
end;
$$;

comment on function private.add_to_inspection_days(private.analytics_inspection_change[]) is
  'Adds changes, summed per key, to analytics_inspection_days; never creates a row only to take away from it.';
comment on function private.add_to_item_days(private.analytics_item_change[]) is
  'Adds changes, summed per key, to analytics_item_days; never creates a row only to take away from it.';
comment on function private.add_to_occurrence_days(private.analytics_occurrence_change[]) is
  'Adds changes, summed per key, to analytics_occurrence_days; never creates a row only to take away from it.';

-- The contributions of inspection rows: `removed` (rows as they were) count negatively, `added`
-- (rows as they are) positively. The one statement of what an inspection contributes, used by the
-- triggers and by the rebuild (private.rebuild_analytics).
create or replace function private.roll_up_inspections(removed public.inspections[], added public.inspections[])
returns void
language plpgsql
security definer -- reads every answer of the inspections and writes the rollups
set search_path = ''
as $$
begin
  perform private.add_to_inspection_days(array(
    select row(c.org_id, (c.submitted_at at time zone s.timezone)::date, c.site_id, c.template_id, c.template_version_id,
               c.sign,
               case when c.max_score > 0 then c.sign else 0 end,
               case when c.max_score > 0 then c.sign * 100 * c.score / c.max_score else 0 end
           )::private.analytics_inspection_change
    from (select r.*, -1 as sign from unnest(removed) r union all select a.*, 1 from unnest(added) a) c
    join public.sites s on s.id = c.site_id
    where c.status in ('submitted', 'approved') and c.submitted_at is not null));

  -- Each scored item of each counted inspection's version, with its answer: a row when it failed
  -- (shown) or was not judged.
  perform private.add_to_item_days(array(
    with counted as materialized (
      select r.*, -1 as sign from unnest(removed) r where r.status in ('submitted', 'approved') and r.submitted_at is not null
      union all
      select a.*, 1 from unnest(added) a where a.status in ('submitted', 'approved') and a.submitted_at is not null
    )
    select row(c.org_id, (c.submitted_at at time zone s.timezone)::date, c.site_id, c.template_id, k.key,
               case when x.failed and k.key <> all (c.hidden_item_keys) then c.sign else 0 end,
               case when x.failed is null or k.key = any (c.hidden_item_keys) then c.sign else 0 end
           )::private.analytics_item_change
    from counted c
    join public.sites s on s.id = c.site_id
    join public.template_versions v on v.id = c.template_version_id
    cross join lateral unnest(v.scored_item_keys) as k (key)
    left join public.answers x on x.inspection_id = c.id and x.item_key = k.key
    where x.failed is distinct from false or k.key = any (c.hidden_item_keys)));

  perform private.add_to_occurrence_days(array(
    select row(c.org_id, (c.due_at at time zone s.timezone)::date, c.site_id, c.template_id,
               c.sign,
               case when c.first_submitted_at <= c.due_at then c.sign else 0 end,
               case when c.first_submitted_at > c.due_at then c.sign else 0 end
           )::private.analytics_occurrence_change
    from (select r.*, -1 as sign from unnest(removed) r union all select a.*, 1 from unnest(added) a) c
    join public.sites s on s.id = c.site_id
    where c.schedule_id is not null and c.status <> 'canceled' and c.due_at is not null));
end;
$$;

comment on function private.roll_up_inspections(public.inspections[], public.inspections[]) is
  'Takes the analytics contributions of `removed` (inspection rows as they were) out of the rollups and adds those of `added`: scores, and failed and unjudged items, of submitted and approved inspections, and occurrences.';

-- Triggers. Only rows that contribute, or whose contribution changes, are handed on: an answer
-- save updates its in-progress inspection's totals, which contributes nothing, so it stops here.
create or replace function private.roll_up_changed_inspections()
returns trigger
language plpgsql
security definer -- writes the rollups
set search_path = ''
as $$
declare
  removed public.inspections[];
  added public.inspections[];
begin
  -- A transition table is only named in the branch of its event (PL/pgSQL plans each query when
  -- it first runs).
  if tg_op = 'INSERT' then
    added := array(select n from new_inspections n where n.status in ('submitted', 'approved') or n.schedule_id is not null);
    removed := '{}';
  else
    select coalesce(array_agg(o), '{}'), coalesce(array_agg(n), '{}') into removed, added
    from old_inspections o
    join new_inspections n on n.id = o.id
    where ((o.status in ('submitted', 'approved') or n.status in ('submitted', 'approved'))
           and (o.status in ('submitted', 'approved'), o.org_id, o.site_id, o.template_id, o.template_version_id, o.submitted_at, o.score, o.max_score, o.hidden_item_keys)
               is distinct from
               (n.status in ('submitted', 'approved'), n.org_id, n.site_id, n.template_id, n.template_version_id, n.submitted_at, n.score, n.max_score, n.hidden_item_keys))
       or ((o.schedule_id is not null or n.schedule_id is not null)
           and (o.schedule_id, o.status = 'canceled', o.org_id, o.site_id, o.template_id, o.due_at, o.first_submitted_at)
               is distinct from
               (n.schedule_id, n.status = 'canceled', n.org_id, n.site_id, n.template_id, n.due_at, n.first_submitted_at));
  end if;
  if cardinality(removed) + cardinality(added) > 0 then
    perform private.roll_up_inspections(removed, added);
  end if;
  return null;
end;
$$;

comment on function private.roll_up_changed_inspections() is
  'After-statement trigger on inspections: hands the rows whose analytics contribution may have changed, as they were and as they are, to private.roll_up_inspections.';

-- Before the row goes, while its answers are still there (a cascade deletes them after the row).
-- Nothing to do while the organization itself is being deleted: its rollups go with it.
create or replace function private.roll_up_deleted_inspection()
returns trigger
language plpgsql
security definer -- writes the rollups
set search_path = ''
as $$
begin
  if (old.status in ('submitted', 'approved') or old.schedule_id is not null)
     and exists (select 1 from public.organizations o where o.id = old.org_id) then
    perform private.roll_up_inspections(array[old], '{}');
  end if;
  return old;
end;
$$;

comment on function private.roll_up_deleted_inspection() is
  'Before-delete trigger on inspections: takes the row''s analytics contribution out, while its answers are still there.';

-- Answers deleted from a counted inspection (only the service role deletes answers): a failed one
-- is no longer failed, and a judged one (passed or failed, shown) is no longer judged. Named to
-- run before answers_refresh_scores_after_delete: the inspection still has the hidden items its
-- answers were counted with; the refresh then changes its totals and hidden items, which
-- private.roll_up_changed_inspections takes from there.
create or replace function private.roll_up_deleted_answers()
returns trigger
language plpgsql
security definer -- writes the rollups
set search_path = ''
as $$
begin
  perform private.add_to_item_days(array(
    select row(i.org_id, (i.submitted_at at time zone s.timezone)::date, i.site_id, i.template_id, x.item_key,
               case when x.failed then -1 else 0 end, 1
           )::private.analytics_item_change
    from old_answers x
    join public.inspections i on i.id = x.inspection_id
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    where i.status in ('submitted', 'approved') and i.submitted_at is not null
      and x.failed is not null and x.item_key <> all (i.hidden_item_keys)
      and x.item_key = any (v.scored_item_keys)));
  return null;
end;
$$;

comment on function private.roll_up_deleted_answers() is
  'After-statement trigger on answers deleted: a deleted judged answer of a submitted or approved inspection is no longer judged (nor failed) in analytics_item_days.';

revoke all on function private.add_to_inspection_days(private.analytics_inspection_change[]),
  private.add_to_item_days(private.analytics_item_change[]),
  private.add_to_occurrence_days(private.analytics_occurrence_change[]),
  private.roll_up_inspections(public.inspections[], public.inspections[]),
  private.roll_up_changed_inspections(), private.roll_up_deleted_inspection(), private.roll_up_deleted_answers()
  from public, anon, authenticated;

-- One trigger per event: a trigger with transition tables may have only one.
create trigger inspections_roll_up_analytics_after_insert
  after insert on public.inspections
  referencing new table as new_inspections
  for each statement execute function private.roll_up_changed_inspections();

create trigger inspections_roll_up_analytics_after_update
  after update on public.inspections
  referencing old table as old_inspections new table as new_inspections
  for each statement execute function private.roll_up_changed_inspections();

create trigger inspections_roll_up_analytics_before_delete
  before delete on public.inspections
  for each row execute function private.roll_up_deleted_inspection();

create trigger answers_analytics_after_delete
  after delete on public.answers
  referencing old table as old_answers
  for each statement execute function private.roll_up_deleted_answers();
