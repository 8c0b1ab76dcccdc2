// Private channels: RLS on realtime.messages, evaluated as the joining user, decides who may
// join and receive (SELECT) and who may send and track (INSERT). The fixture policies admit
// topics `<prefix>:<owner>:<guest>`: owner and guest read, only the owner writes.
import { randomUUID } from 'node:crypto';
import type { Session } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import {
  clientWithToken,
  closeClients,
  createTopicPolicies,
  keepClient,
  realtimeClient,
  sleep,
  subscribe,
  subscribed,
  VSNS,
  waitFor,
  type Vsn,
} from './support.ts';

const prefix = `rt-private-${randomUUID().slice(0, 8)}`;
const sql = database();
let dropPolicies: () => Promise<void>;
let owner: { user: { id: string }; session: Session };
let guest: { user: { id: string }; session: Session };
let outsider: { user: { id: string }; session: Session };

beforeAll(async () => {
  dropPolicies = await createTopicPolicies(sql, prefix);
  [owner, guest, outsider] = await Promise.all([signedInClient(), signedInClient(), signedInClient()]);
});

afterAll(async () => {
  await dropPolicies?.();
  await sql.end();
});

afterEach(closeClients);

const topicFor = (label = randomUUID().slice(0, 6)) => `${prefix}:${owner.user.id}:${guest.user.id}:${label}`;
const as = (who: { session: Session }, vsn: Vsn = '2.0.0') => clientWithToken(() => who.session.access_token, { vsn });
const privately = { config: { private: true, broadcast: { ack: true } } };

describe.each(VSNS)('private channels over vsn %s', (vsn) => {
  it('members the read policy admits may join; anyone else gets CHANNEL_ERROR with Realtime’s reason', async () => {
    const topic = topicFor();
    expect((await subscribe((await as(owner, vsn)).channel(topic, privately))).status).toBe('SUBSCRIBED');
    expect((await subscribe((await as(guest, vsn)).channel(topic, privately))).status).toBe('SUBSCRIBED');

    const refused = await subscribe((await as(outsider, vsn)).channel(topic, privately));
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`);
    const anonymous = await subscribe(realtimeClient({ vsn }).channel(topic, privately));
    expect(anonymous.status).toBe('CHANNEL_ERROR');
  });

  it('a send the insert policy allows is delivered and acknowledged; a refused one is dropped without an ack', async () => {
    const topic = topicFor();
    const heardByGuest: string[] = [];
    const heardByOwner: string[] = [];
    const ownerChannel = await subscribed((await as(owner, vsn)).channel(topic, privately).on('broadcast', { event: '*' }, (m) => heardByOwner.push(m.event)));
    const guestChannel = await subscribed((await as(guest, vsn)).channel(topic, privately).on('broadcast', { event: '*' }, (m) => heardByGuest.push(m.event)));

    expect(await ownerChannel.send({ type: 'broadcast', event: 'from-owner', payload: {} })).toBe('ok');
    // Realtime answers a refused send with nothing, so an ack'ing sender times out.
    expect(await guestChannel.send({ type: 'broadcast', event: 'from-guest', payload: {} }, { timeout: 1000 })).toBe('timed out');
    await waitFor('the owner’s message', () => heardByGuest.length === 1);
    await sleep(100);
    expect(heardByGuest).toEqual(['from-owner']);
    expect(heardByOwner).toEqual([]);
  });

  it('presence: the owner may track and the guest sees it; the guest’s track is refused', async () => {
    const topic = topicFor();
    const withPresence = (key: string) => ({ config: { private: true, presence: { key, enabled: true } } });
    const guestChannel = await subscribed((await as(guest, vsn)).channel(topic, withPresence('guest')));
    const ownerChannel = await subscribed((await as(owner, vsn)).channel(topic, withPresence('owner')));

    expect(await ownerChannel.track({ on: 'item-1' })).toBe('ok');
    await waitFor('the owner’s presence', () => 'owner' in guestChannel.presenceState());
    expect(await guestChannel.track({ on: 'item-2' })).toBe('error');
    await sleep(100);
    expect(Object.keys(ownerChannel.presenceState())).toEqual(['owner']);
  });
});

describe('private channels', () => {
  it('a signed-in supabase-js client joins with its session’s token', async () => {
    const { client, user } = await signedInClient();
    keepClient(client);
    const topic = `${prefix}:${user.id}:${guest.user.id}:session`;
    expect((await subscribe(client.channel(topic, privately))).status).toBe('SUBSCRIBED');
  });

  it('the service role bypasses RLS, as on Supabase', async () => {
    const topic = topicFor();
    const heard: string[] = [];
    await subscribed((await as(guest)).channel(topic, privately).on('broadcast', { event: '*' }, (m) => heard.push(m.event)));
    const service = await subscribed(realtimeClient({ key: stack.SERVICE_ROLE_KEY }).channel(topic, privately));
    expect(await service.send({ type: 'broadcast', event: 'from-service', payload: {} })).toBe('ok');
    await waitFor('the service’s message', () => heard.length === 1);
  });

  it('httpSend to a private topic: the owner’s is delivered, the guest’s is refused with 403', async () => {
    const topic = topicFor();
    const heard: any[] = [];
    await subscribed((await as(guest)).channel(topic, privately).on('broadcast', { event: '*' }, (m) => heard.push(m)));

    expect(await (await as(owner)).channel(topic, privately).httpSend('note', { n: 1 })).toEqual({ success: true });
    await expect((await as(guest)).channel(topic, privately).httpSend('note', { n: 2 })).rejects.toThrow('Unauthorized');
    await waitFor('the owner’s message', () => heard.length === 1);
    await sleep(100);
    expect(heard).toEqual([{ type: 'broadcast', event: 'note', payload: { n: 1 } }]);
  });

  it('POST /api/broadcast delivers private messages the caller may write and skips the rest', async () => {
    const topic = topicFor();
    const heard: string[] = [];
    await subscribed((await as(guest)).channel(topic, privately).on('broadcast', { event: '*' }, (m) => heard.push(m.event)));
    const post = (who: { session: Session }, event: string) =>
      fetch(`${stack.API_URL}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { apikey: stack.ANON_KEY, authorization: `Bearer ${who.session.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ topic, event, payload: {}, private: true }] }),
      });
    expect((await post(guest, 'from-guest')).status).toBe(202);
    expect((await post(owner, 'from-owner')).status).toBe(202);
    await waitFor('the owner’s message', () => heard.length === 1);
    await sleep(100);
    expect(heard).toEqual(['from-owner']);
  });
});
