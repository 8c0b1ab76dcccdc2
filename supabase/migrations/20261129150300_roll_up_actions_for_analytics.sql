-- Keeping the action rollup of analytics (issue 28; docs/analytics.md, "Rollups") in the
-- transaction of every write to corrective actions, as the inspection rollups are kept
-- (20261129150200): one upsert per statement, from the statement's transition tables.
--
-- What an action contributes, unless it is canceled (a false alarm or a duplicate counts for
-- nothing): opened on the local day (at its site) of created_at, resolved on that of resolved_at
-- (cleared by a reopen), verified on that of verified_at, and due on that of due_at — resolved by
-- its due time when resolved_at <= due_at. Keyed by its site, its priority and the template of the
-- inspection it came from (none for an action about no inspection).
--
-- The medians of the time to resolve and to verify are not summable, so each resolution's and
-- verification's duration is kept on its day's row, exactly (seconds as numeric), and the measure
-- takes the median of the range's values. Adding appends; taking away removes one equal value each
-- (private.without_each). Reading them from the actions table instead, through covering indexes,
-- cost a local-day conversion per action (the bench: 24,000 resolutions a year took 150 ms of a
-- 230 ms measure).

create type private.analytics_action_change as (
  org_id uuid, day date, site_id uuid, template_id uuid, priority public.action_priority,
  opened integer, resolved integer, verified integer, due integer, resolved_by_due integer,
  -- The duration a resolution (verification) of this change brings or takes away: with `resolved`
  -- (`verified`) 1 it is added, with -1 taken out.
  resolve_seconds numeric, verify_seconds numeric
);

-- `items` less one equal value for each of `removed` (a multiset difference), in no order.
create or replace function private.without_each(items numeric[], removed numeric[])
returns numeric[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(x.item), '{}')
  from (select item, row_number() over (partition by item) as n from unnest(items) as item) x
  where x.n > (select count(*) from unnest(removed) as r (item) where r.item = x.item);
$$;

comment on function private.without_each(numeric[], numeric[]) is
  'The items less one equal value for each removed one: the difference of two multisets (the action rollup''s durations).';

create or replace function private.add_to_action_days(changes private.analytics_action_change[])
returns void
language plpgsql
security definer -- writes the rollup, which callers may only read
set search_path = ''
as $$
begin
  -- Counts and the durations added, in key order; then the durations taken away, from rows the
  -- first statement has locked already (a duration leaves only with its count).
  insert into public.analytics_action_days as t (org_id, day, site_id, template_id, priority, opened, resolved, verified, due, resolved_by_due,
                                                 resolve_seconds, verify_seconds)
  select c.org_id, c.day, c.site_id, c.template_id, c.priority,
         sum(c.opened), sum(c.resolved), sum(c.verified), sum(c.due), sum(c.resolved_by_due),
         coalesce(array_agg(c.resolve_seconds) filter (where c.resolved > 0 and c.resolve_seconds is not null), '{}'),
         coalesce(array_agg(c.verify_seconds) filter (where c.verified > 0 and c.verify_seconds is not null), '{}')
  from unnest(changes) c
  group by c.org_id, c.day, c.site_id, c.template_id, c.priority
  having (sum(c.opened) <> 0 or sum(c.resolved) <> 0 or sum(c.verified) <> 0 or sum(c.due) <> 0 or sum(c.resolved_by_due) <> 0
          or bool_or(c.resolved <> 0 or c.verified <> 0))
     and (sum(c.opened) > 0 or sum(c.resolved) > 0 or sum(c.verified) > 0 or sum(c.due) > 0 or sum(c.resolved_by_due) > 0
          or exists (
            select 1 from public.analytics_action_days x
            where x.org_id = c.org_id and x.day = c.day and x.site_id = c.site_id
              and x.template_id is not distinct from c.template_id and x.priority = c.priority))
  order by c.org_id, c.day, c.site_id, c.template_id, c.priority
  on conflict (org_id, day, site_id, template_id, priority) do update
    set opened = t.opened + excluded.opened,
        resolved = t.resolved + excluded.resolved,
        verified = t.verified + excluded.verified,
        due = t.due + excluded.due,
        resolved_by_due = t.resolved_by_due + excluded.resolved_by_due,
        resolve_seconds = t.resolve_seconds || excluded.resolve_seconds,
        verify_seconds = t.verify_seconds || excluded.verify_seconds;

  update public.analytics_action_days t
  set resolve_seconds = private.without_each(t.resolve_seconds, gone.resolve_seconds),
      verify_seconds = private.without_each(t.verify_seconds, gone.verify_seconds)
  from (
    select c.org_id, c.day, c.site_id, c.template_id, c.priority,
           coalesce(array_agg(c.resolve_seconds) filter (where c.resolved < 0 and c.resolve_seconds is not null), '{}') as resolve_seconds,
           coalesce(array_agg(c.verify_seconds) filter (where c.verified < 0 and c.verify_seconds is not null), '{}') as verify_seconds
    from unnest(changes) c
    where (c.resolved < 0 and c.resolve_seconds is not null) or (c.verified < 0 and c.verify_seconds is not null)
    group by c.org_id, c.day, c.site_id, c.template_id, c.priority
  ) gone
  where t.org_id = gone.org_id and t.day = gone.day and t.site_id = gone.site_id
    and t.template_id is not distinct from gone.template_id and t.priority = gone.priority;
