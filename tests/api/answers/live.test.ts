// Live collaboration on `inspection:<id>` with the unmodified supabase-js realtime client: a
// second inspector subscribed to the private topic receives each batch saved through the api as
// one answers_saved with all its answers, in commit order, followed by the new score; presence
// shows who is on which item; members of other organizations cannot join.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSavedEventSchema } from '../../../supabase/functions/_shared/schemas/answers.ts';
import { call, expectStatus } from '../../support/api.ts';
import { inProgressInspection, inspectionPath, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { subscribe, waitForValue } from '../../support/realtime.ts';

const { world, stranger } = inspectionWorldAndStranger();
const channels: RealtimeChannel[] = [];

afterAll(async () => {
  for (const channel of channels) await channel.unsubscribe().catch(() => undefined);
  for (const user of [world.inspector, world.inspector2, world.viewer, stranger]) await user.client?.removeAllChannels();
});

/** Joins `inspection:<id>` privately after pushing the session's token; resolves with the join's first outcome. */
async function join(client: SupabaseClient, topic: string, listen: (channel: RealtimeChannel) => void = () => {}) {
  await client.realtime.setAuth();
  const channel = client.channel(topic, { config: { private: true, presence: { key: (await client.auth.getUser()).data.user!.id } } });
  channels.push(channel);
  // supabase-js asks for presence on join only when something listens for it, as the run page does.
  channel.on('presence', { event: 'sync' }, () => {});
  listen(channel);
  const { status } = await subscribe(channel);
  return { status, channel };
}

describe('the live inspection topic', () => {
  it('delivers each batch another inspector saves as one message with all its answers, in order, then the new score', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const received: Array<{ event: string; payload: any }> = [];
    const { status } = await join(world.inspector2.client, `inspection:${id}`, (channel) =>
      channel.on('broadcast', { event: '*' }, (message) => received.push({ event: message.event, payload: message.payload })));
    expect(status).toBe('SUBSCRIBED');

    const path = `${inspectionPath(world.org.id, id)}/answers`;
    const first = expectStatus(await call(world.inspector.client, path, {
      method: 'PUT',
      body: { answers: [{ item_key: 'floor_clean', value: 'fail', note: 'Sticky', base_version: null }, { item_key: 'fridge_temp', value: 4, base_version: null }] },
    }), 200);
    // Changed and new answers in one batch: still one message, the changed answer first.
    const second = expectStatus(await call(world.inspector.client, path, {
      method: 'PUT',
      body: {
        answers: [
          { item_key: 'remarks', value: 'Mopped', base_version: null },
          { item_key: 'floor_clean', value: 'pass', base_version: 1 },
          { item_key: 'fridge_locked', value: 'yes', base_version: null },
        ],
      },
    }), 200);

    await waitForValue('two answers_saved messages', () => (received.filter((r) => r.event === 'answers_saved').length >= 2 ? true : undefined));
    await waitForValue('the last score', () => received.find((r) => r.event === 'inspection_updated' && r.payload.score === second.inspection.score));
    const batches = received.filter((r) => r.event === 'answers_saved').map((r) => answersSavedEventSchema.parse(r.payload));
    expect(batches).toHaveLength(2);
    expect(batches.map((batch) => batch.inspection_id)).toEqual([id, id]);
    expect(batches.map((batch) => batch.answers.map((a) => [a.item_key, a.value, a.version]))).toEqual([
      [['floor_clean', 'fail', 1], ['fridge_temp', 4, 1]],
      [['floor_clean', 'pass', 2], ['remarks', 'Mopped', 1], ['fridge_locked', 'yes', 1]],
    ]);
    // Each answer is the api's Answer without the author's name; `id` is the realtime message's
    // own, which Supabase's realtime.send adds to every payload without one.
    const withoutName = (answer: { answered_by_name: string | null }) => {
      const { answered_by_name: _name, ...rest } = answer;
      return rest;
    };
    expect(received.find((r) => r.event === 'answers_saved')!.payload).toEqual({
      inspection_id: id,
      answers: first.answers.map(withoutName),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Each batch's score arrives after its answers, once.
    const order = received.map((r) => `${r.event}:${r.event === 'answers_saved' ? r.payload.answers.length : r.payload.score}`);
    expect(order).toEqual(['answers_saved:2', `inspection_updated:${first.inspection.score}`, 'answers_saved:3', `inspection_updated:${second.inspection.score}`]);
    expect(received.at(-1)).toEqual({
      event: 'inspection_updated',
      payload: { id, status: 'in_progress', ...second.inspection },
    });
  });

  it('shows who is here and which item they are on (presence)', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const topic = `inspection:${id}`;
    const watcher = await join(world.viewer.client, topic);
    expect(watcher.status).toBe('SUBSCRIBED');
    const filler = await join(world.inspector.client, topic);
    expect(filler.status).toBe('SUBSCRIBED');
    const tracked = await filler.channel.track({ user_id: world.inspector.userId, display_name: world.inspector.displayName, item_key: 'fridge_temp' });
    expect(tracked).toBe('ok');

    const state = await waitForValue("the inspector's presence", () => {
      const entries = watcher.channel.presenceState()[world.inspector.userId] as any[] | undefined;
      return entries?.some((e) => e.item_key === 'fridge_temp') ? entries : undefined;
    });
    expect(state[0]).toMatchObject({ user_id: world.inspector.userId, display_name: world.inspector.displayName, item_key: 'fridge_temp' });

    await filler.channel.track({ user_id: world.inspector.userId, display_name: world.inspector.displayName, item_key: 'remarks' });
    await waitForValue('the move to another item', () =>
      (watcher.channel.presenceState()[world.inspector.userId] as any[] | undefined)?.some((e) => e.item_key === 'remarks') ? true : undefined);
  });

  it('refuses members of other organizations and made-up topics', async () => {
    const id = await inProgressInspection(world, world.inspector);
    expect((await join(stranger.client, `inspection:${id}`)).status).toBe('CHANNEL_ERROR');
    expect((await join(world.viewer.client, 'inspection:not-a-uuid')).status).toBe('CHANNEL_ERROR');
    expect((await join(world.viewer.client, `inspection:${crypto.randomUUID()}`)).status).toBe('CHANNEL_ERROR');
  });
});
