// The local stack's scheduler: what pg_cron (+ pg_net) do on Supabase for this project. It wakes the
// webhook delivery worker every second with the service-role key (docs/webhooks.md), and runs the
// schedules' background run every 5 minutes, and once soon after start, as `postgres`, the role
// pg_cron runs it as on hosted (private.run_schedules: make the next 14 days' occurrences, announce
// missed ones; docs/schedules.md). One wake or run of each at a time: the next waits until the last
// has finished.
import postgres from 'postgres';
import type { StackConfig } from './config.ts';

export const WAKE_EVERY_MS = 1000;
export const SCHEDULES_EVERY_MS = 5 * 60_000;
/** The first schedules run, a moment after start: a stack that was stopped catches up at once. */
export const SCHEDULES_FIRST_AFTER_MS = 2000;

/** Runs `job` after `firstAfterMs`, then `everyMs` after each run ends, until stopped. */
function repeat(firstAfterMs: number, everyMs: number, job: () => Promise<void>) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = job().finally(() => {
      if (!stopped) timer = setTimeout(tick, everyMs);
    });
  };
  timer = setTimeout(tick, firstAfterMs);
  return {
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export function startScheduler(config: StackConfig, log: (line: string) => void): () => Promise<void> {
  const lastFailure = { webhooks: '', schedules: '' };
  const report = (job: keyof typeof lastFailure, failure: string, stopped: boolean) => {
    if (failure && failure !== lastFailure[job] && !stopped) log(`[scheduler] ${job}: ${failure}`);
    lastFailure[job] = failure;
  };

  const webhooks = repeat(WAKE_EVERY_MS, WAKE_EVERY_MS, async () => {
    try {
      const response = await fetch(`${config.apiUrl}/functions/v1/webhook-deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.serviceRoleKey}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      report('webhooks', response.ok ? '' : `webhook-deliveries answered ${response.status}`, webhooks.stopped);
    } catch (error) {
      report('webhooks', `webhook-deliveries: ${(error as Error).message}`, webhooks.stopped);
    }
  });

  const sql = postgres(config.dbUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'local-stack-scheduler' } });
  const schedules = repeat(SCHEDULES_FIRST_AFTER_MS, SCHEDULES_EVERY_MS, async () => {
    try {
      await sql`select private.run_schedules()`;
      report('schedules', '', schedules.stopped);
    } catch (error) {
      report('schedules', `private.run_schedules(): ${(error as Error).message}`, schedules.stopped);
    }
  });

  return async () => {
    await Promise.all([webhooks.stop(), schedules.stop()]);
    await sql.end({ timeout: 2 });
  };
}
