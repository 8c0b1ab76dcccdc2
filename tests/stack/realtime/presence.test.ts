// Presence between supabase-js clients on both protocol versions: the state a joining member
// gets, join / leave events for track, untrack, leaving and disconnecting, keyed by the
// channel's presence key.
import { afterEach, describe, expect, it } from 'vitest';
import { closeClients, realtimeClient, sleep, subscribed, uniqueTopic, VSNS, waitFor } from './support.ts';

afterEach(closeClients);

function watcher(vsn: '1.0.0' | '2.0.0', topic: string, key: string) {
  const events: Array<{ event: string; key?: string; presences?: any[] }> = [];
  const channel = realtimeClient({ vsn })
    .channel(topic, { config: { presence: { key } } })
    .on('presence', { event: 'sync' }, () => events.push({ event: 'sync' }))
    .on('presence', { event: 'join' }, ({ key, newPresences }) => events.push({ event: 'join', key, presences: newPresences }))
    .on('presence', { event: 'leave' }, ({ key, leftPresences }) => events.push({ event: 'leave', key, presences: leftPresences }));
  return { channel, events };
}

describe.each(VSNS)('presence over vsn %s', (vsn) => {
  it('a member who tracks is seen by another as a join, and as a leave on untrack', async () => {
    const topic = uniqueTopic('presence');
    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    const alice = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { presence: { key: 'alice' } } }));

    expect(await alice.track({ status: 'online' })).toBe('ok');
    await waitFor('the join', () => bob.events.some((e) => e.event === 'join'));
    const join = bob.events.find((e) => e.event === 'join')!;
    expect(join.key).toBe('alice');
    expect(join.presences).toEqual([{ status: 'online', presence_ref: expect.any(String) }]);
    expect(bob.channel.presenceState()).toEqual({ alice: [{ status: 'online', presence_ref: join.presences![0].presence_ref }] });

    expect(await alice.untrack()).toBe('ok');
    await waitFor('the leave', () => bob.events.some((e) => e.event === 'leave'));
    expect(bob.events.find((e) => e.event === 'leave')).toMatchObject({ key: 'alice', presences: [{ status: 'online' }] });
    expect(bob.channel.presenceState()).toEqual({});
  });

  it('a member who joins later gets everyone already present (presence_state)', async () => {
    const topic = uniqueTopic('presence');
    const alice = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { presence: { key: 'alice' } } }));
    await alice.track({ name: 'Alice' });
    const carol = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { presence: { key: 'carol' } } }));
    await carol.track({ name: 'Carol' });

    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    await waitFor('the state', () => Object.keys(bob.channel.presenceState()).length === 2);
    expect(bob.channel.presenceState()).toEqual({
      alice: [{ name: 'Alice', presence_ref: expect.any(String) }],
      carol: [{ name: 'Carol', presence_ref: expect.any(String) }],
    });
    expect(bob.events[0]).toEqual({ event: 'join', key: 'alice', presences: [{ name: 'Alice', presence_ref: expect.any(String) }] });
  });

  it('the tracker sees its own presence too', async () => {
    const topic = uniqueTopic('presence');
    const alice = watcher(vsn, topic, 'alice');
    await subscribed(alice.channel);
    await alice.channel.track({ me: true });
    await waitFor('own presence', () => 'alice' in alice.channel.presenceState());
    expect(alice.channel.presenceState().alice).toEqual([{ me: true, presence_ref: expect.any(String) }]);
  });

  it('leaving the channel and dropping the connection are leaves for the others', async () => {
    const topic = uniqueTopic('presence');
    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    const aliceClient = realtimeClient({ vsn });
    const alice = await subscribed(aliceClient.channel(topic, { config: { presence: { key: 'alice' } } }));
    const daveClient = realtimeClient({ vsn });
    const dave = await subscribed(daveClient.channel(topic, { config: { presence: { key: 'dave' } } }));
    await alice.track({ at: 1 });
    await dave.track({ at: 2 });
    await waitFor('both joins', () => Object.keys(bob.channel.presenceState()).length === 2);

    await aliceClient.removeChannel(alice);
    await waitFor('alice to leave', () => !('alice' in bob.channel.presenceState()));
    await daveClient.realtime.disconnect();
    await waitFor('dave to leave', () => !('dave' in bob.channel.presenceState()));
    expect(bob.events.filter((e) => e.event === 'leave').map((e) => e.key)).toEqual(['alice', 'dave']);
  });

  it('tracking again replaces the previous state under the same key', async () => {
    const topic = uniqueTopic('presence');
    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    const alice = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { presence: { key: 'alice' } } }));
    await alice.track({ item: 'first' });
    await alice.track({ item: 'second' });
    await waitFor('the second state', () => (bob.channel.presenceState().alice?.[0] as { item?: string } | undefined)?.item === 'second');
    await sleep(50);
    expect(bob.channel.presenceState().alice).toEqual([{ item: 'second', presence_ref: expect.any(String) }]);
  });

  it('two members sharing a presence key are two presences under it', async () => {
    const topic = uniqueTopic('presence');
    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    for (const device of ['phone', 'laptop']) {
      const channel = await subscribed(realtimeClient({ vsn }).channel(topic, { config: { presence: { key: 'alice' } } }));
      await channel.track({ device });
    }
    await waitFor('both devices', () => bob.channel.presenceState().alice?.length === 2);
    expect(bob.channel.presenceState().alice.map((p: any) => p.device).sort()).toEqual(['laptop', 'phone']);
  });

  it('without a presence key each channel gets a random one', async () => {
    const topic = uniqueTopic('presence');
    const bob = watcher(vsn, topic, 'bob');
    await subscribed(bob.channel);
    const anonymous = await subscribed(realtimeClient({ vsn }).channel(topic));
    await anonymous.track({ who: 'nobody' });
    await waitFor('the join', () => Object.keys(bob.channel.presenceState()).length === 1);
    expect(Object.keys(bob.channel.presenceState())[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a track payload that is not an object is refused', async () => {
    const channel = await subscribed(realtimeClient({ vsn }).channel(uniqueTopic('presence')));
    expect(await channel.track('online' as unknown as Record<string, unknown>)).toBe('error');
  });
});
