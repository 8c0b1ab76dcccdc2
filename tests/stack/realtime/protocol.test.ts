// The exact frames on the wire, checked with a hand-driven WebSocket: replies, heartbeats,
// server pushes and the binary broadcast frames of vsn 2.0.0 (realtime-js lib/serializer.ts),
// plus how joins that ask for Postgres Changes are answered.
import { afterEach, describe, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { closeClients, rawSocket, realtimeClient, subscribed, uniqueTopic, waitFor } from './support.ts';

afterEach(closeClients);

const joinPayload = (config: Record<string, unknown> = {}) => ({
  config: { broadcast: { self: false, ack: false }, presence: { key: '', enabled: false }, postgres_changes: [], private: false, ...config },
});

/** A kind-3 user broadcast push, as realtime-js encodes channel.send on vsn 2.0.0. */
function userBroadcastPush(joinRef: string, ref: string, topic: string, event: string, payload: Buffer, encoding: 0 | 1): Buffer {
  const parts = [joinRef, ref, topic, event, ''].map((s) => Buffer.from(s));
  return Buffer.concat([Buffer.from([3, ...parts.map((p) => p.length), encoding]), ...parts, payload]);
}

describe('vsn 2.0.0 frames', () => {
  it('heartbeat, join reply, presence_state, unmatched topics and leave', async () => {
    const socket = await rawSocket('2.0.0');
    const topic = `realtime:${uniqueTopic('wire')}`;
    socket.send([null, '1', 'phoenix', 'heartbeat', {}]);
    expect((await socket.next()).text).toBe('[null,"1","phoenix","phx_reply",{"status":"ok","response":{}}]');

    socket.send(['2', '2', topic, 'phx_join', joinPayload({ presence: { key: 'k', enabled: true } })]);
    expect((await socket.next()).json).toEqual(['2', '2', topic, 'phx_reply', { status: 'ok', response: { postgres_changes: [] } }]);
    expect((await socket.next()).json).toEqual(['2', null, topic, 'presence_state', {}]);

    socket.send([null, '3', 'realtime:never-joined', 'broadcast', { type: 'broadcast', event: 'x', payload: {} }]);
    expect((await socket.next()).json).toEqual([null, '3', 'realtime:never-joined', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }]);

    // An access_token update gets no reply.
    socket.send(['2', '4', topic, 'access_token', { access_token: stack.ANON_KEY }]);
    socket.send(['2', '5', topic, 'phx_leave', {}]);
    expect((await socket.next()).json).toEqual(['2', '5', topic, 'phx_reply', { status: 'ok', response: {} }]);
    expect((await socket.next()).json).toEqual(['2', '2', topic, 'phx_close', {}]);
    socket.close();
  });

  it('a binary broadcast push (kind 3) reaches vsn 2.0.0 subscribers as kind 4 and vsn 1.0.0 ones as JSON', async () => {
    const topic = `realtime:${uniqueTopic('wire')}`;
    const sender = await rawSocket('2.0.0');
    const v2 = await rawSocket('2.0.0');
    const v1 = await rawSocket('1.0.0');
    for (const socket of [sender, v2]) socket.send(['1', '1', topic, 'phx_join', joinPayload()]);
    v1.send({ topic, event: 'phx_join', payload: joinPayload(), ref: '1', join_ref: '1' });
    for (const socket of [sender, v2, v1]) await socket.next((f) => (f.json?.event ?? f.json?.[3]) === 'phx_reply');

    sender.send(userBroadcastPush('1', '2', topic, 'moved', Buffer.from('{"x":1}'), 1));
    const frame = await v2.next((f) => f.binary);
    const expected = Buffer.concat([Buffer.from([4, Buffer.byteLength(topic), 5, 0, 1]), Buffer.from(topic), Buffer.from('moved'), Buffer.from('{"x":1}')]);
    expect(frame.bytes!.toString('hex')).toBe(expected.toString('hex'));
    expect((await v1.next((f) => f.json?.event === 'broadcast')).json).toEqual({
      topic,
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'moved', payload: { x: 1 } },
      ref: null,
    });

    sender.send(userBroadcastPush('1', '3', topic, 'bytes', Buffer.from([0, 255]), 0));
    const binary = await v2.next((f) => f.binary);
    expect(binary.bytes![4]).toBe(0);
    expect([...binary.bytes!.subarray(binary.bytes!.length - 2)]).toEqual([0, 255]);
    for (const socket of [sender, v2, v1]) socket.close();
  });

  it('a JSON broadcast push is relayed as a JSON frame', async () => {
    const topic = `realtime:${uniqueTopic('wire')}`;
    const sender = await rawSocket('2.0.0');
    const listener = await rawSocket('2.0.0');
    for (const socket of [sender, listener]) {
      socket.send(['1', '1', topic, 'phx_join', joinPayload()]);
      await socket.next();
    }
    sender.send(['1', '2', topic, 'broadcast', { type: 'broadcast', event: 'e', payload: { a: 1 } }]);
    expect((await listener.next()).text).toBe(`[null,null,"${topic}","broadcast",{"type":"broadcast","event":"e","payload":{"a":1}}]`);
    sender.close();
    listener.close();
  });
});

