// Per-IP request limits kept in memory, as GoTrue's [auth.rate_limit] settings describe them.
import { errors, type AuthError } from './errors.ts';

export type LimitBucket = 'signInSignUps' | 'tokenVerifications' | 'tokenRefresh' | 'emailSent';

const FIVE_MINUTES = 5 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;

const WINDOWS: Record<LimitBucket, number> = {
  signInSignUps: FIVE_MINUTES,
  tokenVerifications: FIVE_MINUTES,
  tokenRefresh: FIVE_MINUTES,
  emailSent: ONE_HOUR,
};

export interface RateLimiter {
  /** Counts one request of `ip` in `bucket`; throws 429 once the window's allowance is spent. */
  hit(bucket: LimitBucket, ip: string): void;
}

export function createRateLimiter(limits: Record<LimitBucket, number>, now: () => number = Date.now): RateLimiter {
  // Sliding window: the timestamps of the requests still inside the window, per bucket and IP.
  const seen = new Map<string, number[]>();
  let lastSweep = now();

  function sweep(current: number): void {
    if (current - lastSweep < 60_000) return;
    lastSweep = current;
    for (const [key, stamps] of seen) {
      const bucket = key.slice(0, key.indexOf('|')) as LimitBucket;
      if (stamps.every((stamp) => current - stamp > WINDOWS[bucket])) seen.delete(key);
    }
  }

  return {
    hit(bucket, ip) {
      const current = now();
      sweep(current);
      const key = `${bucket}|${ip}`;
      const stamps = (seen.get(key) ?? []).filter((stamp) => current - stamp < WINDOWS[bucket]);
      if (stamps.length >= limits[bucket]) {
        seen.set(key, stamps);
        const retryAfter = Math.max(1, Math.ceil((stamps[0] + WINDOWS[bucket] - current) / 1000));
        const error: AuthError = bucket === 'emailSent' ? errors.emailRateLimited() : errors.rateLimited();
        error.headers = { 'Retry-After': String(retryAfter) };
        throw error;
      }
      stamps.push(current);
      seen.set(key, stamps);
    },
  };
}
