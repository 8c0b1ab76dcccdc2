-- Idempotency keys (PRODUCT.md §7, §9): a POST sent with `Idempotency-Key` is stored with a hash
-- of the request and the response, for 24 hours, so a retry gets the first response instead of
-- doing the work twice, and the same key with a different request is refused.

create table public.idempotency_keys (
  -- The user (or, later, API key) that sent the request: keys are private to their sender.
  principal_id uuid not null default auth.uid(),
  key text not null
    constraint idempotency_keys_key_check check (char_length(key) between 1 and 255),
  -- SHA-256 of method, path and body: what "the same request" means.
  request_hash text not null,
  response_status integer,
  response_body jsonb,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '24 hours',
  primary key (principal_id, key)
);

comment on table public.idempotency_keys is 'Stored responses of POSTs sent with an Idempotency-Key, per sender, for 24 hours.';

-- Purging a sender's expired keys.
create index idempotency_keys_principal_id_expires_at_idx on public.idempotency_keys (principal_id, expires_at);

alter table public.idempotency_keys enable row level security;

create policy "Senders can read their own idempotency keys"
  on public.idempotency_keys
  for select
  to authenticated
  using (principal_id = (select auth.uid()));

create policy "Senders can store their own idempotency keys"
  on public.idempotency_keys
  for insert
  to authenticated
  with check (principal_id = (select auth.uid()));

create policy "Senders can record the response of their own idempotency keys"
  on public.idempotency_keys
  for update
  to authenticated
  using (principal_id = (select auth.uid()))
  with check (principal_id = (select auth.uid()));

create policy "Senders can purge their own idempotency keys"
  on public.idempotency_keys
  for delete
  to authenticated
  using (principal_id = (select auth.uid()));

revoke all on table public.idempotency_keys from anon, authenticated;
grant select, delete on table public.idempotency_keys to authenticated;
grant insert (principal_id, key, request_hash) on table public.idempotency_keys to authenticated;
grant update (response_status, response_body) on table public.idempotency_keys to authenticated;
grant all on table public.idempotency_keys to service_role;
