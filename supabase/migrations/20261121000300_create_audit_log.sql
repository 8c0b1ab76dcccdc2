-- The audit log: an append-only record of every insert, update and delete on an organization's
-- tables, with who did it and the row before and after (PRODUCT.md §3). A trigger writes it;
-- nobody, not even the API's service role, can change or remove a row afterwards.

create table public.audit_log (
  id bigint generated always as identity primary key,
  -- No foreign key: an organization's history outlives its rows, and a cascade would have to
  -- delete from a table that refuses deletes.
  org_id uuid not null,
  actor_kind text not null
    constraint audit_log_actor_kind_check check (actor_kind in ('user', 'api_key', 'system')),
  actor_user_id uuid,
  actor_api_key_id uuid,
  action text not null
    constraint audit_log_action_check check (action in ('insert', 'update', 'delete')),
  entity text not null,
  entity_id uuid,
  before jsonb,
  after jsonb,
  at timestamptz not null default now()
);

comment on table public.audit_log is 'Append-only history of changes to organization data: actor, action, entity, before, after.';
comment on column public.audit_log.entity is 'The table the row belongs to, e.g. sites.';

-- The audit page lists an organization's newest entries first; the policy reads org_id.
create index audit_log_org_id_at_idx on public.audit_log (org_id, at desc, id desc);
-- "History of this site": one entity's entries.
create index audit_log_entity_idx on public.audit_log (entity, entity_id);

-- The organization a row of an organization table belongs to: its own id for organizations,
-- its org_id everywhere else. Shared by the triggers that log and broadcast changes.
create or replace function private.org_id_of(table_name name, row_data jsonb)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select (case when table_name = 'organizations' then row_data ->> 'id' else row_data ->> 'org_id' end)::uuid;
$$;

revoke all on function private.org_id_of(name, jsonb) from public, anon, authenticated;

-- Writes one audit row for the changed row. security definer because callers may not insert
-- into audit_log themselves. Trigger arguments name columns that must never be logged (secrets
-- such as token hashes).
create or replace function private.write_audit_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  before_row jsonb;
  after_row jsonb;
  kind text;
begin
  -- tg_argv is null, not empty, when the trigger has no arguments.
  if tg_op <> 'INSERT' then before_row := to_jsonb(old) - coalesce(tg_argv, '{}'); end if;
  if tg_op <> 'DELETE' then after_row := to_jsonb(new) - coalesce(tg_argv, '{}'); end if;
  -- An update that changed nothing but its timestamp is not worth an entry.
  if tg_op = 'UPDATE' and before_row - 'updated_at' = after_row - 'updated_at' then
    return null;
  end if;

  kind := case
    when claims ->> 'api_key_id' is not null then 'api_key'
    when claims ->> 'role' = 'authenticated' and claims ->> 'sub' is not null then 'user'
    else 'system'
  end;

  insert into public.audit_log (org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after)
  values (
    private.org_id_of(tg_table_name, coalesce(after_row, before_row)),
    kind,
    case when kind = 'user' then (claims ->> 'sub')::uuid end,
    case when kind = 'api_key' then (claims ->> 'api_key_id')::uuid end,
    lower(tg_op),
    tg_table_name,
    coalesce(after_row ->> 'id', before_row ->> 'id')::uuid,
    before_row,
    after_row
  );
  return null;
end;
$$;

comment on function private.write_audit_log() is
  'After-row trigger: appends the change to audit_log; arguments list columns to leave out.';

-- Append-only: refused for every role, including the table's owner, short of dropping the trigger.
create or replace function private.refuse_audit_log_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'audit_log is append-only' using errcode = '42501';
end;
$$;

revoke all on function private.write_audit_log(), private.refuse_audit_log_change() from public, anon, authenticated;

create trigger audit_log_append_only
  before update or delete on public.audit_log
  for each row execute function private.refuse_audit_log_change();

create trigger audit_log_no_truncate
  before truncate on public.audit_log
  for each statement execute function private.refuse_audit_log_change();

-- The tables that exist so far; later tables attach the same trigger in their own migration.
create trigger organizations_write_audit_log
  after insert or update or delete on public.organizations
  for each row execute function private.write_audit_log();

create trigger memberships_write_audit_log
  after insert or update or delete on public.memberships
  for each row execute function private.write_audit_log();

alter table public.audit_log enable row level security;

-- Every member reads it: viewers are the organization's auditors (PRODUCT.md §1, §6).
create policy "Members can read their organization's audit log"
  on public.audit_log
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user()));

-- No insert, update or delete policies: only the trigger writes, and nothing rewrites history.

revoke all on table public.audit_log from anon, authenticated, service_role;
grant select on table public.audit_log to authenticated, service_role;
