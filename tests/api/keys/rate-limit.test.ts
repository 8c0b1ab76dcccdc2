// Request rate limits (issue 13 part 2): a key gets bursts of 60 and 600 a minute, a signed-in
// user bursts of 300 and 1200 a minute (docs/api-keys.md); over the limit → 429 rate_limited
// with Retry-After and the RateLimit / RateLimit-Policy fields. The buckets live in Postgres, so
// every function instance draws from the same one; each caller has its own.
import { describe, expect, it } from 'vitest';
import type { ApiOutcome } from '../../support/api.ts';
import { call, expectProblem, inspectionWorldAndStranger } from '../inspections/support.ts';
import { newUser } from '../orgs/support.ts';
import { createKey } from './support.ts';

const { world } = inspectionWorldAndStranger();

/** Sends GETs `parallel` at a time until one is refused or `max` were sent; the outcomes in order. */
async function untilRefused(send: () => Promise<ApiOutcome>, max: number, parallel = 20): Promise<ApiOutcome[]> {
  const outcomes: ApiOutcome[] = [];
  while (outcomes.length < max && !outcomes.some((o) => o.status === 429)) {
    outcomes.push(...(await Promise.all(Array.from({ length: parallel }, send))));
  }
  return outcomes;
}

describe('an API key', () => {
  it('makes a burst of 60, then gets 429 with Retry-After and the RateLimit fields; another key is not held back', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer');
    const other = await createKey(world.owner, world.org.id, 'viewer');
    const first = await call(key.client, `orgs/${world.org.id}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"burst";q=60;w=6, "minute";q=600;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"burst";r=59;t=\d+$/);

    const outcomes = await untilRefused(() => call(key.client, `orgs/${world.org.id}`), 200);
    const succeeded = outcomes.filter((o) => o.status === 200).length;
    // 60 in the bucket, one spent above, plus what refilled (10 a second) while these were sent.
    expect(succeeded).toBeGreaterThanOrEqual(59);
    const refused = outcomes.find((o) => o.status === 429)!;
    expect(refused, `no 429 after ${outcomes.length} requests`).toBeDefined();
    const problem = expectProblem(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(problem.title).toBe(`Too many requests. Try again in ${retryAfter} seconds.`);
    expect(refused.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"burst";q=60;w=6, "minute";q=600;w=60');

    expect((await call(other.client, `orgs/${world.org.id}`)).status).toBe(200);
    // After the wait it was told, the key works again.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await call(key.client, `orgs/${world.org.id}`)).status).toBe(200);
  });
});

describe('what counts', () => {
  // The token is taken with a one-round-trip read's own statements, or on the way out of a
  // request that never reached the database (supabase/functions/_shared/http.ts).
  it('a request refused as invalid (422) counts, and so does a read in one round trip: both meet the 429', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer');
    const bad = await untilRefused(() => call(key.client, `orgs/${world.org.id}/sites?limit=nope`), 200);
    expect(bad[0].status).toBe(422);
    expect(bad.filter((o) => o.status === 422).length).toBeGreaterThanOrEqual(59);
    expectProblem(bad.find((o) => o.status === 429)!, 429, 'rate_limited');

    const reader = await createKey(world.owner, world.org.id, 'viewer');
    const reads = await untilRefused(() => call(reader.client, `orgs/${world.org.id}/sites`), 200);
    expect(reads.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(59);
    expect(reads[0].headers.get('ratelimit')).toMatch(/^"burst";r=\d+;t=\d+$/);
    const refused = reads.find((o) => o.status === 429)!;
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('a signed-in user', () => {
  it('has a burst of 300 before a 429 (a screen and a replayed offline queue fit; a script does not)', async () => {
    const user = await newUser('limited', 'Lee Limited');
    const first = await call(user.client, 'me');
    expect(first.headers.get('ratelimit-policy')).toBe('"burst";q=300;w=15, "minute";q=1200;w=60');
    const outcomes = await untilRefused(() => call(user.client, 'me'), 600, 30);
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(299);
    expectProblem(outcomes.find((o) => o.status === 429)!, 429, 'rate_limited');
  });
});
