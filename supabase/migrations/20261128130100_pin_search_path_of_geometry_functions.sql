-- Supabase's advisor warns (function_search_path_mutable) that private.site_point and
-- private.distance_m run with the caller's search path (issue 24). 20261126100300 left them
-- without `set search_path` so that the planner would inline them; every name in them is
-- schema-qualified, so no search path could change what they call, but the advisor cannot see
-- that. Now they pin it to '' like every other function, and tests/db/003 holds that.
--
-- A function with a SET clause is never inlined, so a near= page now calls them for each row it
-- reads (the chord and the distance), a few dozen, not for every site of the organization (the
-- index holds each site's point). In plpgsql rather than SQL: a SQL function that
-- is not inlined starts an executor on each call, ~2× the inlined page's database time at 100k
-- sites, where plpgsql evaluates the one expression directly and costs about what inlining did
-- (measured side by side, docs/performance.md). The formulas are unchanged.
--
-- Nearest-first still walks sites_position_idx (tests/db/200 checks the plan): the index's
-- expression and the one the api writes, `private.site_point(s.latitude, s.longitude)`, are now
-- the same function call on both sides rather than the same inlined body, and match as such.
-- A session that planned with the old definition keeps the index's expression, inlined, in its
-- cache, where its new queries would not match it (a scan of every site until that entry is
-- rebuilt): rebuilding the index makes every session reload it. Its values stay the same.

create or replace function private.site_point(latitude double precision, longitude double precision)
returns extensions.cube
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  return case when latitude is null or longitude is null then null else extensions.cube(array[
    pg_catalog.cos(pg_catalog.radians(latitude)) * pg_catalog.cos(pg_catalog.radians(longitude)),
    pg_catalog.cos(pg_catalog.radians(latitude)) * pg_catalog.sin(pg_catalog.radians(longitude)),
    pg_catalog.sin(pg_catalog.radians(latitude))
  ]::double precision[]) end;
end;
$$;

create or replace function private.distance_m(lat1 double precision, lng1 double precision,
                                              lat2 double precision, lng2 double precision)
returns double precision
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  return 2 * 6371008.8 * pg_catalog.asin(pg_catalog.sqrt(
    pg_catalog.power(pg_catalog.sin(pg_catalog.radians(lat2 - lat1) / 2), 2)
    + pg_catalog.cos(pg_catalog.radians(lat1)) * pg_catalog.cos(pg_catalog.radians(lat2))
      * pg_catalog.power(pg_catalog.sin(pg_catalog.radians(lng2 - lng1) / 2), 2)
  ));
end;
$$;

reindex index public.sites_position_idx;
