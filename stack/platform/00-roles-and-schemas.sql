-- Platform bootstrap, part 1: the roles, schemas, extensions and default privileges that a
-- Supabase project has before any migration of ours runs. Same names as on Supabase, so
-- supabase/migrations behave identically here and on hosted Supabase.

-- API roles. PostgREST, Realtime and Storage switch to one of these per request.
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
-- The role the API services log in as before switching to the caller's role.
create role authenticator noinherit login password 'postgres';
grant anon, authenticated, service_role to authenticator;
-- Superuser-like owner of platform objects, and the owners of each service's schema.
create role supabase_admin login superuser createdb createrole replication bypassrls password 'postgres';
create role supabase_auth_admin noinherit createrole login password 'postgres';
create role supabase_storage_admin noinherit createrole login password 'postgres';
create role supabase_realtime_admin noinherit nologin;
create role dashboard_user nosuperuser createdb createrole replication;
-- On Supabase the `postgres` role may act as each API role (edge functions do `set role authenticated`).
grant anon, authenticated, service_role to postgres;
grant authenticated to supabase_storage_admin;
grant anon, authenticated, service_role to supabase_storage_admin;

-- Per-role statement timeouts as on Supabase.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;

create schema if not exists auth authorization supabase_auth_admin;
create schema if not exists storage authorization supabase_storage_admin;
create schema if not exists realtime authorization supabase_admin;
grant usage on schema auth, storage, realtime to postgres, anon, authenticated, service_role;
grant all on schema auth to supabase_auth_admin, postgres;
grant all on schema storage to supabase_storage_admin, postgres;
grant all on schema realtime to supabase_realtime_admin, postgres;

-- Every role that resolves names the way PostgREST does finds extension functions too.
alter role postgres set search_path = "$user", public, extensions;
alter role authenticator set search_path = "$user", public, extensions;
alter role supabase_auth_admin set search_path = auth;
alter role supabase_storage_admin set search_path = storage;

-- The public schema: Supabase grants the API roles usage and, by default, privileges on new
-- objects. Product migrations narrow these with RLS and column privileges.
grant usage on schema public to postgres, anon, authenticated, service_role;
grant all on schema public to postgres;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to anon, authenticated, service_role;

-- Realtime's logical-replication publication (empty until a migration adds tables).
create publication supabase_realtime;
