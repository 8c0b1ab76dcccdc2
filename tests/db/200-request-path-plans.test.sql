-- The hot read queries use their indexes at the bench's data sizes (issue 15): a plan check, not
-- a timing. 100k sites in one organization (npm run bench -- reads has the same), 100k
-- inspections over 1,000 organizations. Also both sides of the search helper's guard: a member
-- gets the page, anyone else nothing.
begin;
select plan(12);

create temp table actors on commit drop as
  select tests.create_user('member-200@example.test') as member,
         tests.create_user('outsider-200@example.test') as outsider;
alter table actors add column org uuid, add column other_org uuid;
update actors set org = tests.create_org('plans-200', member), other_org = tests.create_org('plans-other-200', outsider);
grant select on actors to authenticated;

set local session_replication_role = replica;
insert into public.sites (org_id, name, address, latitude, longitude, geofence_m, external_ref)
select (select org from actors), 'Site ' || i || ' ' || (array['Harbor', 'Market', 'Depot', 'Kitchen', 'Bakery', 'Warehouse'])[1 + i % 6],
       i || ' ' || (array['Quay Street', 'Mill Lane', 'Station Road', 'High Street'])[1 + i % 4],
       36 + (i::bigint * 7919 % 10000) / 500.0, -9 + (i::bigint * 104729 % 10000) / 300.0, 150, 'EXT-' || i
from generate_series(1, 100000) i;
insert into public.sites (org_id, name, geofence_m) select (select other_org from actors), 'Site 7 Harbor', 150;
insert into public.organizations (id, slug, name, default_geofence_m)
  select gen_random_uuid(), 'plans-200-' || i, 'Plans ' || i, 150 from generate_series(1, 999) i;
insert into public.inspections (org_id, site_id, template_id, template_version_id, title, created_at)
select o.id, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'Inspection ' || n, now() - (n || ' minutes')::interval
from (select id from public.organizations where slug like 'plans-200%') o, generate_series(1, 100) n;
set local session_replication_role = origin;
analyze public.sites;
analyze public.inspections;

-- The plan of a statement as JSON text, for matching node types and index names.
create function pg_temp.plan_of(statement text) returns text language plpgsql as $$
declare
  plan json;
begin
  execute 'explain (format json) ' || statement into plan;
  return plan::text;
end;
$$;
grant execute on function pg_temp.plan_of(text) to authenticated;

-- Search: the page the helper plans without RLS (as it runs it, as its owner). The rare term is
-- one no site has: Postgres estimates a '%term%' pattern by the share of the search expression's
-- histogram (about 100 sampled values) it matches, and ANALYZE samples at random. A term that
-- matches 11 of the 100k rows (ext-4242) was caught in the sample by 5 of 200 ANALYZEs, then
-- estimated at 1 % (1,010 rows) and planned as a walk of sites_org_id_name_idx: this file failed
-- once in 57 runs (issue 24; likely the test:db failure whose name was not captured). A term no
-- row has is never in the sample.
-- Failures print the plan (alike / unalike).
select alike(pg_temp.plan_of(format($q$select s.id from public.sites s where s.org_id = %L
    and (s.name || ' ' || coalesce(s.address, '') || ' ' || coalesce(s.external_ref, '')) ilike '%%ext-100001%%'
    and s.archived_at is null order by s.name, s.id limit 26$q$, (select org from actors))), '%sites_search_idx%',
  'a rare term is found through the trigram index');
select unalike(pg_temp.plan_of(format($q$select s.id from public.sites s where s.org_id = %L
    and (s.name || ' ' || coalesce(s.address, '') || ' ' || coalesce(s.external_ref, '')) ilike '%%mill lane%%'
    and s.archived_at is null order by s.name, s.id limit 26$q$, (select org from actors))), '%Seq Scan%',
  'a common term reads an index too, not the whole table');

select tests.act_as((select member from actors));
select is((select count(*)::int from private.site_search_page((select org from actors), '%mill lane%', 'false', null, null, 26)), 26,
  'a member gets a page of matching ids');
select is((select count(*)::int from private.site_search_page((select org from actors), '%ext-42424%', 'false', null, null, 26)), 1,
  '... exactly the matching ones');
select is((select count(*)::int from private.site_search_page((select other_org from actors), '%harbor%', 'false', null, null, 26)), 0,
  'a member of another organization gets nothing from it');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from private.site_search_page((select org from actors), '%mill lane%', 'false', null, null, 26)), 0,
  'an outsider gets nothing');
select is((select count(*)::int from private.site_search_page((select other_org from actors), '%harbor%', 'false', null, null, 26)), 1,
  '... but does get their own organization''s match');

-- As a member, under RLS: nearest-first by the GiST index, the lists by their btree indexes.
select tests.act_as((select member from actors));
select alike(pg_temp.plan_of(format($q$select s.id from public.sites s where s.org_id = %L and s.archived_at is null
    order by private.site_point(s.latitude, s.longitude) operator(extensions.<->) private.site_point(48.85, 2.35), s.id limit 26$q$,
    (select org from actors))), '%sites_position_idx%',
  'near= walks sites_position_idx nearest first (KNN)');
select unalike(pg_temp.plan_of(format($q$select s.id from public.sites s where s.org_id = %L and s.archived_at is null
    order by private.site_point(s.latitude, s.longitude) operator(extensions.<->) private.site_point(48.85, 2.35), s.id limit 26$q$,
    (select org from actors))), '%Seq Scan%',
  '... without a sequential scan');
select alike(pg_temp.plan_of(format($q$select s.id from public.sites s where s.org_id = %L and s.archived_at is null
    order by s.name, s.id limit 51$q$, (select org from actors))), '%sites_org_id_name_idx%',
  'the sites list reads sites_org_id_name_idx in order');
select unalike(pg_temp.plan_of(format($q$select i.id from public.inspections i where i.org_id = %L
    order by i.created_at desc, i.id desc limit 51$q$, (select org from actors))), '%Seq Scan%',
  'the inspections list does not scan the table');
select alike(pg_temp.plan_of(format($q$select i.id from public.inspections i where i.org_id = %L
    order by i.created_at desc, i.id desc limit 51$q$, (select org from actors))), '%inspections_org_id_%',
  '... it reads an org_id index');

select * from finish();
rollback;
