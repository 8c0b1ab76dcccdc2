-- Rebuilding the analytics rollups from the base tables (issue 28 part 3; docs/analytics.md,
-- "Rebuilding"): `npm run db:rollups:rebuild` (scripts/rollups-rebuild.ts) locally, or
-- `select private.rebuild_analytics();` as postgres or the service role on hosted. After a bulk
-- load with triggers off (session_replication_role = replica) the rollups know nothing of what
-- was loaded; after a change to what they count, they are recomputed the same way.
--
-- The rows are recomputed by the same functions the triggers call (private.roll_up_inspections,
-- private.roll_up_actions), so a rebuild gives the figures the triggers keep, and a test compares
-- the two.
--
-- A site's time zone decides the local day its rows are on, so changing it recomputes that site's
-- rows in the change's transaction.

create or replace function private.recompute_analytics(org uuid default null, site uuid default null)
returns void
language plpgsql
security definer -- reads every row of the organization and writes its rollups
set search_path = ''
as $$
declare
  inspections public.inspections[];
  actions public.actions[];
begin
  delete from public.analytics_inspection_days r where (org is null or r.org_id = org) and (site is null or r.site_id = site);
  delete from public.analytics_item_days r where (org is null or r.org_id = org) and (site is null or r.site_id = site);
  delete from public.analytics_occurrence_days r where (org is null or r.org_id = org) and (site is null or r.site_id = site);
  delete from public.analytics_action_days r where (org is null or r.org_id = org) and (site is null or r.site_id = site);

  -- In batches of 10,000 rows (whatever their organization), so that 100,000 inspections with
  -- 2,000,000 answers are not held in memory at once, and 10,000 small organizations do not each
  -- pay for statements of their own.
  for inspections in
    select array_agg(b.i)
    from (
      select i, (row_number() over (order by i.id) - 1) / 10000 as batch
      from public.inspections i
      where (org is null or i.org_id = org) and (site is null or i.site_id = site)
        and (i.status in ('submitted', 'approved') or i.schedule_id is not null)
    ) b
    group by b.batch
  loop
    perform private.roll_up_inspections('{}', inspections);
  end loop;

  for actions in
    select array_agg(b.a)
    from (
      select a, (row_number() over (order by a.id) - 1) / 10000 as batch
      from public.actions a
      where (org is null or a.org_id = org) and (site is null or a.site_id = site) and a.status <> 'canceled'
    ) b
    group by b.batch
  loop
    perform private.roll_up_actions('{}', actions);
  end loop;
end;
$$;

comment on function private.recompute_analytics(uuid, uuid) is
  'Recomputes the analytics rollups (of every organization, of one, or of one of its sites) from the inspections, answers and actions.';

create or replace function private.rebuild_analytics(org uuid default null)
returns void
language plpgsql
security definer -- run by operators as postgres or the service role
set search_path = ''
as $$
begin
  -- Writers wait while the rollups are rebuilt (every trigger adds to them), so none is counted
  -- twice or lost: what committed before is read from the base tables, what commits after adds
  -- its change to the rebuilt rows. Readers go on reading.
  lock table public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
    public.analytics_action_days in exclusive mode;
  perform private.recompute_analytics(org);
  if org is null then
    analyze public.analytics_inspection_days, public.analytics_item_days, public.analytics_occurrence_days,
      public.analytics_action_days;
  end if;
end;
$$;

comment on function private.rebuild_analytics(uuid) is
  'Recomputes every analytics rollup (or one organization''s) from the base tables, holding writers off meanwhile: npm run db:rollups:rebuild.';

create or replace function private.recompute_analytics_of_site()
returns trigger
language plpgsql
security definer -- recomputes the site's rollups
set search_path = ''
as $$
begin
  perform private.recompute_analytics(new.org_id, new.id);
  return null;
end;
$$;

comment on function private.recompute_analytics_of_site() is
  'After-update trigger on a site''s time zone: its rollup rows are on its local days, so they are recomputed.';

revoke all on function private.recompute_analytics(uuid, uuid), private.rebuild_analytics(uuid),
  private.recompute_analytics_of_site() from public, anon, authenticated;
grant execute on function private.rebuild_analytics(uuid) to service_role;

create trigger sites_recompute_analytics
  after update of timezone on public.sites
  for each row when (old.timezone is distinct from new.timezone)
  execute function private.recompute_analytics_of_site();
