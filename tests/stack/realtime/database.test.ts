// Broadcasts from the database: realtime.send() and realtime.broadcast_changes() reach the
// subscribers of their topic when the transaction commits, in commit order, and never when it
// rolls back. Private messages go to authorized private channels, public ones to public ones.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { closeClients, createTopicPolicies, mintAccessToken, clientWithToken, realtimeClient, sleep, subscribed, uniqueTopic, VSNS, waitFor } from './support.ts';

const prefix = `rt-db-${randomUUID().slice(0, 8)}`;
const schema = `rt_db_${randomUUID().slice(0, 8)}`;
const sql = database();
const reader = randomUUID();
let dropPolicies: () => Promise<void>;

beforeAll(async () => {
  dropPolicies = await createTopicPolicies(sql, prefix);
  // Admits `<prefix>-presence-only:<user>` for presence but not for broadcasts.
  await sql.unsafe(`
    create policy "${prefix} presence only" on realtime.messages for select to authenticated
      using (realtime.messages.extension = 'presence' and (select realtime.topic()) = '${prefix}-presence-only:' || (select auth.uid())::text);
  `);
  // A table whose trigger broadcasts its changes, as product migrations will do.
  await sql.unsafe(`
    create schema ${schema};
    create table ${schema}.notes (id int primary key, body text);
    create function ${schema}.broadcast_note() returns trigger language plpgsql as $$
    begin
      perform realtime.broadcast_changes('${prefix}:' || '${reader}:notes', tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
      return null;
    end $$;
    create trigger broadcast_note after insert or update or delete on ${schema}.notes
      for each row execute function ${schema}.broadcast_note();
  `);
});

afterAll(async () => {
  await sql.unsafe(`drop schema if exists ${schema} cascade; drop policy if exists "${prefix} presence only" on realtime.messages;`);
  await dropPolicies?.();
  await sql.end();
});

afterEach(closeClients);

/** A reader's private channel on `<prefix>:<reader>:<label>`, collecting broadcasts. */
async function privateListener(label: string, vsn: '1.0.0' | '2.0.0' = '2.0.0') {
  const topic = `${prefix}:${reader}:${label}`;
  const token = await mintAccessToken({ sub: reader });
  const received: any[] = [];
  const client = await clientWithToken(() => token, { vsn });
  await subscribed(client.channel(topic, { config: { private: true } }).on('broadcast', { event: '*' }, (m) => received.push(m)));
  return { topic, received };
}

describe.each(VSNS)('database broadcasts over vsn %s', (vsn) => {
  it('realtime.send in a committed transaction reaches the private topic’s subscribers, with the row id as meta and in the payload', async () => {
    const { topic, received } = await privateListener(`send-${vsn}`, vsn);
    await sql`select realtime.send(${sql.json({ inspection: 7 })}, 'inspection_submitted', ${topic}, true)`;
    await waitFor('the database broadcast', () => received.length === 1);
    const [row] = await sql`select id::text from realtime.messages where topic = ${topic} and event = 'inspection_submitted'`;
    // Current Supabase adds the message's id to a payload that has none (realtime.send).
    expect(received[0]).toEqual({ type: 'broadcast', event: 'inspection_submitted', payload: { inspection: 7, id: row.id }, meta: { id: row.id } });
  });
});

