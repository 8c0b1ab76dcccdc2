-- On hosted Supabase, pg_cron wakes the webhook delivery worker every 5 seconds through pg_net
-- (docs/webhooks.md, "Deploying"). The project's URL and the key the worker accepts are read from
-- Vault (`project_url`, `webhook_worker_key`), set once per project; until they are, a wake does
-- nothing. Where pg_cron is not offered (the local stack, whose own scheduler wakes the worker
-- every second), this migration schedules nothing.

create or replace function private.wake_webhook_deliveries()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  project_url text;
  worker_key text;
begin
  -- Nothing due: no request at all.
  if not exists (select 1 from public.webhook_deliveries d where d.status = 'pending' and d.next_attempt_at <= now()) then
    return null;
  end if;
  select s.decrypted_secret into project_url from vault.decrypted_secrets s where s.name = 'project_url';
  select s.decrypted_secret into worker_key from vault.decrypted_secrets s where s.name = 'webhook_worker_key';
  if project_url is null or worker_key is null then
    return null;
  end if;
  return net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/webhook-deliveries',
    headers := jsonb_build_object('authorization', 'Bearer ' || worker_key),
    timeout_milliseconds := 60000
  );
end;
$$;

comment on function private.wake_webhook_deliveries() is
  'pg_cron job: POSTs to the webhook-deliveries function when a delivery is due (URL and key from Vault).';

revoke all on function private.wake_webhook_deliveries() from public, anon, authenticated;

-- pg_cron and pg_net are offered on hosted Supabase and not in the local stack's Postgres. Should
-- enabling them fail anyway (pg_cron not preloaded), the migration goes on and says why: the
-- worker can then be woken from outside until the project is set up (docs/webhooks.md).
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net') then
    begin
      create extension if not exists pg_net with schema extensions;
      create extension if not exists pg_cron with schema pg_catalog;
      perform cron.schedule('fieldcheck-webhook-deliveries', '5 seconds', 'select private.wake_webhook_deliveries()');
    exception when others then
      raise warning 'webhook deliveries are not scheduled: %', sqlerrm;
    end;
  end if;
end;
$$;
