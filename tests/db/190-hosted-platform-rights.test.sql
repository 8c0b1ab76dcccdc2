-- The database is shaped like a hosted Supabase project: these tests run as `postgres`, which is
-- no superuser and has only the rights hosted gives it (stack/platform/*.sql, docs/local-stack.md).
-- Each refusal is paired with what hosted still allows, so neither side can pass by accident.
begin;
select plan(26);

create function public.tests_no_op() returns trigger language plpgsql as $$ begin return new; end $$;

select is(current_user::text, 'postgres', 'the tests run as postgres');
select is((select rolsuper from pg_roles where rolname = 'postgres'), false, 'postgres is not a superuser');
select is((select rolsuper from pg_roles where rolname = 'supabase_admin'), true, '... supabase_admin is the cluster''s superuser');
select is((select rolbypassrls and rolcreaterole and rolcreatedb from pg_roles where rolname = 'postgres'), true,
  'postgres bypasses RLS and may create roles and databases, as on hosted');

-- The platform's schemas: usable, not writable (hosted revoked CREATE in 2025).
select throws_ok('create table auth.mine (id int)', '42501', null, 'postgres cannot create objects in auth');
select throws_ok('create table storage.mine (id int)', '42501', null, '... nor in storage');
select throws_ok('create table realtime.mine (id int)', '42501', null, '... nor in realtime');
select throws_ok('create function auth.mine() returns int language sql as $$ select 1 $$', '42501', null,
  '... nor replace auth''s functions with its own');
select lives_ok($$create trigger tests_on_new_user after insert on auth.users for each row execute function public.tests_no_op()$$,
  'postgres may still put a trigger on auth.users');
select lives_ok('create table public.mine (id int)', 'postgres creates in public');

-- Storage's delete protection.
insert into storage.objects (bucket_id, name) values ('evidence', 'tests/protected.txt');
select throws_ok($$delete from storage.objects where name = 'tests/protected.txt'$$, '42501',
  'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
  'a direct delete from storage.objects is refused');
select throws_ok($$delete from storage.buckets where id = 'no-such-bucket'$$, '42501',
  'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
  '... and from storage.buckets, even of nothing');
select set_config('storage.allow_delete_query', 'true', true);
delete from storage.objects where name = 'tests/protected.txt';
select is((select count(*)::int from storage.objects where name = 'tests/protected.txt'), 0,
  'with storage.allow_delete_query set, as the Storage API sets it, the delete goes through');
select set_config('storage.allow_delete_query', 'false', true);

-- Policies on platform tables: allowed (hosted's policy grants); everything else an owner could do is not.
select lives_ok($$create policy "tests read nothing" on storage.objects for select to authenticated using (false)$$,
  'postgres creates a policy on storage.objects');
select lives_ok($$drop policy "tests read nothing" on storage.objects$$, '... and drops it');
select lives_ok($$create policy "tests see nothing" on realtime.messages for select to authenticated using (false)$$,
  'postgres creates a policy on realtime.messages');
select throws_ok('alter table storage.objects disable trigger protect_objects_delete', '42501',
  'must be owner of table objects', 'postgres cannot switch off Storage''s delete protection');
-- Postgres words a refused DROP TRIGGER by the relation, an index by the index, the rest by the table.
select throws_ok('drop trigger protect_objects_delete on storage.objects', '42501',
  'must be owner of relation objects', '... nor drop it');
select throws_ok('alter table storage.objects disable row level security', '42501',
  'must be owner of table objects', '... nor turn off RLS on storage.objects');
select throws_ok('create index tests_objects_owner on storage.objects (owner)', '42501', null, '... nor index it');
select throws_ok('drop index storage.bucketid_objname', '42501',
  'must be owner of index bucketid_objname', '... nor drop its indexes');
select throws_ok('alter index storage.bucketid_objname set (fillfactor = 50)', '42501',
  'must be owner of index bucketid_objname', '... nor alter them');
select throws_ok('drop table storage.buckets cascade', '42501',
  'must be owner of table buckets', '... nor drop Storage''s tables');
select throws_ok('alter table realtime.messages add column mine int', '42501', null, '... nor change realtime.messages');

-- Realtime: partitioned by day, and send() gives an id to a payload that has none.
select is((select relkind::text from pg_class where oid = 'realtime.messages'::regclass), 'p',
  'realtime.messages is partitioned, as on Supabase');
select realtime.send('{"a": 1}', 'tests_event', 'tests:send', false);
select realtime.send('{"id": "mine"}', 'tests_event', 'tests:send', false);
select results_eq(
  $$select payload ->> 'id' = id::text, payload ->> 'id' = 'mine' from realtime.messages
    where topic = 'tests:send' order by payload ->> 'a' nulls last$$,
  $$values (true, false), (false, true)$$,
  'realtime.send adds the message''s id to a payload without one and keeps a payload''s own');

select * from finish();
rollback;
