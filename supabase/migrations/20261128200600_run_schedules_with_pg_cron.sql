-- On hosted Supabase, pg_cron runs the schedules' background run every 5 minutes
-- (private.run_schedules: make the next 14 days' occurrences, announce missed ones; docs/schedules.md).
-- It is SQL alone, so unlike the webhook worker (migration 20261125100700) it needs no pg_net, no
-- URL and no key. Where pg_cron is not offered (the local stack, whose stack/scheduler.ts runs the
-- same function every 5 minutes), this migration schedules nothing; where enabling it fails, it
-- warns and goes on, so a deploy never stops on it.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
      perform cron.schedule('fieldcheck-schedules', '*/5 * * * *', 'select private.run_schedules()');
    exception when others then
      raise warning 'the schedules'' background run is not scheduled: %', sqlerrm;
    end;
  end if;
end;
$$;
