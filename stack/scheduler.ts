// The local stack's scheduler: what pg_cron (+ pg_net) do on Supabase for this project. It wakes the
// webhook delivery worker every second with the service-role key (docs/webhooks.md), runs the
// schedules' background run every 5 minutes, and once soon after start, as `postgres`, the role
// pg_cron runs it as on hosted (private.run_schedules: make the next 14 days' occurrences, announce
// missed ones, write the reminder emails due; docs/schedules.md), and wakes the reminder mail
// worker every minute and right after each schedules run, so a reminder written goes out at once.
// One wake or run of each at a time: the next waits until the last has finished.
import postgres from 'postgres';
import type { StackConfig } from './config.ts';

const WAKE_EVERY_MS = 1000;
const SCHEDULES_EVERY_MS = 5 * 60_000;
/** The first schedules run, a moment after start: a stack that was stopped catches up at once. */
const SCHEDULES_FIRST_AFTER_MS = 2000;
/** The reminder mail worker: failed sends are retried a minute later at the soonest. */
const REMINDERS_EVERY_MS = 60_000;

/** Which jobs run (none unless asked): npm start runs all three, tests/run.ts only the webhook wakes. */
export interface SchedulerJobs {
  webhooks?: boolean;
  schedules?: boolean;
  reminders?: boolean;
}

const ALL_JOBS: Required<SchedulerJobs> = { webhooks: true, schedules: true, reminders: true };

export function startScheduler(config: StackConfig, log: (line: string) => void, jobs: SchedulerJobs = ALL_JOBS): () => Promise<void> {
  /** Set by stop(): no job starts again, and failures met while stopping are not logged. */
  let stopping = false;
  const lastFailure = { webhooks: '', schedules: '', reminders: '' };
  const report = (job: keyof typeof lastFailure, failure: string) => {
    if (failure && failure !== lastFailure[job] && !stopping) log(`[scheduler] ${job}: ${failure}`);
    lastFailure[job] = failure;
  };

  /**
   * Runs `job` after `firstAfterMs`, then `everyMs` after each run ends, until stopped. now() runs
   * it at once or, while a run is under way, once more as soon as that one ends: one at a time.
   */
  const repeat = (firstAfterMs: number, everyMs: number, job: () => Promise<void>) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running: Promise<void> | undefined;
    let again = false;
    const tick = () => {
      again = false;
      running = job().finally(() => {
        running = undefined;
        if (stopping) return;
        if (again) tick();
        else timer = setTimeout(tick, everyMs);
      });
    };
    timer = setTimeout(tick, firstAfterMs);
    return {
      now() {
        if (stopping) return;
        if (running) {
          again = true;
        } else {
          clearTimeout(timer);
          tick();
        }
      },
      async stop() {
        clearTimeout(timer);
        await running;
      },
    };
  };

  /** POSTs to a worker function with the service-role key, as pg_net does on hosted. */
  const wake = async (job: 'webhooks' | 'reminders', fn: string) => {
    try {
      const response = await fetch(`${config.apiUrl}/functions/v1/${fn}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.serviceRoleKey}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      report(job, response.ok ? '' : `${fn} answered ${response.status}`);
    } catch (error) {
      report(job, `${fn}: ${(error as Error).message}`);
    }
  };

  const repeating: Array<ReturnType<typeof repeat>> = [];
  const closing: Array<() => Promise<void>> = [];
  if (jobs.webhooks) repeating.push(repeat(WAKE_EVERY_MS, WAKE_EVERY_MS, () => wake('webhooks', 'webhook-deliveries')));
  const reminders = jobs.reminders ? repeat(REMINDERS_EVERY_MS, REMINDERS_EVERY_MS, () => wake('reminders', 'reminder-mails')) : undefined;
  if (reminders) repeating.push(reminders);
  if (jobs.schedules) {
    const sql = postgres(config.dbUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'local-stack-scheduler' } });
    closing.push(() => sql.end({ timeout: 2 }));
    repeating.push(
      repeat(SCHEDULES_FIRST_AFTER_MS, SCHEDULES_EVERY_MS, async () => {
        try {
          await sql`select private.run_schedules()`;
          report('schedules', '');
          // The reminders the run wrote go out now, not at the worker's next minute.
          reminders?.now();
        } catch (error) {
          report('schedules', `private.run_schedules(): ${(error as Error).message}`);
        }
      }),
    );
  }

  return async () => {
    stopping = true;
    await Promise.all(repeating.map((job) => job.stop()));
    for (const close of closing) await close();
  };
}
