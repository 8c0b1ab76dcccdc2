-- Every table in public has row-level security on: a table without it is open to the Data API.
begin;
select plan(2);

select isnt_empty(
  $$ select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') $$,
  'public has tables to check'
);

select is_empty(
  $$ select format('alter table public.%I enable row level security;', c.relname)
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity $$,
  'row-level security is enabled on every table in public'
);

select * from finish();
rollback;
