// The local stack's scheduler: what pg_cron (+ pg_net) do on Supabase for this project. It wakes the
// webhook delivery worker every second with the service-role key (docs/webhooks.md), runs the
// schedules' background run every 5 minutes, and once soon after start, as `postgres`, the role
// pg_cron runs it as on hosted (private.run_schedules: make the next 14 days' occurrences, announce
// missed ones, write the reminder emails due; docs/schedules.md), and wakes the reminder mail
// worker every minute and right after each schedules run, so a reminder written goes out at once.
// One wake or run of each at a time: the next waits until the last has finished.
import postgres from 'postgres';
import type { StackConfig } from './config.ts';

export const WAKE_EVERY_MS = 1000;
export const SCHEDULES_EVERY_MS = 5 * 60_000;
/** The first schedules run, a moment after start: a stack that was stopped catches up at once. */
export const SCHEDULES_FIRST_AFTER_MS = 2000;
/** The reminder mail worker: failed sends are retried a minute later at the soonest. */
export const REMINDERS_EVERY_MS = 60_000;

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
  const lastFailure = { webhooks: '', schedules: '', reminders: '' };
  const report = (job: keyof typeof lastFailure, failure: string, stopped: boolean) => {
    if (failure && failure !== lastFailure[job] && !stopped) log(`[scheduler] ${job}: ${failure}`);
    lastFailure[job] = failure;
  };

  /** POSTs to a worker function with the service-role key, as pg_net does on hosted. */
  const wake = async (job: 'webhooks' | 'reminders', fn: string, stopped: () => boolean) => {
    try {
      const response = await fetch(`${config.apiUrl}/functions/v1/${fn}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.serviceRoleKey}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      report(job, response.ok ? '' : `${fn} answered ${response.status}`, stopped());
    } catch (error) {
      report(job, `${fn}: ${(error as Error).message}`, stopped());
    }
  };

  const webhooks = repeat(WAKE_EVERY_MS, WAKE_EVERY_MS, () => wake('webhooks', 'webhook-deliveries', () => webhooks.stopped));
  // One wake at a time: a wake asked for while one runs is made once it has finished.
  let remindersRunning: Promise<void> | undefined;
  let remindersAgain = false;
  const wakeReminders = async (): Promise<void> => {
    if (remindersRunning) {
      remindersAgain = true;
      return await remindersRunning;
    }
    remindersRunning = (async () => {
      do {
        remindersAgain = false;
        await wake('reminders', 'reminder-mails', () => reminders.stopped);
      } while (remindersAgain && !reminders.stopped);
    })().finally(() => (remindersRunning = undefined));
    return await remindersRunning;
  };
  const reminders = repeat(REMINDERS_EVERY_MS, REMINDERS_EVERY_MS, wakeReminders);

  const sql = postgres(config.dbUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'local-stack-scheduler' } });
  const schedules = repeat(SCHEDULES_FIRST_AFTER_MS, SCHEDULES_EVERY_MS, async () => {
    try {
      await sql`select private.run_schedules()`;
      report('schedules', '', schedules.stopped);
      if (!schedules.stopped) void wakeReminders();
    } catch (error) {
      report('schedules', `private.run_schedules(): ${(error as Error).message}`, schedules.stopped);
    }
  });

  return async () => {
    await Promise.all([webhooks.stop(), schedules.stop(), reminders.stop()]);
    await remindersRunning;
    await sql.end({ timeout: 2 });
  };
}
