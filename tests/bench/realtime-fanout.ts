// Realtime fan-out: one database change — realtime.send() in a committed transaction — delivered
// to 100 subscribers of one private topic, against the same with 1 subscriber, side by side.
// Subscribers are unmodified supabase-js clients (vsn 2.0.0, one socket each) running in this
// process beside the stack, so their own message handling is part of every figure. Latency is
// from just before COMMIT is sent to the subscriber's broadcast callback.
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import postgres from 'postgres';
import { loadSigningKey } from '../../stack/keys.ts';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { percentile } from './measure.ts';

const ROUNDS = 20;
const WARM_UP_ROUNDS = 3;
const FAN_OUT = 100;

interface Group {
  topic: string;
  clients: SupabaseClient[];
  /** Receipt times of the current round, one per subscriber. */
  receipts: number[];
}

export async function benchRealtimeFanout(options: { json?: boolean } = {}): Promise<Record<string, number>> {
  const dir = privateStackFolder('bench-realtime-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: 2, onnotice: () => {} });
  const groups: Group[] = [];
  try {
    await sql.unsafe(`
      create policy "bench fan-out readers" on realtime.messages for select to authenticated
        using (realtime.messages.extension = 'broadcast' and (select realtime.topic()) like 'bench-fanout:%');
    `);
    const key = await loadSigningKey(stack.config.dataDir);
    const token = await new SignJWT({ sub: randomUUID(), role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(key.privateKey);

    async function subscribeGroup(size: number): Promise<Group> {
      const group: Group = { topic: `bench-fanout:${randomUUID()}`, clients: [], receipts: [] };
      await Promise.all(
        Array.from({ length: size }, async () => {
          const client = createClient(stack.config.apiUrl, stack.config.anonKey, {
            accessToken: async () => token,
            auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          });
          group.clients.push(client);
          await client.realtime.setAuth();
          await new Promise<void>((resolve, reject) => {
            client
              .channel(group.topic, { config: { private: true } })
              .on('broadcast', { event: 'change' }, () => group.receipts.push(performance.now()))
              .subscribe((status, error) => {
                if (status === 'SUBSCRIBED') resolve();
                else reject(new Error(`Subscriber could not join: ${status} ${error?.message ?? ''}`));
              });
          });
        }),
      );
      groups.push(group);
      return group;
    }

    /** One committed realtime.send; the latency (ms) of each subscriber's receipt. */
    async function round(group: Group, n: number): Promise<number[]> {
      group.receipts = [];
      let committing = 0;
      await sql.begin(async (tx) => {
        await tx`select realtime.send(${sql.json({ n })}, 'change', ${group.topic}, true)`;
        committing = performance.now();
      });
      const deadline = Date.now() + 10_000;
      while (group.receipts.length < group.clients.length) {
        if (Date.now() > deadline) throw new Error(`Only ${group.receipts.length} of ${group.clients.length} subscribers got message ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return group.receipts.map((t) => t - committing);
    }

    const single = await subscribeGroup(1);
    const many = await subscribeGroup(FAN_OUT);
    for (let i = 0; i < WARM_UP_ROUNDS; i++) {
      await round(single, -1);
      await round(many, -1);
    }
    const singleLatencies: number[] = [];
    const manyLatencies: number[] = [];
    const manyLast: number[] = [];
    // Alternating rounds, so drift on a shared machine affects both sides alike.
    for (let i = 0; i < ROUNDS; i++) {
      singleLatencies.push(...(await round(single, i)));
      const latencies = await round(many, i);
      manyLatencies.push(...latencies);
      manyLast.push(Math.max(...latencies));
    }
    for (const list of [singleLatencies, manyLatencies, manyLast]) list.sort((a, b) => a - b);

    const figures = {
      'realtime.fanout_1_p50_ms': Number(percentile(singleLatencies, 50).toFixed(2)),
      'realtime.fanout_1_p99_ms': Number(percentile(singleLatencies, 99).toFixed(2)),
      [`realtime.fanout_${FAN_OUT}_p50_ms`]: Number(percentile(manyLatencies, 50).toFixed(2)),
      [`realtime.fanout_${FAN_OUT}_p99_ms`]: Number(percentile(manyLatencies, 99).toFixed(2)),
    };
    if (options.json) return figures;
    const ms = (x: number) => `${x.toFixed(2)} ms`;
    console.log(`\nRealtime fan-out: realtime.send() in a transaction → private topic, ${ROUNDS} rounds (supabase-js subscribers, vsn 2.0.0)`);
    console.log(`  1 subscriber:     p50 ${ms(percentile(singleLatencies, 50))}, p99 ${ms(percentile(singleLatencies, 99))}`);
    console.log(
      `  ${FAN_OUT} subscribers:  p50 ${ms(percentile(manyLatencies, 50))}, p99 ${ms(percentile(manyLatencies, 99))} per delivery; ` +
        `last of ${FAN_OUT}: p50 ${ms(percentile(manyLast, 50))}, p99 ${ms(percentile(manyLast, 99))}`,
    );
    console.log(
      `  ratio ${FAN_OUT} : 1 — p50 ${(percentile(manyLatencies, 50) / percentile(singleLatencies, 50)).toFixed(1)}×, ` +
        `p99 ${(percentile(manyLatencies, 99) / percentile(singleLatencies, 99)).toFixed(1)}× (issue 15's goal for ${FAN_OUT}: p50 ≤ 20 ms, p99 ≤ 100 ms)`,
    );
    return figures;
  } finally {
    await Promise.all(groups.flatMap((group) => group.clients.map((client) => client.removeAllChannels().catch(() => undefined))));
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run on its own: node tests/bench/realtime-fanout.ts
if (import.meta.filename === process.argv[1]) await benchRealtimeFanout();
