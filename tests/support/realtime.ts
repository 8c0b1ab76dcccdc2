// Realtime channels for any test: subscribing and learning how the join ended, and polling until
// an event has arrived. The product's live tests (tests/api) and the emulated Realtime's own tests
// (tests/stack/realtime, whose support.ts adds clients, tokens and raw sockets) share them.
import type { RealtimeChannel } from '@supabase/supabase-js';

export interface SubscribeOutcome {
  status: string;
  error?: Error;
}

/** Subscribes and resolves with the first outcome: SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT or CLOSED. */
export function subscribe(channel: RealtimeChannel): Promise<SubscribeOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    channel.subscribe((status, error) => {
      if (settled) return;
      settled = true;
      resolve({ status, error });
    });
  });
}

/** Subscribes and fails the test unless the channel is joined. */
export async function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  const outcome = await subscribe(channel);
  if (outcome.status !== 'SUBSCRIBED') throw new Error(`Expected SUBSCRIBED, got ${outcome.status}: ${outcome.error?.message}`);
  return channel;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` is true; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Polls `find` until it returns something (an event, a presence state) and returns that; fails with `what` after `timeoutMs`. */
export async function waitForValue<T>(what: string, find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  let found: T | undefined;
  await waitFor(what, () => (found = find()) !== undefined, timeoutMs);
  return found as T;
}
