// Request rate limits (docs/product.md §9, docs/api-keys.md): one token bucket per caller in Postgres
// (private.take_request_token), shared by every instance of the function. Taken in a statement of
// its own before the request runs, so requests that fail or roll back count too; or, for a
// one-round-trip read, by a statement at the head of its message that stops the message when no
// token is left (private.take_request_token_or_stop), so a refused read runs none of its statements.
import type { Principal } from './auth.ts';
import { database, type Sql } from './db.ts';
import { ApiError } from './errors.ts';
import { inline, type InlineSql } from './sql-literal.ts';

export interface RateLimitPolicy {
  /** Bucket size: how many requests may come at once. */
  burst: number;
  /** Sustained rate. */
  perMinute: number;
}

/** docs/product.md §9: an API key makes 600 requests a minute, 60 at once. */
export const API_KEY_RATE_LIMIT: RateLimitPolicy = { burst: 60, perMinute: 600 };
/**
 * A person in the web app (decided in docs/api-keys.md): twice a key's rate and a larger burst,
 * because opening a screen fires several requests together and a phone coming back online
 * replays its queue of saves at once. Far above what a person clicks; it stops a script.
 */
export const USER_RATE_LIMIT: RateLimitPolicy = { burst: 300, perMinute: 1200 };

export interface RateLimiter {
  /** Takes one request from the caller's bucket: the RateLimit headers, or throws 429 carrying them. */
  take(principal: Principal): Promise<Record<string, string>>;
  /**
   * The statement that takes the token, to send ahead of a one-round-trip read (db.ts,
   * runAsCallerWith): it raises when no token is left, which stops the message there, so none of
   * the read's statements runs. `settle` reads its rows (the headers); `refusal` its error.
   */
  statement(principal: Principal): InlineSql;
  settle(principal: Principal, rows: readonly Record<string, unknown>[]): Record<string, string>;
  /** The 429 carrying the headers when `error` is the statement's refusal; otherwise undefined. */
  refusal(principal: Principal, error: unknown): ApiError | undefined;
}

/** The SQLSTATE of private.take_request_token_or_stop's refusal. */
const RATE_LIMITED_SQLSTATE = 'FC429';

interface Taken {
  allowed: boolean;
  remaining: number;
  retry_after_s: number;
  full_in_s: number;
}

/**
 * The RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers): the bucket as
 * a quota of `burst` per the seconds it takes to refill, and the minute rate beside it.
 */
function rateLimitHeaders(policy: RateLimitPolicy, taken: Pick<Taken, 'remaining' | 'full_in_s'>): Record<string, string> {
  const refillSeconds = Math.round((policy.burst * 60) / policy.perMinute);
  return {
    'ratelimit-policy': `"burst";q=${policy.burst};w=${refillSeconds}, "minute";q=${policy.perMinute};w=60`,
    ratelimit: `"burst";r=${taken.remaining};t=${taken.full_in_s}`,
  };
}

function policyOf(principal: Principal): { bucket: string; policy: RateLimitPolicy } {
  return principal.kind === 'api_key'
    ? { bucket: `key:${principal.keyId}`, policy: API_KEY_RATE_LIMIT }
    : { bucket: `user:${principal.userId}`, policy: USER_RATE_LIMIT };
}

export function createRateLimiter(sql: () => Sql): RateLimiter {
  const limiter: RateLimiter = {
    // Literals rather than bind parameters: one round trip instead of two (sql-literal.ts).
    statement(principal) {
      const { bucket, policy } = policyOf(principal);
      return inline`select allowed, remaining, retry_after_s, full_in_s from private.take_request_token_or_stop(${bucket}, ${policy.burst}, ${
        policy.perMinute / 60
      })`;
    },
    refusal(principal, error) {
      const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
      if (code !== RATE_LIMITED_SQLSTATE || typeof detail !== 'string') return undefined;
      const taken = JSON.parse(detail) as Pick<Taken, 'remaining' | 'retry_after_s' | 'full_in_s'>;
      return ApiError.rateLimited(taken.retry_after_s, rateLimitHeaders(policyOf(principal).policy, taken));
    },
    settle(principal, rows) {
      const { policy } = policyOf(principal);
      const taken = rows[0] as unknown as Taken;
      const headers = rateLimitHeaders(policy, taken);
      if (!taken.allowed) throw ApiError.rateLimited(taken.retry_after_s, headers);
      return headers;
    },
    async take(principal) {
      let rows: Record<string, unknown>[];
      try {
        rows = await sql().unsafe(limiter.statement(principal).text);
      } catch (error) {
        throw limiter.refusal(principal, error) ?? error;
      }
      return limiter.settle(principal, rows);
    },
  };
  return limiter;
}

let projectLimiter: RateLimiter | undefined;

/** The rate limiter of a deployed function: buckets in the project's database. */
export function projectRateLimiter(): RateLimiter {
  projectLimiter ??= createRateLimiter(database);
  return projectLimiter;
}
