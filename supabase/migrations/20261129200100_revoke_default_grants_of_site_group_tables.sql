-- The three tables of site groups and access (20261129100100, 20261129100300) granted their
-- columns to authenticated but never revoked what Supabase's default privileges give every new
-- table in public: all of it, to anon and authenticated alike. So anon could read them (no row,
-- through RLS, instead of permission denied), and authenticated could update every column —
-- site_groups.depth, org_id, created_by, which the grants meant to keep out of its reach — and
-- truncate the tables past their policies. As for sites and schedules: revoke everything from
-- anon and authenticated, then grant authenticated exactly what the first migrations meant.

revoke all on table public.site_groups from anon, authenticated;
grant select, delete on table public.site_groups to authenticated;
-- depth is kept by the database, created_by is always the caller (its default).
grant insert (id, org_id, parent_id, name) on table public.site_groups to authenticated;
grant update (name, parent_id) on table public.site_groups to authenticated;
grant all on table public.site_groups to service_role;

revoke all on table public.membership_site_groups from anon, authenticated;
grant select, delete on table public.membership_site_groups to authenticated;
grant insert (org_id, user_id, site_group_id) on table public.membership_site_groups to authenticated;
grant all on table public.membership_site_groups to service_role;

-- A key's groups are set as it is made and never change: no update, no delete.
revoke all on table public.api_key_site_groups from anon, authenticated;
grant select on table public.api_key_site_groups to authenticated;
grant insert (api_key_id, org_id, site_group_id) on table public.api_key_site_groups to authenticated;
grant all on table public.api_key_site_groups to service_role;
