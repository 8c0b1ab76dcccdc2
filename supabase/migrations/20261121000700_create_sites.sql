-- Sites: the places an organization inspects, with an address, a map position and the geofence
-- inside which an inspection counts as started on site. Sites are archived, never deleted,
-- so inspection history keeps pointing at them.

-- Trigram indexes make "q" search (substring, any case) fast on large organizations.
create extension if not exists pg_trgm with schema extensions;

-- Whether a name is an IANA zone Postgres knows ("Europe/London", "UTC"). POSIX specs such as
-- "UTC+5" or "<+03>-3" also pass `at time zone` but are not zones browsers can format, so the
-- name must look like Area/Location first. Declared immutable so a check constraint may use it:
-- the zone database only changes with a server upgrade, and then only by adding names.
create or replace function private.is_time_zone(name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if name !~ '^(UTC|[A-Za-z_]+(/[A-Za-z0-9_+-]+)+)$' then
    return false;
  end if;
  perform now() at time zone name;
  return true;
exception when others then
  return false;
end;
$$;

revoke all on function private.is_time_zone(text) from public, anon;
grant execute on function private.is_time_zone(text) to authenticated, service_role;

create table public.sites (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint sites_name_check check (char_length(name) between 1 and 120 and name !~ '^\s|\s$'),
  address text
    constraint sites_address_check check (char_length(address) between 1 and 500 and address !~ '^\s|\s$'),
  latitude double precision
    constraint sites_latitude_check check (latitude between -90 and 90),
  longitude double precision
    constraint sites_longitude_check check (longitude between -180 and 180),
  -- Filled from the organization's default by a trigger when not given.
  geofence_m integer not null
    constraint sites_geofence_m_check check (geofence_m between 10 and 5000),
  timezone text not null default 'UTC'
    constraint sites_timezone_check check (private.is_time_zone(timezone) and char_length(timezone) <= 64),
  -- The site's id in another system (ERP, CMMS), for integrations; unique per organization.
  external_ref text
    constraint sites_external_ref_check check (char_length(external_ref) between 1 and 255 and external_ref !~ '^\s|\s$'),
  archived_at timestamptz,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A map pin needs both halves of a position.
  constraint sites_coordinates_check check ((latitude is null) = (longitude is null)),
  constraint sites_org_id_external_ref_key unique (org_id, external_ref)
);

comment on table public.sites is 'Places an organization inspects; archived rather than deleted.';
comment on column public.sites.geofence_m is 'Radius in metres around the position within which a start counts as on site.';

-- The list's default order (name, then id as a tie-break for the cursor); also the org_id policy column.
create index sites_org_id_name_idx on public.sites (org_id, name, id);
-- "q" searches name, address and external reference together.
create index sites_search_idx on public.sites
  using gin ((name || ' ' || coalesce(address, '') || ' ' || coalesce(external_ref, '')) extensions.gin_trgm_ops);
-- Foreign key (deleting a user).
create index sites_created_by_idx on public.sites (created_by);

-- Great-circle distance in metres (haversine on a spherical Earth): accurate to well under the
-- smallest geofence at the distances that matter, and needs no PostGIS.
create or replace function private.distance_m(lat1 double precision, lng1 double precision,
                                              lat2 double precision, lng2 double precision)
returns double precision
language sql
immutable
parallel safe
set search_path = ''
as $$
  select 2 * 6371008.8 * asin(sqrt(
    power(sin(radians(lat2 - lat1) / 2), 2)
    + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2)
  ));
$$;

revoke all on function private.distance_m(double precision, double precision, double precision, double precision) from public, anon;
grant execute on function private.distance_m(double precision, double precision, double precision, double precision)
  to authenticated, service_role;

-- Before a new site: the organization's default geofence when none is given, and the per
-- organization limit (PRODUCT.md §9). security definer to read and lock the organization row
-- whatever the caller's role; RLS still decides right after whether the insert is allowed.
create or replace function private.prepare_site()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  site_limit constant integer := 100000;
  org_default integer;
begin
  -- Locking the organization serializes concurrent inserts, so the limit holds under races.
  select o.default_geofence_m into org_default from public.organizations o where o.id = new.org_id for update;
  new.geofence_m := coalesce(new.geofence_m, org_default);
  if (select count(*) from public.sites s where s.org_id = new.org_id) >= site_limit then
    raise exception 'limit_exceeded' using detail = json_build_object('n', site_limit, 'things', 'sites')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.prepare_site() from public, anon, authenticated;

create trigger sites_prepare
  before insert on public.sites
  for each row execute function private.prepare_site();

create trigger sites_set_updated_at
  before update on public.sites
  for each row execute function private.set_updated_at();

create trigger sites_write_audit_log
  after insert or update or delete on public.sites
  for each row execute function private.write_audit_log();

create trigger sites_enforce_mfa
  before insert or update or delete on public.sites
  for each row execute function private.enforce_organization_mfa();

alter table public.sites enable row level security;

create policy "Members can read their organization's sites"
  on public.sites
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

create policy "Owners, admins and managers can add sites"
  on public.sites
  for insert
  to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

create policy "Owners, admins and managers can edit and archive sites"
  on public.sites
  for update
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')))
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin,manager}')));

-- No delete policy: "delete" archives (an update), so inspections keep their site.

revoke all on table public.sites from anon, authenticated;
grant select on table public.sites to authenticated;
-- created_by is not granted: it is always the caller (its default).
grant insert (id, org_id, name, address, latitude, longitude, geofence_m, timezone, external_ref)
  on table public.sites to authenticated;
grant update (name, address, latitude, longitude, geofence_m, timezone, external_ref, archived_at)
  on table public.sites to authenticated;
grant all on table public.sites to service_role;
