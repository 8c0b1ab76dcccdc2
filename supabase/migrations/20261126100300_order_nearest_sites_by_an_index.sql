-- `near=` computed the distance of every site of the organization and sorted them all: ~1.3 s
-- for the first page at 100k sites. The distance function could not even be inlined, since a
-- function with `SET search_path` never is.
--
-- Now nearest-first is an index scan: each site's position is a point on the unit sphere (a 3-D
-- `cube`), kept in a GiST index beside org_id (btree_gist), and `<->` — the straight-line
-- (chord) distance, which orders exactly as the great-circle distance does — walks it nearest
-- first (KNN). cube and btree_gist are core contrib extensions, trusted, and on hosted Supabase.
-- The functions are plain SQL without `SET search_path` so the planner inlines them; every name
-- in them is schema-qualified instead, so the search path cannot change what they call.
create extension if not exists cube with schema extensions;
create extension if not exists btree_gist with schema extensions;

create or replace function private.site_point(latitude double precision, longitude double precision)
returns extensions.cube
language sql
immutable
parallel safe
as $$
  select case when latitude is null or longitude is null then null else extensions.cube(array[
    pg_catalog.cos(pg_catalog.radians(latitude)) * pg_catalog.cos(pg_catalog.radians(longitude)),
    pg_catalog.cos(pg_catalog.radians(latitude)) * pg_catalog.sin(pg_catalog.radians(longitude)),
    pg_catalog.sin(pg_catalog.radians(latitude))
  ]::double precision[]) end
$$;

comment on function private.site_point(double precision, double precision) is
  'A position as a point on the unit sphere, for nearest-first ordering with <-> on sites_position_idx.';

revoke all on function private.site_point(double precision, double precision) from public, anon;
grant execute on function private.site_point(double precision, double precision) to authenticated, service_role;

create index sites_position_idx on public.sites
  using gist (org_id, private.site_point(latitude, longitude));

-- The same haversine as before, now inlinable (no SET clause; names qualified).
create or replace function private.distance_m(lat1 double precision, lng1 double precision,
                                              lat2 double precision, lng2 double precision)
returns double precision
language sql
immutable
parallel safe
as $$
  select 2 * 6371008.8 * pg_catalog.asin(pg_catalog.sqrt(
    pg_catalog.power(pg_catalog.sin(pg_catalog.radians(lat2 - lat1) / 2), 2)
    + pg_catalog.cos(pg_catalog.radians(lat1)) * pg_catalog.cos(pg_catalog.radians(lat2))
      * pg_catalog.power(pg_catalog.sin(pg_catalog.radians(lng2 - lng1) / 2), 2)
  ));
$$;
