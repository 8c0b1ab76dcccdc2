-- Each site is in at most one site group (issue 27; docs/site-groups.md), of its own
-- organization: the composite foreign key makes a group of another organization impossible. A
-- group that still has sites cannot be deleted (on delete restrict): the api asks first to move
-- them out. Who may put a site in which group is the sites policies' business (20261129100400).

alter table public.sites
  add column group_id uuid,
  add constraint sites_group_fkey foreign key (org_id, group_id)
    references public.site_groups (org_id, id) on delete restrict;

comment on column public.sites.group_id is 'The site group the site is in, of the same organization; null when it is in none.';

-- A limited principal's sites are found by their groups; `id` included so that listing them is an
-- index-only scan. Also serves the foreign key.
create index sites_group_id_org_id_idx on public.sites (group_id, org_id) include (id);

grant insert (group_id) on public.sites to authenticated;
grant update (group_id) on public.sites to authenticated;
