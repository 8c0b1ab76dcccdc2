// Webhooks end to end through the real stack (issue 13 part 3): endpoints made through the api,
// events written with the change, delivered by the real worker (woken by the local scheduler) to
// a receiver started here on loopback, signed (verified with the standardwebhooks library), in
// order per entity, retried after a failure, redelivered on request; a rolled-back change sends
// nothing; addresses that webhooks never go to are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, del, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { stack } from '../../support/stack.ts';
import { createKey } from '../keys/support.ts';
import { eventually, type Receiver, startReceiver, verified } from './support.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../supabase/functions/_shared/schemas/webhooks.ts';

const { world } = inspectionWorldAndStranger();
const webhooksPath = () => `orgs/${world.org.id}/webhooks`;
let receiver: Receiver;
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  receiver = await startReceiver();
  endpoint = expectStatus(await post(world.admin.client, webhooksPath(), { url: receiver.url, event_types: ['site.created', 'site.updated', 'site.archived', 'webhook.test'] }), 201);
});
afterAll(async () => {
  await receiver?.close();
});

const deliveriesOfSite = (siteId: string) => receiver.received.filter((r) => r.json.data?.id === siteId);

describe('endpoints', () => {
  it('an admin adds one and gets its Standard Webhooks secret once; it lists without the secret', async () => {
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = expectStatus(await call(world.admin.client, webhooksPath()), 200);
    expect(list.data.find((e: any) => e.id === endpoint.id)).toMatchObject({ url: receiver.url, enabled: true });
    expect(JSON.stringify(list)).not.toContain(endpoint.secret);
  });

  it('managers and keys may not manage them; bad URLs and unknown events are 422s on their field', async () => {
    expectProblem(await post(world.manager.client, webhooksPath(), { url: receiver.url }), 403, 'forbidden');
    const key = await createKey(world.owner, world.org.id, 'manager');
    expectProblem(await call(key.client, webhooksPath()), 403, 'forbidden');
    expectProblem(await post(world.admin.client, webhooksPath(), { url: 'ftp://example.com/x' }), 422, 'validation_failed', ['url']);
    expectProblem(await post(world.admin.client, webhooksPath(), { url: receiver.url, event_types: ['site.exploded'] }), 422, 'validation_failed', ['event_types.0']);
    const metadata = expectProblem(await post(world.admin.client, webhooksPath(), { url: 'http://169.254.169.254/latest/meta-data' }), 422, 'validation_failed', ['url']);
    expect(metadata.errors[0].message).toMatch(/metadata/);
    expectProblem(await post(world.admin.client, webhooksPath(), { url: 'http://admin:pw@127.0.0.1:9/x' }), 422, 'validation_failed', ['url']);
  });

  it('every event type is accepted: an endpoint subscribes to all of them, and the outbox stores an event of each', async () => {
    // The api's list (zod) and the database's (private.webhook_event_types(), the check constraints
    // of webhook_endpoints and webhook_events) must both take each type: a type added on one side
    // only would be refused at subscription or when the event is written.
    const all = expectStatus(await post(world.admin.client, webhooksPath(), { url: receiver.url, event_types: [...WEBHOOK_EVENT_TYPES], enabled: false }), 201);
    expect(all.event_types).toEqual([...WEBHOOK_EVENT_TYPES]);
    const stored: string[] = [];
    const lookOnly = new Error('rolled back: the events are only looked at, never delivered');
    await expect(db().begin(async (sql) => {
      for (const type of WEBHOOK_EVENT_TYPES) {
        const [row] = await sql`
          insert into public.webhook_events (org_id, type, entity, entity_id, payload)
          values (${world.org.id}, ${type}, 'test', gen_random_uuid(), '{}') returning type`;
        stored.push(row.type);
      }
      throw lookOnly;
    })).rejects.toBe(lookOnly);
    expect(stored).toEqual([...WEBHOOK_EVENT_TYPES]);
    expectStatus(await del(world.admin.client, `${webhooksPath()}/${all.id}`), 204);
  });
});

