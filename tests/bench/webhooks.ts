// Webhooks (issue 13 part 6), side by side in one run:
// 1. The outbox's cost per write: inserting a site in an organization with an endpoint (the
//    trigger writes an event and a delivery) against one without (one indexed lookup), alternating
//    rounds. The worker is not woken meanwhile, so deliveries do not compete with the writes.
// 2. Deliveries per second: the worker (claim, sign, POST, record) emptying the outbox into a
//    receiver on loopback, against the same number of signed POSTs sent straight from Node with the
//    same concurrency, which is what the receiver and the machine can take.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { Webhook } from 'standardwebhooks';
import { startStack } from '../../stack/server.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { load, type LoadResult, signUpBenchUser } from './measure.ts';

const WRITES_PER_ROUND = 500;
const ROUNDS = 3;
const CONCURRENCY = 10;
// The worker's claim size: its sends go out this many at a time.
const SEND_CONCURRENCY = 20;

export async function benchWebhooks(): Promise<void> {
  const dir = privateStackFolder('bench-webhooks-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: false, scheduler: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: CONCURRENCY, prepare: false, onnotice: () => {} });
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    const { accessToken } = await signUpBenchUser(stack, 'bench-webhooks');
    const createOrg = async (name: string) => {
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/orgs`, {
        method: 'POST',
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const hooked = await createOrg('Bench hooked');
    const quiet = await createOrg('Bench quiet');
    const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
    await sql`insert into public.webhook_endpoints (org_id, url, secret) values (${hooked}, ${url}, ${secret})`;

    const insertSite = (org: string) => async (_worker: number, n: number) => {
      await sql`insert into public.sites (org_id, name) values (${org}, ${`Site ${n} ${Math.random()}`})`;
    };
    await load(100, CONCURRENCY, insertSite(hooked)); // warm-up
    await load(100, CONCURRENCY, insertSite(quiet));
    const writes: Array<{ with: LoadResult; without: LoadResult }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      writes.push({ with: await load(WRITES_PER_ROUND, CONCURRENCY, insertSite(hooked)), without: await load(WRITES_PER_ROUND, CONCURRENCY, insertSite(quiet)) });
    }
    console.log(`\nOutbox: a site insert, ${WRITES_PER_ROUND} a round, ${CONCURRENCY} in flight (with an endpoint | without | ratio)`);
    for (const [i, round] of writes.entries()) {
      console.log(
        `  round ${i + 1}: p50 ${round.with.p50.toFixed(2)} | ${round.without.p50.toFixed(2)} ms (${(round.with.p50 / round.without.p50).toFixed(2)}×); ` +
          `${round.with.rps.toFixed(0)} | ${round.without.rps.toFixed(0)} writes/s (${(round.without.rps / round.with.rps).toFixed(2)}×)`,
      );
    }

    // 2. Empty the outbox with the worker, woken back to back as the scheduler would.
    const [{ pending }] = await sql`select count(*)::int as pending from public.webhook_deliveries where status = 'pending'`;
    const started = performance.now();
    for (;;) {
      await (await fetch(`${stack.config.apiUrl}/functions/v1/webhook-deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.config.serviceRoleKey}` },
      })).arrayBuffer();
      const [{ left }] = await sql`select count(*)::int as left from public.webhook_deliveries where status = 'pending'`;
      if (left === 0) break;
    }
    const workerSeconds = (performance.now() - started) / 1000;
    const signer = new Webhook(secret);
    const body = JSON.stringify({ type: 'site.created', timestamp: new Date().toISOString(), data: { id: crypto.randomUUID(), name: 'Bench' } });
    const direct = await load(pending, SEND_CONCURRENCY, async (_worker, n) => {
      const id = `msg_${n}`;
      const now = new Date();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, body) },
        body,
      });
      await response.arrayBuffer();
    });
    const workerRate = pending / workerSeconds;
    console.log(`\nDeliveries: ${pending} to a loopback receiver (the worker | signed POSTs straight from Node, ${SEND_CONCURRENCY} in flight | ratio)`);
    console.log(`  ${workerRate.toFixed(0)} | ${direct.rps.toFixed(0)} deliveries/s (direct ${(direct.rps / workerRate).toFixed(1)}× the worker); receiver got ${received}`);
  } finally {
    await sql.end();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
