// The live organization (issue 4): the database broadcasts every change of an organization's
// sites, members and settings on the private topic org:<id>, and RLS on realtime.messages lets
// exactly its members join. Real stack, real triggers, the unmodified supabase-js realtime client.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiData } from '../../support/api.ts';
import { signedInClient } from '../../support/clients.ts';
import { closeDb, db } from '../../support/database.ts';
import { insertMemberships } from '../../support/fixtures.ts';
import { waitForValue } from '../../support/realtime.ts';

const sql = db();
const channels: RealtimeChannel[] = [];

/** Joins `topic` as a private channel and reports the first outcome of the join. */
async function join(client: SupabaseClient, topic: string, onEvent?: (event: string, payload: any) => void) {
  // supabase-js hands back an already joined channel of the same topic, whose subscribe() then
  // never reports: each test starts from a fresh channel.
  for (const existing of client.getChannels().filter((c) => c.topic === `realtime:${topic}`)) {
    await client.removeChannel(existing);
  }
  const channel = client.channel(topic, { config: { private: true } });
  channels.push(channel);
  channel.on('broadcast', { event: '*' }, (message) => onEvent?.(message.event, message.payload));
  return new Promise<{ status: string; channel: RealtimeChannel }>((resolve) => {
    let settled = false;
    channel.subscribe((status) => {
      if (settled) return;
      settled = true;
      resolve({ status, channel });
    });
  });
}

let owner: SupabaseClient;
let inspector: SupabaseClient;
let outsider: SupabaseClient;
let orgId: string;
let inspectorId: string;

beforeAll(async () => {
  const o = await signedInClient({ displayName: 'Live Owner' });
  const i = await signedInClient({ displayName: 'Live Inspector' });
  const x = await signedInClient({ displayName: 'Live Outsider' });
  owner = o.client;
  inspector = i.client;
  outsider = x.client;
  inspectorId = i.user.id;
  orgId = (await apiData<{ id: string }>(owner, 'orgs', { method: 'POST', body: { name: 'Live Org' } })).id;
  await apiData(outsider, 'orgs', { method: 'POST', body: { name: 'Outsider Org' } });
  // Membership straight in the database: this file tests realtime, not invitations.
  await insertMemberships(orgId, [[inspectorId, 'inspector']]);
});

afterAll(async () => {
  await Promise.all(channels.map((c) => c.unsubscribe().catch(() => undefined)));
  for (const client of [owner, inspector, outsider]) await client?.removeAllChannels();
  await closeDb();
});

describe('the private organization topic', () => {
  it('admits a member of the organization', async () => {
    const { status } = await join(inspector, `org:${orgId}`);
    expect(status).toBe('SUBSCRIBED');
  });

  it("refuses a member of another organization, and a made-up topic", async () => {
    expect((await join(outsider, `org:${orgId}`)).status).toBe('CHANNEL_ERROR');
    expect((await join(inspector, 'org:not-a-uuid')).status).toBe('CHANNEL_ERROR');
  });

  it('delivers a site change made through the api to every member, with ids and no secrets', async () => {
    const received: Array<{ event: string; payload: any }> = [];
    expect((await join(inspector, `org:${orgId}`, (event, payload) => received.push({ event, payload }))).status).toBe('SUBSCRIBED');
    const site = await apiData<{ id: string }>(owner, `orgs/${orgId}/sites`, { method: 'POST', body: { name: 'Live Depot' } });
    await apiData(owner, `orgs/${orgId}/sites/${site.id}`, { method: 'PATCH', body: { address: '1 Live St' } });

    const created = await waitForValue('site_created', () => received.find((r) => r.event === 'site_created' && r.payload.id === site.id));
    const updated = await waitForValue('site_updated', () => received.find((r) => r.event === 'site_updated' && r.payload.id === site.id));
    expect(created.payload).toMatchObject({ entity: 'site', action: 'created', org_id: orgId, id: site.id });
    expect(Object.keys(updated.payload).sort()).toEqual(['action', 'actor_id', 'at', 'entity', 'id', 'org_id']);
    // Commit order: the create arrives before the update.
    expect(received.indexOf(created)).toBeLessThan(received.indexOf(updated));
  });

  it('tells members when someone joins, changes role or leaves', async () => {
    const received: Array<{ event: string; payload: any }> = [];
    expect((await join(owner, `org:${orgId}`, (event, payload) => received.push({ event, payload }))).status).toBe('SUBSCRIBED');
    await apiData(owner, `orgs/${orgId}/members/${inspectorId}`, { method: 'PATCH', body: { role: 'viewer' } });
    const changed = await waitForValue('member_updated', () => received.find((r) => r.event === 'member_updated'));
    expect(changed.payload).toMatchObject({ user_id: inspectorId, role: 'viewer' });
    await apiData(owner, `orgs/${orgId}/members/${inspectorId}`, { method: 'PATCH', body: { role: 'inspector' } });
  });

  it('does not deliver a change that was rolled back', async () => {
    const received: string[] = [];
    expect((await join(inspector, `org:${orgId}`, (event, payload) => received.push(`${event}:${payload.id}`))).status).toBe('SUBSCRIBED');
    const rolledBack = new Error('roll back on purpose');
    await expect(
      sql.begin(async (tx) => {
        await tx`update public.organizations set name = 'Never Seen' where id = ${orgId}`;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    await apiData(owner, `orgs/${orgId}`, { method: 'PATCH', body: { name: 'Live Org Renamed' } });
    await waitForValue('organization_updated', () => received.find((r) => r === `organization_updated:${orgId}`));
    expect(received.filter((r) => r === `organization_updated:${orgId}`)).toHaveLength(1);
  });
});