describe('vsn 1.0.0 frames', () => {
  it('heartbeat and join replies are JSON objects without join_ref, as Phoenix’s V1 serializer', async () => {
    const socket = await rawSocket('1.0.0');
    const topic = `realtime:${uniqueTopic('wire')}`;
    socket.send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' });
    expect((await socket.next()).json).toEqual({ topic: 'phoenix', event: 'phx_reply', payload: { status: 'ok', response: {} }, ref: '1' });
    socket.send({ topic, event: 'phx_join', payload: joinPayload(), ref: '2', join_ref: '2' });
    expect((await socket.next()).json).toEqual({ topic, event: 'phx_reply', payload: { status: 'ok', response: { postgres_changes: [] } }, ref: '2' });
    socket.close();
  });
});

describe('heartbeats from supabase-js', () => {
  it('every heartbeat is answered', async () => {
    const statuses: string[] = [];
    // realtime-js reports 'timeout' when a reply is still missing at the next beat; 1 s leaves room
    // for a busy CI machine while three beats still take only seconds.
    const client = realtimeClient({ heartbeatIntervalMs: 1000, heartbeatCallback: (status) => statuses.push(status) });
    await subscribed(client.channel(uniqueTopic('heartbeat')));
    await waitFor('three answered heartbeats', () => statuses.filter((s) => s === 'ok').length >= 3);
    expect(statuses).not.toContain('timeout');
  });
});

describe('Postgres Changes (not provided locally)', () => {
  it('a join with postgres_changes bindings succeeds, echoes them with ids, and says in a system message that no changes will come', async () => {
    const system: any[] = [];
    const channel = realtimeClient()
      .channel(uniqueTopic('changes'))
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'sites' }, () => {})
      .on('postgres_changes', { event: '*', schema: 'public', table: 'sites', filter: 'id=eq.7' }, () => {})
      .on('system', {}, (payload) => system.push(payload));
    await subscribed(channel);
    await waitFor('the system message', () => system.length === 1);
    expect(system[0]).toMatchObject({ extension: 'postgres_changes', status: 'error', message: expect.stringContaining('not available on the local stack') });

    const socket = await rawSocket('2.0.0');
    const topic = `realtime:${uniqueTopic('changes')}`;
    const bindings = [{ event: 'INSERT', schema: 'public', table: 'sites' }];
    socket.send(['1', '1', topic, 'phx_join', joinPayload({ postgres_changes: bindings })]);
    const reply = (await socket.next()).json;
    expect(reply[4]).toEqual({ status: 'ok', response: { postgres_changes: [{ ...bindings[0], id: expect.any(Number) }] } });
    socket.close();
  });

  it('with postgres_changes_options.wait the join is refused, as Supabase refuses a table not enabled for Realtime', async () => {
    const socket = await rawSocket('2.0.0');
    const topic = `realtime:${uniqueTopic('changes')}`;
    socket.send(['1', '1', topic, 'phx_join', joinPayload({ postgres_changes: [{ event: '*', schema: 'public' }], postgres_changes_options: { wait: true } })]);
    const reply = (await socket.next()).json;
    expect(reply[4].status).toBe('error');
    expect(reply[4].response.reason).toMatch(/^RealtimeDisabledForConfiguration: /);
    socket.close();
  });
});

describe('replication_ready', () => {
  it('a channel that asks is told once database broadcasts are flowing', async () => {
    const system: any[] = [];
    const topic = uniqueTopic('ready');
    await subscribed(realtimeClient().channel(topic, { config: { broadcast: { replication_ready: true } } }).on('system', {}, (p) => system.push(p)));
    await waitFor('the system message', () => system.length === 1);
    expect(system[0]).toEqual({ extension: 'system', status: 'ok', message: 'Replication connection established', channel: topic });
  });
});

describe('HTTP broadcast API', () => {
  const post = (path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) =>
    fetch(`${stack.API_URL}/realtime/v1/api/broadcast${path}`, {
      method: 'POST',
      headers: { apikey: stack.ANON_KEY, 'content-type': 'application/json', ...init.headers },
      body: init.body,
    });

  it('refuses callers without a valid key or token with 401', async () => {
    const response = await fetch(`${stack.API_URL}/realtime/v1/api/broadcast`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
    expect((await post('', { headers: { authorization: 'Bearer not-a-token' }, body: '{}' })).status).toBe(401);
  });

  it('answers 422 for messages without topic, event or an object payload', async () => {
    const response = await post('', { body: JSON.stringify({ messages: [{ topic: 'x', payload: 'text' }] }) });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ errors: { messages: [{ event: ["can't be blank"], payload: ['is invalid'] }] } });
  });

  it('an application/octet-stream body reaches vsn 2.0.0 subscribers as raw bytes', async () => {
    const name = uniqueTopic('http-bytes');
    const received: any[] = [];
    await subscribed(realtimeClient().channel(name).on('broadcast', { event: 'blob' }, (m) => received.push(m)));
    const response = await post(`/${name}/events/blob`, { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([9, 8, 7]) });
    expect(response.status).toBe(202);
    await waitFor('the bytes', () => received.length === 1);
    expect([...new Uint8Array(received[0].payload)]).toEqual([9, 8, 7]);
  });

  it('refuses other content types with 415', async () => {
    expect((await post('/room/events/e', { headers: { 'content-type': 'text/plain' }, body: 'hi' })).status).toBe(415);
  });
});