end;
$$;

comment on function private.add_to_action_days(private.analytics_action_change[]) is
  'Adds changes, summed per key, to analytics_action_days (durations appended, or taken out one equal value each); never creates a row only to take away from it.';

-- The contributions of action rows: `removed` (as they were) negatively, `added` (as they are)
-- positively. Used by the triggers and by the rebuild (private.rebuild_analytics).
create or replace function private.roll_up_actions(removed public.actions[], added public.actions[])
returns void
language plpgsql
security definer -- reads the actions' inspections and sites, writes the rollup
set search_path = ''
as $$
begin
  perform private.add_to_action_days(array(
    select row(c.org_id, (e.at at time zone s.timezone)::date, c.site_id, i.template_id, c.priority,
               case when e.event = 'opened' then c.sign else 0 end,
               case when e.event = 'resolved' then c.sign else 0 end,
               case when e.event = 'verified' then c.sign else 0 end,
               case when e.event = 'due' then c.sign else 0 end,
               case when e.event = 'due' and c.resolved_at <= c.due_at then c.sign else 0 end,
               case when e.event = 'resolved' then extract(epoch from c.resolved_at - c.created_at) end,
               case when e.event = 'verified' then extract(epoch from c.verified_at - c.resolved_at) end
           )::private.analytics_action_change
    from (select r.*, -1 as sign from unnest(removed) r union all select a.*, 1 from unnest(added) a) c
    join public.sites s on s.id = c.site_id
    left join public.inspections i on i.id = c.inspection_id
    cross join lateral (
      values ('opened', c.created_at), ('resolved', c.resolved_at), ('verified', c.verified_at), ('due', c.due_at)
    ) as e (event, at)
    where c.status <> 'canceled' and e.at is not null));
end;
$$;

comment on function private.roll_up_actions(public.actions[], public.actions[]) is
  'Takes the analytics contributions of `removed` (action rows as they were) out of analytics_action_days and adds those of `added`: opened, resolved and verified with their durations, and due, unless canceled.';

create or replace function private.roll_up_changed_actions()
returns trigger
language plpgsql
security definer -- writes the rollup
set search_path = ''
as $$
declare
  removed public.actions[];
  added public.actions[];
begin
  if tg_op = 'INSERT' then
    added := array(select n from new_actions n where n.status <> 'canceled');
    removed := '{}';
  else
    select coalesce(array_agg(o), '{}'), coalesce(array_agg(n), '{}') into removed, added
    from old_actions o
    join new_actions n on n.id = o.id
    where (o.status = 'canceled', o.org_id, o.site_id, o.inspection_id, o.priority, o.created_at, o.resolved_at, o.verified_at, o.due_at)
          is distinct from
          (n.status = 'canceled', n.org_id, n.site_id, n.inspection_id, n.priority, n.created_at, n.resolved_at, n.verified_at, n.due_at);
  end if;
  if cardinality(removed) + cardinality(added) > 0 then
    perform private.roll_up_actions(removed, added);
  end if;
  return null;
end;
$$;

comment on function private.roll_up_changed_actions() is
  'After-statement trigger on actions: hands the rows whose analytics contribution may have changed, as they were and as they are, to private.roll_up_actions.';

-- Actions are deleted only with their organization (or by the service role): while the
-- organization is being deleted its rollups go with it.
create or replace function private.roll_up_deleted_action()
returns trigger
language plpgsql
security definer -- writes the rollup
set search_path = ''
as $$
begin
  if old.status <> 'canceled' and exists (select 1 from public.organizations o where o.id = old.org_id) then
    perform private.roll_up_actions(array[old], '{}');
  end if;
  return old;
end;
$$;

comment on function private.roll_up_deleted_action() is
  'Before-delete trigger on actions: takes the row''s analytics contribution out.';

revoke all on function private.without_each(numeric[], numeric[]), private.add_to_action_days(private.analytics_action_change[]),
  private.roll_up_actions(public.actions[], public.actions[]),
  private.roll_up_changed_actions(), private.roll_up_deleted_action()
  from public, anon, authenticated;

create trigger actions_roll_up_analytics_after_insert
  after insert on public.actions
  referencing new table as new_actions
  for each statement execute function private.roll_up_changed_actions();

create trigger actions_roll_up_analytics_after_update
  after update on public.actions
  referencing old table as old_actions new table as new_actions
  for each statement execute function private.roll_up_changed_actions();

create trigger actions_roll_up_analytics_before_delete
  before delete on public.actions
  for each row execute function private.roll_up_deleted_action();

-- Recent due times (the overdue figure of days not yet over is read from actions, not the rollup).
create index actions_org_id_due_at_idx on public.actions (org_id, due_at);
