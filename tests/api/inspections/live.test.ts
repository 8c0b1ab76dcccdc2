// Inspections on the organization topic: scheduling and every move are broadcast on org:<id> as
// inspection_created / inspection_updated with the status, to members only, and so is a change in
// the number of failed items (a dashboard count); score-only changes are not (they go to
// inspection:<id>).
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../support/database.ts';
import { expectStatus, post } from '../../support/api.ts';
import { inspectionPath, inspectionWorldAndStranger, scheduleInspection, startInspection } from '../../support/fixtures.ts';
import { subscribe, waitForValue } from '../../support/realtime.ts';

const { world, stranger } = inspectionWorldAndStranger();
const channels: Array<{ client: SupabaseClient; channel: RealtimeChannel }> = [];

afterAll(async () => {
  for (const { client, channel } of channels) await client.removeChannel(channel);
});

/** Joins org:<id> privately and collects its broadcasts; resolves with the join status. */
async function listen(client: SupabaseClient, topic: string) {
  const events: Array<{ event: string; payload: any }> = [];
  const channel = client.channel(topic, { config: { private: true } });
  channels.push({ client, channel });
  channel.on('broadcast', { event: '*' }, (message) => events.push({ event: message.event, payload: message.payload }));
  const { status } = await subscribe(channel);
  return { status, events };
}

describe('org:<id> inspection events', () => {
  it('tells members about a new inspection and each move, with the status; a stranger is not admitted', async () => {
    const member = await listen(world.viewer.client, `org:${world.org.id}`);
    expect(member.status).toBe('SUBSCRIBED');
    const outsider = await listen(stranger.client, `org:${world.org.id}`);
    expect(outsider.status).not.toBe('SUBSCRIBED');

    const inspection = await scheduleInspection(world);
    const created = await waitForValue('inspection_created', () =>
      member.events.find((e) => e.event === 'inspection_created' && e.payload.id === inspection.id));
    expect(created.payload).toMatchObject({
      entity: 'inspection', action: 'created', id: inspection.id, org_id: world.org.id, actor_id: world.manager.userId, status: 'scheduled',
    });

    await startInspection(world, inspection.id, world.inspector);
    const started = await waitForValue('inspection_updated to in_progress', () =>
      member.events.find((e) => e.event === 'inspection_updated' && e.payload.id === inspection.id && e.payload.status === 'in_progress'));
    expect(started.payload.actor_id).toBe(world.inspector.userId);

    // A score-only change (as the answers trigger makes it) stays off the organization topic; one
    // more failed item, which the dashboard counts, does not.
    const before = member.events.length;
    await db()`update public.inspections set score = score + 1 where id = ${inspection.id}`;
    await db()`update public.inspections set failed_count = failed_count + 1 where id = ${inspection.id}`;
    const failed = await waitForValue('inspection_updated for a failed item', () =>
      member.events.slice(before).find((e) => e.event === 'inspection_updated' && e.payload.id === inspection.id));
    expect(failed.payload.status).toBe('in_progress');
    expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, inspection.id)}/cancel`, undefined), 200);
    const canceled = await waitForValue('inspection_updated to canceled', () =>
      member.events.find((e) => e.payload?.id === inspection.id && e.payload.status === 'canceled'));
    expect(member.events.slice(before)).toEqual([failed, canceled]);
    expect(outsider.events).toEqual([]);
  });
});
