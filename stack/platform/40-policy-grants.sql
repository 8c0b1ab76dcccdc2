-- Platform bootstrap: policies on platform tables, as hosted Supabase allows them.
--
-- On hosted Supabase, `postgres` does not own storage.objects, storage.buckets or
-- realtime.messages, yet may create, alter and drop policies on them (and triggers): the
-- supautils extension's "policy grants" let it. supautils is a C extension we cannot load here,
-- and Postgres ties policies to ownership, so the local stack emulates it in two halves:
--   1. the three tables belong to `local_stack_policy_grants`, a role granted to `postgres`,
--      which gives `postgres` the owner's right to manage their policies;
--   2. an event trigger refuses every other owner-only command `postgres` could now run on them
--      (ALTER TABLE — including DISABLE TRIGGER and DISABLE ROW LEVEL SECURITY —, CREATE INDEX,
--      DROP TABLE, dropping Storage's delete protection …) with the error Postgres gives a
--      non-owner there: "must be owner of table …", but "must be owner of relation …" for
--      DROP TRIGGER and "must be owner of index …" for dropping or altering an index.
-- So a migration may manage its policies on these tables exactly as on hosted, and nothing more.

create role local_stack_policy_grants nologin noinherit;
grant local_stack_policy_grants to postgres;
-- An owner's own checks (foreign keys) run as the owner, which must reach its schemas.
grant usage on schema storage, realtime to local_stack_policy_grants;

alter table storage.objects owner to local_stack_policy_grants;
alter table storage.buckets owner to local_stack_policy_grants;
alter table realtime.messages owner to local_stack_policy_grants;

create or replace function _local_stack.refuse_owner_commands_on_platform_tables()
returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  command record;
  target regclass;
begin
  -- The platform's own roles manage their tables; only `postgres` (and roles it makes) are held.
  if current_user in ('supabase_admin', 'supabase_storage_admin', 'supabase_realtime_admin')
     or not pg_has_role(current_user, 'local_stack_policy_grants', 'member') then
    return;
  end if;

  if tg_event = 'sql_drop' then
    for command in select * from pg_event_trigger_dropped_objects() loop
      if command.schema_name in ('storage', 'realtime')
         and (command.object_type not in ('policy', 'trigger') or command.object_identity like 'protect\_%') then
        -- Postgres's words (aclcheck_error) name the relation of a trigger, the index itself, and
        -- the table for everything else; address_names[2] is the relation (or index) in each case.
        raise exception 'must be owner of % %',
          case tg_tag when 'DROP TRIGGER' then 'relation' when 'DROP INDEX' then 'index' else 'table' end,
          command.address_names[2]
          using errcode = '42501';
      end if;
    end loop;
    return;
  end if;

  for command in select * from pg_event_trigger_ddl_commands() loop
    continue when command.command_tag in ('CREATE POLICY', 'ALTER POLICY', 'CREATE TRIGGER', 'GRANT', 'REVOKE');
    continue when command.classid <> 'pg_catalog.pg_class'::regclass;
    -- An index or a partition counts as its table.
    select coalesce(
             (select i.indrelid from pg_catalog.pg_index i where i.indexrelid = command.objid),
             (select h.inhparent from pg_catalog.pg_inherits h where h.inhrelid = command.objid),
             command.objid)::regclass
      into target;
    if target in ('storage.objects'::regclass, 'storage.buckets'::regclass, 'realtime.messages'::regclass) then
      -- Creating an index is refused by its table; altering or commenting on one, by the index.
      if command.command_tag <> 'CREATE INDEX' and target <> command.objid
         and exists (select 1 from pg_catalog.pg_index i where i.indexrelid = command.objid) then
        raise exception 'must be owner of index %', (select relname from pg_catalog.pg_class where oid = command.objid)
          using errcode = '42501';
      end if;
      raise exception 'must be owner of table %', (select relname from pg_catalog.pg_class where oid = target)
        using errcode = '42501';
    end if;
  end loop;
end;
$$;
comment on function _local_stack.refuse_owner_commands_on_platform_tables() is
  'Local stack only: with the ownership role above, emulates supautils policy grants (see stack/platform/40-policy-grants.sql).';

create event trigger local_stack_refuse_owner_commands
  on ddl_command_end execute function _local_stack.refuse_owner_commands_on_platform_tables();
create event trigger local_stack_refuse_owner_drops
  on sql_drop execute function _local_stack.refuse_owner_commands_on_platform_tables();

-- Ownership moved, so the services' own roles get their rights back by grant, and Storage's role
-- keeps the owner's exemption from RLS (its own work, such as syncing config.toml's buckets, is
-- not a caller's) as an attribute.
grant all on storage.objects, storage.buckets to supabase_storage_admin;
grant all on realtime.messages to supabase_realtime_admin;
alter role supabase_storage_admin bypassrls;
