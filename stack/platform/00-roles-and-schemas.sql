-- Platform bootstrap, part 1: the roles, schemas, extensions and default privileges that a
-- Supabase project has before any migration of ours runs. Same names as on Supabase, so
-- supabase/migrations behave identically here and on hosted Supabase.

-- The cluster's superuser is `supabase_admin` (initdb makes it; this bootstrap runs as it), as on
-- hosted Supabase. `postgres` is the role a project's owner gets: no superuser, but it may create
-- databases and roles, replicate and bypass RLS. Everything it may do beyond its own objects is
-- granted below and in the other platform files, following the rights hosted projects give it
-- (read in supabase/postgres's migrations), so a migration that works here works there.
create role postgres login nosuperuser createdb createrole replication bypassrls password 'postgres';

-- API roles. PostgREST, Realtime and Storage switch to one of these per request.
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
-- The role the API services log in as before switching to the caller's role.
create role authenticator noinherit login password 'postgres';
grant anon, authenticated, service_role to authenticator;
-- The owners of each service's schema; the services log in as them (stack/server.ts).
create role supabase_auth_admin noinherit createrole login password 'postgres';
create role supabase_storage_admin noinherit createrole login password 'postgres';
create role supabase_realtime_admin noinherit nologin;
create role dashboard_user nosuperuser createdb createrole replication;
-- On Supabase the `postgres` role may act as each API role (edge functions do `set role authenticated`).
grant anon, authenticated, service_role to postgres;
grant anon, authenticated, service_role to supabase_storage_admin;

-- The database: `postgres` may create schemas in it (supabase_migrations, private, tests …).
grant all on database postgres to postgres;
-- Hosted lets `postgres` run `SET session_replication_role` (supautils allows the statement;
-- set_config() stays refused there, see docs/local-stack.md).
grant set on parameter session_replication_role to postgres;

-- Per-role statement timeouts as on Supabase.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- The local stack's own bookkeeping (not part of the product, not on Supabase). Storage keeps its
-- spent signed-upload tokens there.
create schema if not exists _local_stack;
comment on schema _local_stack is 'Bookkeeping of the Docker-free local stack; not part of the product.';
grant usage, create on schema _local_stack to supabase_storage_admin;

create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
grant all on schema extensions to postgres;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;

create schema if not exists auth authorization supabase_auth_admin;
create schema if not exists storage authorization supabase_storage_admin;
create schema if not exists realtime authorization supabase_admin;
-- `postgres` may use these schemas but not create in them (hosted revoked CREATE in 2025); its
-- rights on their tables are granted where the tables are made.
grant usage on schema auth, storage, realtime to anon, authenticated, service_role;
grant usage on schema auth to postgres;
grant usage on schema storage, realtime to postgres with grant option;
grant all on schema realtime to supabase_realtime_admin;

-- Every role that resolves names the way PostgREST does finds extension functions too.
alter role postgres set search_path = "$user", public, extensions;
alter role supabase_admin set search_path = public, extensions;
alter role authenticator set search_path = "$user", public, extensions;
alter role supabase_auth_admin set search_path = auth;
alter role supabase_storage_admin set search_path = storage;

-- The public schema: Supabase grants the API roles usage and, by default, privileges on new
-- objects. Product migrations narrow these with RLS and column privileges.
grant usage on schema public to anon, authenticated, service_role;
grant all on schema public to postgres;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;

-- Realtime's logical-replication publication (empty until a migration adds tables).
create publication supabase_realtime;