describe('database broadcasts', () => {
  it('messages arrive in commit order, not in the order they were sent', async () => {
    const { topic, received } = await privateListener('order');
    const first = await sql.reserve();
    const second = await sql.reserve();
    try {
      await first`begin`;
      await first`select realtime.send('{}'::jsonb, 'sent-first-committed-second', ${topic})`;
      await second`begin`;
      await second`select realtime.send('{}'::jsonb, 'sent-second-committed-first', ${topic})`;
      await second`commit`;
      await first`commit`;
    } finally {
      first.release();
      second.release();
    }
    await sql.begin(async (tx) => {
      for (const n of [1, 2, 3]) await tx`select realtime.send(${sql.json({ n })}, 'batch', ${topic})`;
    });
    await waitFor('five messages', () => received.length === 5);
    expect(received.map((m) => (m.event === 'batch' ? `batch-${m.payload.n}` : m.event))).toEqual([
      'sent-second-committed-first',
      'sent-first-committed-second',
      'batch-1',
      'batch-2',
      'batch-3',
    ]);
  });

  it('a send in a transaction that rolls back is never delivered', async () => {
    const { topic, received } = await privateListener('rollback');
    await sql
      .begin(async (tx) => {
        await tx`select realtime.send('{}'::jsonb, 'rolled-back', ${topic})`;
        throw new Error('abort');
      })
      .catch(() => undefined);
    await sql`select realtime.send('{}'::jsonb, 'committed', ${topic})`;
    await waitFor('the committed message', () => received.length >= 1);
    await sleep(100);
    expect(received.map((m) => m.event)).toEqual(['committed']);
  });

  it('private messages reach only private channels, public ones only public channels', async () => {
    const { topic, received: privateReceived } = await privateListener('visibility');
    const publicReceived: string[] = [];
    await subscribed(realtimeClient().channel(topic).on('broadcast', { event: '*' }, (m) => publicReceived.push(m.event)));
    await sql`select realtime.send('{}'::jsonb, 'for-private', ${topic}, true)`;
    await sql`select realtime.send('{}'::jsonb, 'for-public', ${topic}, false)`;
    await waitFor('both messages', () => privateReceived.length === 1 && publicReceived.length === 1);
    await sleep(100);
    expect(privateReceived.map((m) => m.event)).toEqual(['for-private']);
    expect(publicReceived).toEqual(['for-public']);
  });

  it('a private channel admitted for presence only does not receive broadcasts', async () => {
    const topic = `${prefix}-presence-only:${reader}`;
    const token = await mintAccessToken({ sub: reader });
    const presenceOnly: string[] = [];
    const service: string[] = [];
    const client = await clientWithToken(() => token);
    await subscribed(
      client.channel(topic, { config: { private: true, presence: { enabled: true } } }).on('broadcast', { event: '*' }, (m) => presenceOnly.push(m.event)),
    );
    await subscribed(realtimeClient({ key: stack.SERVICE_ROLE_KEY }).channel(topic, { config: { private: true } }).on('broadcast', { event: '*' }, (m) => service.push(m.event)));
    await sql`select realtime.send('{}'::jsonb, 'secret', ${topic})`;
    await waitFor('the service role’s copy', () => service.length === 1);
    await sleep(100);
    expect(presenceOnly).toEqual([]);
  });

  it('realtime.broadcast_changes from a trigger delivers the row change', async () => {
    const { received } = await privateListener('notes');
    await sql.unsafe(`insert into ${schema}.notes (id, body) values (1, 'first')`);
    await sql.unsafe(`update ${schema}.notes set body = 'second' where id = 1`);
    await sql.unsafe(`delete from ${schema}.notes where id = 1`);
    await waitFor('three changes', () => received.length === 3);
    expect(received.map((m) => m.event)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(received[0].payload).toEqual({
      operation: 'INSERT', table: 'notes', schema, record: { id: 1, body: 'first' }, old_record: null, id: received[0].meta.id,
    });
    expect(received[1].payload).toMatchObject({ operation: 'UPDATE', record: { id: 1, body: 'second' }, old_record: { id: 1, body: 'first' } });
    expect(received[2].payload).toMatchObject({ operation: 'DELETE', record: null, old_record: { id: 1, body: 'second' } });
  });

  it('a message too large for one notification is still delivered whole', async () => {
    const { topic, received } = await privateListener('large');
    const text = 'x'.repeat(20_000);
    await sql`select realtime.send(${sql.json({ text })}, 'large', ${topic})`;
    await sql`select realtime.send('{}'::jsonb, 'small-after', ${topic})`;
    await waitFor('both messages', () => received.length === 2);
    expect(received[0].payload.text).toHaveLength(20_000);
    expect(received.map((m) => m.event)).toEqual(['large', 'small-after']);
  });

  it('the service role receives private database messages without any policy', async () => {
    const topic = uniqueTopic('service-only');
    const received: string[] = [];
    await subscribed(realtimeClient({ key: stack.SERVICE_ROLE_KEY }).channel(topic, { config: { private: true } }).on('broadcast', { event: '*' }, (m) => received.push(m.event)));
    await sql`select realtime.send('{}'::jsonb, 'to-service', ${topic})`;
    await waitFor('the message', () => received.length === 1);
  });
});
