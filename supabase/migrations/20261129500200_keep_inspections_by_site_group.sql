-- Each inspection's organization, creation time and its site's group, in the order the inspections
-- list walks them (issue 27; docs/site-groups.md, "Hot paths"), for a member limited to site groups
-- who sees too many sites to read the list site by site (more than 1,000: api/site-groups.ts).
--
-- Why: the list walks the organization's inspections newest first and RLS drops those the caller
-- does not see. To know, the inspections policy looks each one's site up (an index probe of
-- sites), so a member who sees a tenth of the sites walks ten inspections and probes ten sites for
-- each one listed: 3.7 ms of CPU more than an org-wide member for a page of 50 at 100,000 sites
-- (whose whole list statement took 3.8 ms). Here the walk reads index entries that carry the
-- group (an index-only scan) and checks it against the caller's groups in a hash, as cheaply as
-- the org-wide walk; the inspections it finds are then read from public.inspections, whose policy
-- decides what the caller sees, as always. This table only chooses which inspections to read.
--
-- Read as the caller, under its own policy: the rule's two tests on the row's organization and
-- group, so a caller finds here only the inspections it may read.
--
-- Kept by triggers: a new inspection adds its row with its site's group; a site moved to another
-- group moves its inspections' rows (one row update per inspection: docs/site-groups.md gives the
-- cost); an inspection's row goes with it (on delete cascade). An inspection's organization, site
-- and creation time never change (enforce_inspection_transition refuses it to everyone).

create table private.inspections_by_site_group (
  inspection_id uuid primary key references public.inspections (id) on delete cascade,
  org_id uuid not null,
  created_at timestamptz not null,
  group_id uuid
);

comment on table private.inspections_by_site_group is 'Each inspection''s organization, creation time and its site''s current group, kept by triggers: the inspections list of a member limited to site groups walks it newest first (index-only) instead of checking every inspection''s site.';

alter table private.inspections_by_site_group enable row level security;

-- The list's order, with the group for the policy: the walk never reads the table itself.
create index inspections_by_site_group_walk_idx
  on private.inspections_by_site_group (org_id, created_at desc, inspection_id desc) include (group_id);

create policy "Members can read the entries of inspections at sites they see" on private.inspections_by_site_group
  for select to authenticated
  using (
    org_id in (select private.org_ids_with_every_site())
    or group_id in (select private.limited_site_group_ids())
  );

revoke all on table private.inspections_by_site_group from public, anon, authenticated;
grant select on table private.inspections_by_site_group to authenticated;
grant all on table private.inspections_by_site_group to service_role;

insert into private.inspections_by_site_group (inspection_id, org_id, created_at, group_id)
select i.id, i.org_id, i.created_at, s.group_id
from public.inspections i
join public.sites s on s.id = i.site_id;

-- The triggers are security definer: no role may write the table itself.

-- New inspections, once per statement: the schedules' runs add thousands at once.
create function private.add_inspections_by_site_group()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.inspections_by_site_group (inspection_id, org_id, created_at, group_id)
  select a.id, a.org_id, a.created_at, s.group_id
  from added a
  join public.sites s on s.id = a.site_id;
  return null;
end;
$$;

comment on function private.add_inspections_by_site_group() is 'After-insert statement trigger on inspections: adds each new inspection to private.inspections_by_site_group with its site''s group.';

revoke all on function private.add_inspections_by_site_group() from public, anon, authenticated;

create trigger inspections_add_by_site_group
  after insert on public.inspections
  referencing new table as added
  for each statement execute function private.add_inspections_by_site_group();

-- A site moved to another group (or out of all groups): its inspections' rows follow.
create function private.move_inspections_by_site_group()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.inspections_by_site_group w
  set group_id = new.group_id
  from public.inspections i
  where i.site_id = new.id and w.inspection_id = i.id;
  return null;
end;
$$;

comment on function private.move_inspections_by_site_group() is 'After-update trigger on sites: gives the site''s inspections its new group in private.inspections_by_site_group.';

revoke all on function private.move_inspections_by_site_group() from public, anon, authenticated;

create trigger sites_move_inspections_by_site_group
  after update of group_id on public.sites
  for each row when (old.group_id is distinct from new.group_id)
  execute function private.move_inspections_by_site_group();
