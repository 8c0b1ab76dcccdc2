-- What Supabase's advisors (the splinter lints behind the dashboard's Security and Performance
-- advisors) warn about, held here so it cannot come back unnoticed (issue 24). Written from the
-- lints' documented rules, over the project's own schemas: every schema but the platform's, the
-- CLI's, the local stack's and the tests'.
--   function_search_path_mutable: every function pins its search path. Ours pin it to ''
--     (CONTRIBUTING.md), so no caller's search path can change what a name in it means.
--   multiple_permissive_policies: on a table, at most one permissive policy applies to a role for
--     a command (a policy `for all` counts for each of the four commands, one `to public` for
--     every role that RLS holds), since Postgres must evaluate every one of them for each row.
-- A failure lists what to fix. The checks are then shown to catch a planted case of each.
begin;
select plan(6);

-- The project's schemas: functions and tables of extensions are the extension's business.
create function pg_temp.is_project_schema(schema_name name) returns boolean language sql immutable as $$
  select schema_name not in (
           'pg_catalog', 'information_schema', 'auth', 'storage', 'realtime', 'extensions', 'graphql',
           'graphql_public', 'vault', 'pgbouncer', 'net', 'cron', 'pgsodium', 'pgsodium_masks',
           'supabase_functions', 'supabase_migrations', '_local_stack', 'tests')
     and schema_name !~ '^pg_(toast|temp)';
$$;

create function pg_temp.functions_without_a_pinned_search_path() returns setof text language sql as $$
  select format('%s.%s(%s): add set search_path = ''''', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  where pg_temp.is_project_schema(n.nspname)
    and p.prokind <> 'a'
    and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    and 'search_path=""' <> all (coalesce(p.proconfig, '{}'))
  order by 1;
$$;

-- Each permissive policy once per command and per role it applies to; a role that bypasses RLS
-- (or is a superuser) never evaluates policies, so it is left out.
create function pg_temp.overlapping_permissive_policies() returns setof text language sql as $$
  with applied as (
    select format('%I.%I', n.nspname, c.relname) as table_name, r.rolname, command, p.polname
    from pg_policy p
    join pg_class c on c.oid = p.polrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_roles r on (p.polroles = '{0}' or r.oid = any (p.polroles))
      and not r.rolsuper and not r.rolbypassrls and r.rolname !~ '^pg_'
    cross join lateral unnest(case p.polcmd
      when 'r' then array['select'] when 'a' then array['insert'] when 'w' then array['update']
      when 'd' then array['delete'] else array['select', 'insert', 'update', 'delete'] end) as command
    where p.polpermissive
      and c.relkind in ('r', 'p')
      and pg_temp.is_project_schema(n.nspname)
      and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
  )
  select format('%s: %s policies for %s to %s: %s', table_name, count(*), command, rolname,
                string_agg(quote_ident(polname), ', ' order by polname))
  from applied
  group by table_name, command, rolname
  having count(*) > 1
  order by 1;
$$;

select isnt_empty(
  $$ select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname in ('public', 'private') $$,
  'public and private have functions to check');
select is_empty('select * from pg_temp.functions_without_a_pinned_search_path()',
  'every function of the project''s schemas pins search_path to ''''');
select is_empty('select * from pg_temp.overlapping_permissive_policies()',
  'no table of the project''s schemas has two permissive policies for one role and command');

-- The checks catch what they look for (rolled back with the file).
create function public.tests_unpinned() returns int language sql as $$ select 1 $$;
create function private.tests_pinned_elsewhere() returns int language sql set search_path = public as $$ select 1 $$;
create table public.tests_policies (id int);
create policy "tests: everyone reads" on public.tests_policies for select to public using (true);
create policy "tests: members read" on public.tests_policies for select to authenticated using (true);
create policy "tests: members do all" on public.tests_policies for all to authenticated using (true);
create policy "tests: members delete restrictively" on public.tests_policies as restrictive for delete to authenticated using (true);
create policy "tests: the service role updates" on public.tests_policies for update to service_role using (true);

select results_eq($$ select * from pg_temp.functions_without_a_pinned_search_path() as it(line) where line like '%.tests\_%' $$,
  $$ values ('private.tests_pinned_elsewhere(): add set search_path = '''''),
            ('public.tests_unpinned(): add set search_path = ''''') $$,
  'a function without a search path, or pinned to another, is listed');
select results_eq($$ select * from pg_temp.overlapping_permissive_policies() as it(line)
                    where line like 'public.tests_policies:%' and line like '%to authenticated:%' $$,
  $$ values ('public.tests_policies: 3 policies for select to authenticated: "tests: everyone reads", "tests: members do all", "tests: members read"') $$,
  'permissive policies that overlap for one role and command are listed, counting `for all` and `to public`');
select is_empty($$ select * from pg_temp.overlapping_permissive_policies() as it(line)
                  where line like 'public.tests_policies:%' and (line like '%for delete%' or line like '%to service_role:%') $$,
  '... but not a restrictive policy beside a permissive one, nor policies of a role that bypasses RLS');

select * from finish();
rollback;
