// Request rate limits (issue 13 part 2): a key gets bursts of 60 and 600 a minute, a signed-in
// user bursts of 300 and 1200 a minute (docs/api-keys.md); over the limit → 429 rate_limited
// with Retry-After and the RateLimit / RateLimit-Policy fields. The buckets live in Postgres, so
// every function instance draws from the same one; each caller has its own.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ApiOutcome, call, expectProblem } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { newUser, inspectionWorldAndStranger } from '../../support/fixtures.ts';
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

describe('a read refused by the rate limit', () => {
  // Issue 24, finding 2: the token used to be taken in the same message as the read's statements,
  // so a refused read still ran them. Proof that none runs now: the read's table is locked by the
  // test, so any statement of the route that touches it would wait on the lock (and show in
  // pg_locks); the refused read answers 429 at once and nothing waits, while an allowed read of
  // the same route does wait, which shows the lock would have caught it.
  it('runs none of its statements: a q= search over the limit never touches the table, and still gets Retry-After and the wording', async () => {
    const sql = db();
    const refusedKey = await createKey(world.owner, world.org.id, 'viewer');
    const allowedKey = await createKey(world.owner, world.org.id, 'viewer');
    // A term no other test searches for: the waiters counted below are this test's requests only,
    // not another file's statements on public.sites that the lock happens to hold up meanwhile.
    const term = `kitchen${randomUUID().replaceAll('-', '')}`;
    const search = `orgs/${world.org.id}/sites?q=${term}`;
    expect((await call(refusedKey.client, search)).status).toBe(200);
    // Empty the key's bucket and stop its refill for a minute (no burst of requests to race the refill).
    const emptied = await sql`
      update private.request_buckets set tokens = 0, refilled_at = clock_timestamp() + interval '1 minute'
      where bucket = ${`key:${refusedKey.id}`} returning bucket
    `;
    expect(emptied.length).toBe(1);
    const waitingOnSites = async () =>
      (await sql`
        select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.relation = 'public.sites'::regclass and not l.granted and a.query like ${`%${term}%`}
      `)[0].n as number;

    const lock = await sql.reserve();
    try {
      await lock`begin`;
      await lock`lock table public.sites in access exclusive mode`;
      const refused = await Promise.race([
        call(refusedKey.client, search),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000)),
      ]);
      expect(refused, 'the refused read waited on the locked table: its statements ran').toBeDefined();
      const problem = expectProblem(refused!, 429, 'rate_limited');
      const retryAfter = Number(refused!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(problem.title).toBe(`Too many requests. Try again in ${retryAfter} seconds.`);
      expect(refused!.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=\d+$/);
      expect(refused!.headers.get('ratelimit-policy')).toBe('"burst";q=60;w=6, "minute";q=600;w=60');
      expect(await waitingOnSites()).toBe(0);

      // The other side: an allowed read of the same route reaches the table and waits on the lock.
      const allowed = call(allowedKey.client, search);
      await expect.poll(waitingOnSites, { timeout: 5000 }).toBe(1);
      await lock`commit`;
      expect((await allowed).status).toBe(200);
    } finally {
      await lock`rollback`.catch(() => undefined);
      lock.release();
    }
    // Refused, the key's bucket was left as it was: still empty, its refill still ahead.
    const [bucket] = await sql`select tokens, refilled_at > clock_timestamp() as held from private.request_buckets where bucket = ${`key:${refusedKey.id}`}`;
    expect(bucket).toMatchObject({ tokens: 0, held: true });
  });
});