describe('deliveries', () => {
  it('a site made, renamed and archived arrives signed, in order, with the event id as webhook-id', async () => {
    const site = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: 'Hooked depot' }), 201);
    expectStatus(await patch(world.manager.client, `orgs/${world.org.id}/sites/${site.id}`, { name: 'Hooked depot 2' }), 200);
    expectStatus(await del(world.manager.client, `orgs/${world.org.id}/sites/${site.id}`), 200);
    await eventually(() => deliveriesOfSite(site.id).length >= 3);
    const payloads = deliveriesOfSite(site.id).map((delivery) => verified(endpoint.secret, delivery) as any);
    expect(payloads.map((p) => p.type)).toEqual(['site.created', 'site.updated', 'site.archived']);
    expect(payloads[1].data.name).toBe('Hooked depot 2');
    for (const delivery of deliveriesOfSite(site.id)) expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
    // A tampered body fails the same library's check.
    const tampered = { ...deliveriesOfSite(site.id)[0], body: deliveriesOfSite(site.id)[0].body.replace('Hooked', 'Hacked') };
    expect(() => verified(endpoint.secret, tampered)).toThrow();
  });

  it('a failing receiver is retried (about 10 s later) and then delivered; the log shows both attempts', async () => {
    receiver.answerWith(503);
    const site = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: 'Flaky depot' }), 201);
    const [delivery] = await eventually(async () => {
      const rows = await db()`
        select d.id, d.attempts, d.next_attempt_at, d.status from public.webhook_deliveries d
        join public.webhook_events e on e.id = d.event_id where e.entity_id = ${site.id} and d.endpoint_id = ${endpoint.id}`;
      return rows.length === 1 && rows[0].attempts === 1 ? rows : null;
    }) as any[];
    expect(delivery.status).toBe('pending');
    expect(new Date(delivery.next_attempt_at).getTime() - Date.now()).toBeGreaterThan(5_000);
    receiver.answerWith(200);
    // Ten seconds pass (the retry schedule is the database's; the test moves the clock of this one row).
    await db()`update public.webhook_deliveries set next_attempt_at = now() where id = ${delivery.id}`;
    await eventually(async () => (await db()`select status from public.webhook_deliveries where id = ${delivery.id}`)[0].status === 'succeeded');
    const log = expectStatus(await call(world.admin.client, `${webhooksPath()}/${endpoint.id}/deliveries`), 200);
    const entry = log.data.find((d: any) => d.id === delivery.id);
    // The receiver is on loopback, which only the local setting lets through: its answers' bodies
    // are not kept (issue 24 finding 4; tests/functions/webhook-delivery.test.ts keeps a public one's).
    expect(entry).toMatchObject({ event_type: 'site.created', status: 'succeeded', attempts: 2, last_status_code: 200, last_response: null, next_attempt_at: null });
    const attempts = await db()`select status_code, response_body from public.webhook_attempts where delivery_id = ${delivery.id} order by at`;
    expect(attempts.map((a) => [a.status_code, a.response_body])).toEqual([[503, null], [200, null]]);
  });

  it('a rolled-back change sends nothing', async () => {
    const before = receiver.received.length;
    await db().begin(async (tx) => {
      await tx`insert into public.sites (org_id, name) values (${world.org.id}, 'Rolled back depot')`;
      await tx`select 1/0`;
    }).catch(() => undefined);
    const [{ n }] = await db()`select count(*)::int as n from public.webhook_events where payload -> 'data' ->> 'name' = 'Rolled back depot'`;
    expect(n).toBe(0);
    // Two wakes of the worker later, still nothing arrived.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received.slice(before).some((r) => r.json.data?.name === 'Rolled back depot')).toBe(false);
  });

  it('a test event and a redelivery arrive again with the same event id; only owners and admins may ask', async () => {
    const test = expectStatus(await post(world.admin.client, `${webhooksPath()}/${endpoint.id}/test`, undefined), 202);
    expect(test).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    const first = await eventually(() => receiver.received.find((r) => r.headers['webhook-id'] === `msg_${test.event_id}`));
    expect(verified(endpoint.secret, first)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });

    expectProblem(await post(world.manager.client, `orgs/${world.org.id}/deliveries/${test.id}/redeliver`, undefined), 403, 'forbidden');
    const again = expectStatus(await post(world.admin.client, `orgs/${world.org.id}/deliveries/${test.id}/redeliver`, undefined), 202);
    expect(again.id).not.toBe(test.id);
    await eventually(() => receiver.received.filter((r) => r.headers['webhook-id'] === `msg_${test.event_id}`).length === 2);
  });

  it('a rotated secret signs from then on; a disabled endpoint gets nothing', async () => {
    const rotated = expectStatus(await post(world.admin.client, `${webhooksPath()}/${endpoint.id}/rotate-secret`, undefined), 200);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const site = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: 'Rotated depot' }), 201);
    const delivery = await eventually(() => deliveriesOfSite(site.id)[0]);
    expect(verified(rotated.secret, delivery)).toMatchObject({ type: 'site.created' });
    expect(() => verified(endpoint.secret, delivery)).toThrow();
    endpoint.secret = rotated.secret;

    expectStatus(await patch(world.admin.client, `${webhooksPath()}/${endpoint.id}`, { enabled: false }), 200);
    const quiet = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/sites`, { name: 'Quiet depot' }), 201);
    const [{ n }] = await db()`select count(*)::int as n from public.webhook_events where entity_id = ${quiet.id}`;
    expect(n).toBe(0);
    expectStatus(await patch(world.admin.client, `${webhooksPath()}/${endpoint.id}`, { enabled: true }), 200);
  });
});

describe('the delivery worker', () => {
  it('is woken only with the project service-role or secret key, not the public keys', async () => {
    const wake = (key?: string) =>
      fetch(`${stack.FUNCTIONS_URL}/webhook-deliveries`, { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {} });
    expect((await wake()).status).toBe(401);
    expect((await wake(stack.ANON_KEY)).status).toBe(401);
    expect((await wake(stack.PUBLISHABLE_KEY)).status).toBe(401);
    const woken = await wake(stack.SERVICE_ROLE_KEY);
    expect(woken.status).toBe(200);
    expect(await woken.json()).toMatchObject({ sent: expect.any(Number), succeeded: expect.any(Number) });
    expect((await wake(stack.SECRET_KEY)).status).toBe(200);
  });
});
