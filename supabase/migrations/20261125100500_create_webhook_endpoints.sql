-- Webhook endpoints (PRODUCT.md §3, §9; docs/webhooks.md): where an organization wants to hear
-- about changes, which events, and the Standard Webhooks secret the deliveries are signed with.
-- Up to 10 per organization. Owners and admins manage them; no key ever does.

-- Every event type a delivery can carry (docs/webhooks.md), the one list the check constraint,
-- the triggers that write events and the api's schema agree on.
create or replace function private.webhook_event_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array[
    'inspection.created', 'inspection.started', 'inspection.submitted', 'inspection.approved',
    'inspection.changes_requested', 'inspection.canceled',
    'action.created', 'action.in_progress', 'action.resolved', 'action.verified', 'action.reopened', 'action.canceled',
    'site.created', 'site.updated', 'site.archived',
    'template.created', 'template.updated', 'template.published', 'template.archived',
    'webhook.test'
  ]::text[];
$$;

grant execute on function private.webhook_event_types() to authenticated, service_role;

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  url text not null
    -- http(s) only, and no credentials (user:password@) in the authority.
    constraint webhook_endpoints_url_check check (char_length(url) <= 2000 and url ~ '^https?://[^/?#@\s]+([/?#]\S*)?$'),
  -- Empty: every event type.
  event_types text[] not null default '{}'
    constraint webhook_endpoints_event_types_check check (event_types <@ private.webhook_event_types()),
  enabled boolean not null default true,
  -- Standard Webhooks: whsec_ and the base64 of the key bytes. Kept as it is, because signing
  -- needs it; no API role can read the column (only the delivery worker's role).
  secret text not null
    constraint webhook_endpoints_secret_check check (secret ~ '^whsec_[A-Za-z0-9+/]{32,}={0,2}$'),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.webhook_endpoints is 'Where an organization''s events are delivered, signed with the endpoint''s Standard Webhooks secret.';

create index webhook_endpoints_org_id_idx on public.webhook_endpoints (org_id, created_at);
create index webhook_endpoints_created_by_idx on public.webhook_endpoints (created_by);

-- At most 10 endpoints per organization (PRODUCT.md §9); the organization row lock makes racing
-- inserts take turns, so the limit holds.
create or replace function private.prepare_webhook_endpoint()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  endpoint_limit constant integer := 10;
begin
  if private.is_client_request() then
    new.created_by := (select auth.uid());
  end if;
  perform 1 from public.organizations o where o.id = new.org_id for update;
  if (select count(*) from public.webhook_endpoints e where e.org_id = new.org_id) >= endpoint_limit then
    raise exception 'limit_exceeded' using detail = json_build_object('n', endpoint_limit, 'things', 'webhook endpoints')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.prepare_webhook_endpoint() from public, anon, authenticated;

create trigger webhook_endpoints_prepare
  before insert on public.webhook_endpoints
  for each row execute function private.prepare_webhook_endpoint();

create trigger webhook_endpoints_set_updated_at
  before update on public.webhook_endpoints
  for each row execute function private.set_updated_at();

create trigger webhook_endpoints_enforce_mfa
  before insert or update or delete on public.webhook_endpoints
  for each row execute function private.enforce_organization_mfa();

-- The secret is never logged.
create trigger webhook_endpoints_write_audit_log
  after insert or update or delete on public.webhook_endpoints
  for each row execute function private.write_audit_log('secret');

alter table public.webhook_endpoints enable row level security;

create policy "Owners and admins can read their organization's webhook endpoints"
  on public.webhook_endpoints for select to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can add webhook endpoints"
  on public.webhook_endpoints for insert to authenticated
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can change webhook endpoints"
  on public.webhook_endpoints for update to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')))
  with check (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can remove webhook endpoints"
  on public.webhook_endpoints for delete to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

revoke all on table public.webhook_endpoints from anon, authenticated;
-- Not the secret: it is shown when it is made (create, rotate) and read only by the worker.
grant select (id, org_id, url, event_types, enabled, created_by, created_at, updated_at) on table public.webhook_endpoints to authenticated;
grant insert (id, org_id, url, event_types, enabled, secret) on table public.webhook_endpoints to authenticated;
grant update (url, event_types, enabled, secret) on table public.webhook_endpoints to authenticated;
grant delete on table public.webhook_endpoints to authenticated;
grant all on table public.webhook_endpoints to service_role;
