-- The webhook outbox (docs/webhooks.md): triggers write an event, and one delivery per endpoint
-- that wants it, in the same transaction as the change, so a rolled-back change sends nothing and
-- a committed one is never lost. The delivery worker (functions/webhook-deliveries) claims due
-- deliveries with FOR UPDATE SKIP LOCKED, one entity's deliveries to one endpoint in order, and
-- records every attempt; failures are retried at about 10 s, 1 min, 10 min, 1 h, 6 h, 24 h and
-- 48 h after the first try, and the eighth failure makes a delivery dead.

create table public.webhook_events (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  -- The order events were written in: deliveries of one entity go out in this order.
  seq bigint generated always as identity,
  type text not null constraint webhook_events_type_check check (type = any (private.webhook_event_types())),
  entity text not null,
  entity_id uuid not null,
  -- Standard Webhooks' payload: {type, timestamp, data}.
  payload jsonb not null,
  created_at timestamptz not null default now()
);

comment on table public.webhook_events is 'Outbox: one row per event an organization''s endpoints want, written with the change itself.';

create index webhook_events_org_id_idx on public.webhook_events (org_id, created_at desc);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  event_id uuid not null references public.webhook_events (id) on delete cascade,
  -- Copied from the event, so the worker orders without a join.
  seq bigint not null,
  entity_id uuid not null,
  status text not null default 'pending'
    constraint webhook_deliveries_status_check check (status in ('pending', 'succeeded', 'dead')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- A worker's claim: until then no other worker takes it (a crashed worker's claim runs out).
  locked_until timestamptz,
  last_status_code integer,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);

comment on table public.webhook_deliveries is 'One event to one endpoint: pending until a 2xx, retried with backoff, dead after 8 failures.';

create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_order_idx on public.webhook_deliveries (endpoint_id, entity_id, seq) where status = 'pending';
create index webhook_deliveries_endpoint_id_idx on public.webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_event_id_idx on public.webhook_deliveries (event_id);
create index webhook_deliveries_org_id_idx on public.webhook_deliveries (org_id);

create table public.webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  org_id uuid not null references public.organizations (id) on delete cascade,
  at timestamptz not null default now(),
  status_code integer,
  duration_ms integer not null,
  -- The first 2 KB of the answer, to show why a receiver refused.
  response_body text constraint webhook_attempts_response_body_check check (char_length(response_body) <= 2048),
  error text
);

create index webhook_attempts_delivery_id_idx on public.webhook_attempts (delivery_id, at);
create index webhook_attempts_org_id_idx on public.webhook_attempts (org_id);

alter table public.webhook_events enable row level security;
alter table public.webhook_deliveries enable row level security;
alter table public.webhook_attempts enable row level security;

-- Owners and admins read the delivery log; nobody writes it but the product's own code.
create policy "Owners and admins can read their organization's webhook events"
  on public.webhook_events for select to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));
create policy "Owners and admins can read their organization's webhook deliveries"
  on public.webhook_deliveries for select to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));
create policy "Owners and admins can read their organization's webhook attempts"
  on public.webhook_attempts for select to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

revoke all on table public.webhook_events, public.webhook_deliveries, public.webhook_attempts from anon, authenticated;
grant select on table public.webhook_events, public.webhook_deliveries, public.webhook_attempts to authenticated;
grant all on table public.webhook_events, public.webhook_deliveries, public.webhook_attempts to service_role;

