-- The buckets (issue 14 part 2): `evidence` and `exports` exist with docs/product.md's settings, and the
-- migration that makes them (what `supabase db push` gives a new hosted project) creates them
-- from nothing, and brings changed ones back, to exactly those settings. The running stack synced
-- config.toml's buckets after the migrations, so the first checks hold config.toml to the same.
begin;
select plan(6);

create temp table expected (id text, public boolean, file_size_limit bigint, allowed_mime_types text[]) on commit drop;
insert into expected values
  ('evidence', false, 10485760, array['image/jpeg', 'image/png', 'image/webp', 'image/heic']),
  ('exports', false, null, null);

select results_eq(
  $$select id, public, file_size_limit, allowed_mime_types from storage.buckets where id in ('evidence', 'exports') order by id$$,
  $$select * from expected order by id$$,
  'the running stack has both buckets with docs/product.md''s settings (config.toml agrees with them)'
);

-- A new project: no buckets at all (Storage's API would set this to delete rows; locally harmless).
select set_config('storage.allow_delete_query', 'true', true);
delete from storage.objects where bucket_id in ('evidence', 'exports');
delete from storage.buckets where id in ('evidence', 'exports');
select is((select count(*)::int from storage.buckets where id in ('evidence', 'exports')), 0, 'a project without the buckets');
select lives_ok((select body from tests.migrations where name like '%_create_storage_buckets.sql'), 'the migration runs there');
select results_eq(
  $$select id, public, file_size_limit, allowed_mime_types from storage.buckets where id in ('evidence', 'exports') order by id$$,
  $$select * from expected order by id$$,
  'and creates both buckets with those settings'
);

-- A bucket changed by hand (made public, limits dropped) is brought back; running again is harmless.
update storage.buckets set public = true, file_size_limit = null, allowed_mime_types = null where id = 'evidence';
select lives_ok((select body from tests.migrations where name like '%_create_storage_buckets.sql'), 'the migration runs again');
select results_eq(
  $$select id, public, file_size_limit, allowed_mime_types from storage.buckets where id in ('evidence', 'exports') order by id$$,
  $$select * from expected order by id$$,
  'and restores the settings'
);

select * from finish();
rollback;
