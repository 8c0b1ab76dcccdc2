-- private.resync_schedule (migration 20261128200400) kept its plan in a temporary table: created
-- (if the session had none) and truncated on every edit of a schedule, once per schedule in the
-- loop of a site's time zone change, churning the catalog; and, named without a schema, resolved
-- through pg_temp first, so a session's own `schedule_plan` would have been written and read by
-- this security definer function as its owner. The plan is now a materialized CTE of one statement
-- that cancels what no longer occurs and updates the rest in place (the two touch different rows:
-- one those the plan lacks, the other those it has); the materialiser then runs as before, after
-- the cancellations, so the new occurrences take the place of the canceled ones.

create or replace function private.resync_schedule(schedule uuid, at timestamptz, reason text, only_sites uuid[] default null)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
begin
  with plan as materialized (
    select p.site_id, p.template_id, p.title, p.assignee_id, p.occurrence_at, p.due_at
    from private.schedule_occurrence_plan(schedule, at, at + private.schedule_horizon(), only_sites) p
    where p.occurrence_at > at
  ), canceled as (
    update public.inspections i set status = 'canceled', canceled_reason = reason
    where i.schedule_id = schedule and i.status = 'scheduled' and i.canceled_reason is null and i.occurrence_at > at
      and (only_sites is null or i.site_id = any (only_sites))
      and not exists (
        select 1 from plan p
        where p.site_id = i.site_id and p.occurrence_at = i.occurrence_at and p.template_id = i.template_id
      )
    returning 1
  )
  update public.inspections i set title = p.title, assignee_id = p.assignee_id, due_at = p.due_at
  from plan p
  where i.schedule_id = schedule and i.status = 'scheduled' and i.canceled_reason is null and i.occurrence_at > at
    and p.site_id = i.site_id and p.occurrence_at = i.occurrence_at and p.template_id = i.template_id
    and (i.title, i.assignee_id, i.due_at) is distinct from (p.title, p.assignee_id, p.due_at);

  return (select m.complete_until from private.materialise_schedule(schedule, at, at, false, only_sites, private.schedule_budget(false)) m);
end;
$$;

comment on function private.resync_schedule(uuid, timestamptz, text, uuid[]) is
  'Brings a schedule''s future, not yet started occurrences in line with it: updated in place, or canceled (with the reason) and made anew; answers until when all exist.';
