// The local stack's scheduler: what pg_cron + pg_net do on Supabase for this project (docs/webhooks.md),
// waking the webhook delivery worker every second with the service-role key. One wake at a time:
// the next waits until the last has answered.
import type { StackConfig } from './config.ts';

export const WAKE_EVERY_MS = 1000;

export function startScheduler(config: StackConfig, log: (line: string) => void): () => Promise<void> {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastFailure = '';

  const wake = async () => {
    try {
      const response = await fetch(`${config.apiUrl}/functions/v1/webhook-deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.serviceRoleKey}` },
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      const failure = response.ok ? '' : `answered ${response.status}`;
      if (failure && failure !== lastFailure) log(`[scheduler] webhook-deliveries ${failure}`);
      lastFailure = failure;
    } catch (error) {
      const failure = (error as Error).message;
      if (failure !== lastFailure && !stopped) log(`[scheduler] webhook-deliveries: ${failure}`);
      lastFailure = failure;
    }
  };
  const tick = () => {
    running = wake().finally(() => {
      if (!stopped) timer = setTimeout(tick, WAKE_EVERY_MS);
    });
  };
  timer = setTimeout(tick, WAKE_EVERY_MS);

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
