// Broadcast between supabase-js clients on both protocol versions (1.0.0 JSON objects,
// 2.0.0 JSON arrays with binary broadcast frames), the self and ack options, and the HTTP
// broadcast endpoints supabase-js falls back to.
import { afterEach, describe, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { closeClients, realtimeClient, sleep, subscribe, subscribed, uniqueTopic, VSNS, waitFor } from './support.ts';

afterEach(closeClients);

describe.each(VSNS)('broadcast over vsn %s', (vsn) => {
  it('a message sent by one client reaches another subscriber of the topic', async () => {
    const topic = uniqueTopic('room');
    const received: any[] = [];
    const listener = realtimeClient({ vsn }).channel(topic).on('broadcast', { event: 'moved' }, (message) => received.push(message));
    await subscribed(listener);
    const sender = await subscribed(realtimeClient({ vsn }).channel(topic));

    expect(await sender.send({ type: 'broadcast', event: 'moved', payload: { x: 1, label: 'café ☕' } })).toBe('ok');
    await waitFor('the broadcast', () => received.length === 1);
    expect(received[0]).toEqual({ type: 'broadcast', event: 'moved', payload: { x: 1, label: 'café ☕' } });
  });

  it('listeners filter by event name, case-insensitively, and * receives every event', async () => {
    const topic = uniqueTopic('room');
    const named: string[] = [];
    const all: string[] = [];
    const listener = realtimeClient({ vsn })
      .channel(topic)
      .on('broadcast', { event: 'Cursor' }, (m) => named.push(m.event))
      .on('broadcast', { event: '*' }, (m) => all.push(m.event));
    await subscribed(listener);
    const sender = await subscribed(realtimeClient({ vsn }).channel(topic));
    await sender.send({ type: 'broadcast', event: 'cursor', payload: {} });
    await sender.send({ type: 'broadcast', event: 'other', payload: {} });
    await waitFor('both broadcasts', () => all.length === 2);
    expect(all).toEqual(['cursor', 'other']);
    expect(named).toEqual(['cursor']);
  });

  it('the sender hears itself only with broadcast.self', async () => {
    const topic = uniqueTopic('room');
    const quiet: string[] = [];
    const echoing: string[] = [];
    const quietChannel = realtimeClient({ vsn }).channel(topic).on('broadcast', { event: '*' }, (m) => quiet.push(m.payload.from));
    const echoChannel = realtimeClient({ vsn })
      .channel(topic, { config: { broadcast: { self: true } } })
      .on('broadcast', { event: '*' }, (m) => echoing.push(m.payload.from));
    await subscribed(quietChannel);
    await subscribed(echoChannel);

    await quietChannel.send({ type: 'broadcast', event: 'hi', payload: { from: 'quiet' } });
    await waitFor('the first message', () => echoing.length === 1);
    await echoChannel.send({ type: 'broadcast', event: 'hi', payload: { from: 'echo' } });
    await waitFor('the echo', () => echoing.length === 2 && quiet.length === 1);
    await sleep(100);
    expect(quiet).toEqual(['echo']);
    expect(echoing).toEqual(['quiet', 'echo']);
  });

  it('with broadcast.ack the server acknowledges each send', async () => {
    const topic = uniqueTopic('room');
    const channel = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { broadcast: { ack: true } } }));
    expect(await channel.send({ type: 'broadcast', event: 'saved', payload: { id: 1 } })).toBe('ok');
  });

  it('public and private channels of the same name are different topics', async () => {
    const topic = uniqueTopic('room');
    const publicHeard: string[] = [];
    const privateHeard: string[] = [];
    // The service role bypasses RLS, so it may use a private channel without any policy.
    const service = () => realtimeClient({ vsn, key: stack.SERVICE_ROLE_KEY });
    await subscribed(realtimeClient({ vsn }).channel(topic).on('broadcast', { event: '*' }, (m) => publicHeard.push(m.event)));
    await subscribed(service().channel(topic, { config: { private: true } }).on('broadcast', { event: '*' }, (m) => privateHeard.push(m.event)));
    const privateSender = await subscribed(service().channel(topic, { config: { private: true } }));
    const publicSender = await subscribed(realtimeClient({ vsn }).channel(topic));

    await privateSender.send({ type: 'broadcast', event: 'private-one', payload: {} });
    await publicSender.send({ type: 'broadcast', event: 'public-one', payload: {} });
    await waitFor('both broadcasts', () => publicHeard.length === 1 && privateHeard.length === 1);
    await sleep(100);
    expect(publicHeard).toEqual(['public-one']);
    expect(privateHeard).toEqual(['private-one']);
  });
});

describe('binary broadcast payloads (vsn 2.0.0 only)', () => {
  it('raw bytes sent by one client arrive as an ArrayBuffer at another', async () => {
    const topic = uniqueTopic('bytes');
    const received: any[] = [];
    await subscribed(realtimeClient().channel(topic).on('broadcast', { event: 'blob' }, (m) => received.push(m)));
    const sender = await subscribed(realtimeClient().channel(topic));
    await sender.send({ type: 'broadcast', event: 'blob', payload: new Uint8Array([1, 2, 250]).buffer });
    await waitFor('the binary broadcast', () => received.length === 1);
    expect(received[0].payload).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(received[0].payload)]).toEqual([1, 2, 250]);
  });

  it('a vsn 1.0.0 client does not get a binary payload it cannot represent, but gets JSON ones', async () => {
    const topic = uniqueTopic('bytes');
    const received: string[] = [];
    await subscribed(realtimeClient({ vsn: '1.0.0' }).channel(topic).on('broadcast', { event: '*' }, (m) => received.push(m.event)));
    const sender = await subscribed(realtimeClient().channel(topic));
    await sender.send({ type: 'broadcast', event: 'blob', payload: new Uint8Array([1]).buffer });
    await sender.send({ type: 'broadcast', event: 'json', payload: { a: 1 } });
    await waitFor('the JSON broadcast', () => received.length >= 1);
    await sleep(100);
    expect(received).toEqual(['json']);
  });
});

describe('HTTP broadcast', () => {
  it('channel.httpSend delivers to subscribers and answers success', async () => {
    const topic = uniqueTopic('http');
    const received: any[] = [];
    for (const vsn of VSNS) {
      await subscribed(realtimeClient({ vsn }).channel(topic).on('broadcast', { event: 'note' }, (m) => received.push({ vsn, m })));
    }
    const sender = realtimeClient().channel(topic);
    expect(await sender.httpSend('note', { text: 'over http' })).toEqual({ success: true });
    await waitFor('both subscribers', () => received.length === 2);
    for (const { m } of received) expect(m).toEqual({ type: 'broadcast', event: 'note', payload: { text: 'over http' } });
  });

  it('channel.send on a channel that is not joined falls back to POST /api/broadcast', async () => {
    const topic = uniqueTopic('http');
    const received: any[] = [];
    await subscribed(realtimeClient({ vsn: '1.0.0' }).channel(topic).on('broadcast', { event: 'x' }, (m) => received.push(m)));
    const notJoined = realtimeClient().channel(topic);
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await notJoined.send({ type: 'broadcast', event: 'x', payload: { a: 1 } })).toBe('ok');
    } finally {
      console.warn = warn;
    }
    await waitFor('the REST broadcast', () => received.length === 1);
    expect(received[0]).toEqual({ type: 'broadcast', event: 'x', payload: { a: 1 } });
  });
});

describe('join', () => {
  it('a channel with no name is refused', async () => {
    const outcome = await subscribe(realtimeClient().channel(''));
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error?.message).toBe('TopicNameRequired: You must provide a topic name');
  });
});
