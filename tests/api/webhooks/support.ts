// A webhook receiver started by the test, on this machine's loopback only (the local stack allows
// loopback addresses by its explicit setting), recording every delivery it gets; it can be told
// to fail for a while.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';

export interface Received {
  /** The request's path and query. */
  path: string;
  headers: Record<string, string>;
  body: string;
  json: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status the next deliveries get (200 unless told otherwise). */
  answerWith: (status: number, body?: string) => void;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let status = 200;
  let answer = 'ok';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body, json: JSON.parse(body) });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/fieldcheck`,
    received,
    answerWith: (next, body = next >= 300 ? 'receiver is down' : 'ok') => {
      status = next;
      answer = body;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a delivery's signature with the standardwebhooks library, as a receiver would; its payload. */
export function verified(secret: string, delivery: Received): any {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.headers['webhook-id'],
    'webhook-timestamp': delivery.headers['webhook-timestamp'],
    'webhook-signature': delivery.headers['webhook-signature'],
  });
}

/** Waits (the local scheduler wakes the worker every second) until `check` gives something; that. */
export async function eventually<T>(check: () => T | Promise<T>, timeout = 15_000): Promise<NonNullable<T>> {
  let result!: T;
  await expect.poll(async () => {
    result = await check();
    return Boolean(result);
  }, { timeout, interval: 200 }).toBe(true);
  return result as NonNullable<T>;
}