-- Writes `type` about `row_data` to the outbox, with a delivery for each enabled endpoint of the
-- organization that wants the type; nothing at all when none does, so an organization without
-- webhooks pays one indexed lookup per change.
create or replace function private.enqueue_webhook_event(org uuid, event_type text, entity text, row_data jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  event_id uuid;
  event_seq bigint;
  entity_id uuid := (row_data ->> 'id')::uuid;
begin
  if not exists (
    select 1 from public.webhook_endpoints e
    where e.org_id = org and e.enabled and (e.event_types = '{}' or event_type = any (e.event_types))
  ) then
    return null;
  end if;
  insert into public.webhook_events (org_id, type, entity, entity_id, payload)
  values (org, event_type, entity, entity_id,
          jsonb_build_object('type', event_type, 'timestamp', to_jsonb(now()), 'data', row_data))
  returning id, seq into event_id, event_seq;
  insert into public.webhook_deliveries (org_id, endpoint_id, event_id, seq, entity_id)
  select org, e.id, event_id, event_seq, entity_id
  from public.webhook_endpoints e
  where e.org_id = org and e.enabled and (e.event_types = '{}' or event_type = any (e.event_types));
  return event_id;
end;
$$;

revoke all on function private.enqueue_webhook_event(uuid, text, text, jsonb) from public, anon, authenticated;

-- After a change of an inspection, action, site or template: which event it is, if any.
create or replace function private.webhook_event_of_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  entity text := tg_argv[0];
  event_type text;
begin
  if tg_op = 'INSERT' then
    event_type := entity || '.created';
  elsif entity = 'inspection' then
    if new.status is distinct from old.status then
      event_type := case
        when new.status = 'in_progress' and old.started_at is null then 'inspection.started'
        when new.status in ('submitted', 'approved', 'changes_requested', 'canceled') then 'inspection.' || new.status
      end;
    end if;
  elsif entity = 'action' then
    if new.status is distinct from old.status then
      event_type := case when new.status = 'open' then 'action.reopened' else 'action.' || new.status end;
    end if;
  elsif entity = 'site' then
    if new.archived_at is not null and old.archived_at is null then
      event_type := 'site.archived';
    elsif to_jsonb(new) - 'updated_at' <> to_jsonb(old) - 'updated_at' then
      event_type := 'site.updated';
    end if;
  elsif entity = 'template' then
    if new.status = 'archived' and old.status <> 'archived' then
      event_type := 'template.archived';
    elsif new.latest_version is distinct from old.latest_version then
      event_type := 'template.published';
    elsif to_jsonb(new) - 'updated_at' <> to_jsonb(old) - 'updated_at' then
      event_type := 'template.updated';
    end if;
  end if;
  if event_type is not null then
    perform private.enqueue_webhook_event(new.org_id, event_type, entity, to_jsonb(new) - 'version' - 'transition_note');
  end if;
  return null;
end;
$$;

revoke all on function private.webhook_event_of_change() from public, anon, authenticated;

-- Inspections and actions are events only when made or moved: the score an answer save writes to
-- its inspection, on the hot path of filling one in, does not even call the function.
create trigger inspections_enqueue_webhook_event
  after insert on public.inspections
  for each row execute function private.webhook_event_of_change('inspection');
create trigger inspections_enqueue_webhook_event_on_move
  after update of status on public.inspections
  for each row when (old.status is distinct from new.status)
  execute function private.webhook_event_of_change('inspection');
create trigger actions_enqueue_webhook_event
  after insert on public.actions
  for each row execute function private.webhook_event_of_change('action');
create trigger actions_enqueue_webhook_event_on_move
  after update of status on public.actions
  for each row when (old.status is distinct from new.status)
  execute function private.webhook_event_of_change('action');
create trigger sites_enqueue_webhook_event
  after insert or update on public.sites
  for each row execute function private.webhook_event_of_change('site');
create trigger templates_enqueue_webhook_event
  after insert or update on public.templates
  for each row execute function private.webhook_event_of_change('template');

-- The worker's claim: up to `max` due deliveries, each the earliest pending one of its entity for
-- its endpoint (so one entity's events arrive in order), locked for `lease`. SKIP LOCKED lets
-- several workers claim side by side without taking the same delivery.
create or replace function private.claim_webhook_deliveries(max integer default 20, lease interval default '1 minute')
returns table (delivery_id uuid, endpoint_id uuid, url text, secret text, event_id uuid, event_type text,
               payload jsonb, attempt integer)
language sql
volatile
security definer
set search_path = ''
as $$
  with due as (
    select d.id
    from public.webhook_deliveries d
    where d.status = 'pending' and d.next_attempt_at <= now()
      and (d.locked_until is null or d.locked_until < now())
      and not exists (
        select 1 from public.webhook_deliveries earlier
        where earlier.endpoint_id = d.endpoint_id and earlier.entity_id = d.entity_id and earlier.status = 'pending'
          and (earlier.seq, earlier.created_at, earlier.id) < (d.seq, d.created_at, d.id)
      )
    order by d.next_attempt_at, d.seq
    limit max
    for update of d skip locked
  ), claimed as (
    update public.webhook_deliveries d set locked_until = now() + lease
    from due where d.id = due.id
    returning d.id, d.endpoint_id, d.event_id, d.attempts
  )
  select c.id, c.endpoint_id, e.url, e.secret, ev.id, ev.type, ev.payload, c.attempts + 1
  from claimed c
  join public.webhook_endpoints e on e.id = c.endpoint_id
  join public.webhook_events ev on ev.id = c.event_id;
$$;

revoke all on function private.claim_webhook_deliveries(integer, interval) from public, anon, authenticated;
grant execute on function private.claim_webhook_deliveries(integer, interval) to service_role;

-- The wait after the n-th failed attempt (PRODUCT.md §9: about 8 attempts over ~3 days).
create or replace function private.webhook_retry_delay(failed_attempts integer)
returns interval
language sql
immutable
set search_path = ''
as $$
  select (array['10 seconds', '1 minute', '10 minutes', '1 hour', '6 hours', '24 hours', '48 hours']::interval[])[failed_attempts];
$$;

-- Records one attempt of a claimed delivery: a 2xx delivers it; anything else schedules the next
-- attempt, and the eighth failure makes it dead.
create or replace function private.record_webhook_attempt(delivery uuid, status_code integer, duration_ms integer,
                                                          response_body text, error text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  ok boolean := status_code between 200 and 299;
  delay interval;
begin
  select * into d from public.webhook_deliveries w where w.id = delivery for update;
  if not found then
    return null;
  end if;
  insert into public.webhook_attempts (delivery_id, org_id, status_code, duration_ms, response_body, error)
  values (delivery, d.org_id, status_code, duration_ms, left(response_body, 2048), left(error, 2048));
  delay := private.webhook_retry_delay(d.attempts + 1);
  update public.webhook_deliveries w
  set attempts = d.attempts + 1,
      last_status_code = record_webhook_attempt.status_code,
      last_error = left(record_webhook_attempt.error, 2048),
      locked_until = null,
      status = case when ok then 'succeeded' when delay is null then 'dead' else 'pending' end,
      delivered_at = case when ok then now() end,
      next_attempt_at = case when ok or delay is null then w.next_attempt_at else now() + delay end
  where w.id = delivery;
  return case when ok then 'succeeded' when delay is null then 'dead' else 'pending' end;
end;
$$;

revoke all on function private.record_webhook_attempt(uuid, integer, integer, text, text) from public, anon, authenticated;
grant execute on function private.record_webhook_attempt(uuid, integer, integer, text, text) to service_role;

-- "Redeliver": the same event to the same endpoint again, as a new delivery (the old one and its
-- attempts stay in the log). Owners and admins only, in their organization.
create or replace function private.redeliver_webhook(delivery uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  created uuid;
begin
  select * into d from public.webhook_deliveries w where w.id = delivery;
  if not found or private.current_org_role(d.org_id) is null then
    raise exception 'not_found' using detail = json_build_object('thing', 'delivery')::text;
  end if;
  if private.current_org_role(d.org_id) not in ('owner', 'admin') then
    raise exception 'forbidden';
  end if;
  insert into public.webhook_deliveries (org_id, endpoint_id, event_id, seq, entity_id)
  values (d.org_id, d.endpoint_id, d.event_id, d.seq, d.entity_id)
  returning id into created;
  return created;
end;
$$;

revoke all on function private.redeliver_webhook(uuid) from public, anon;
grant execute on function private.redeliver_webhook(uuid) to authenticated, service_role;

-- "Send test event": a webhook.test event to one endpoint (enabled or not: trying a disabled
-- endpoint before switching it on is the point). Owners and admins only.
create or replace function private.send_test_webhook(endpoint uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  e public.webhook_endpoints;
  event_id uuid;
  event_seq bigint;
begin
  select * into e from public.webhook_endpoints w where w.id = endpoint;
  if not found or private.current_org_role(e.org_id) is null then
    raise exception 'not_found' using detail = json_build_object('thing', 'webhook endpoint')::text;
  end if;
  if private.current_org_role(e.org_id) not in ('owner', 'admin') then
    raise exception 'forbidden';
  end if;
  insert into public.webhook_events (org_id, type, entity, entity_id, payload)
  values (e.org_id, 'webhook.test', 'webhook_endpoint', e.id,
          jsonb_build_object('type', 'webhook.test', 'timestamp', to_jsonb(now()),
                             'data', jsonb_build_object('endpoint_id', e.id, 'message', 'A test event from Fieldcheck.')))
  returning id, seq into event_id, event_seq;
  insert into public.webhook_deliveries (org_id, endpoint_id, event_id, seq, entity_id)
  values (e.org_id, e.id, event_id, event_seq, e.id);
  return event_id;
end;
$$;

revoke all on function private.send_test_webhook(uuid) from public, anon;
grant execute on function private.send_test_webhook(uuid) to authenticated, service_role;
