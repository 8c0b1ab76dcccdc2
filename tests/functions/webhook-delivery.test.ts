// The delivery worker's sends (issue 24 finding 4, DNS rebinding): a name is looked up once, the
// guard checks every address, and the request goes to the address that was checked, with the
// URL's name as Host and as the TLS server name; an answer from an address that is not public is
// not kept. DNS and the network are outside the product: these tests answer lookups with a stand-in
// for Deno.resolveDns and take the connection with a stand-in for Deno.connect / Deno.startTls, so
// nothing is sent anywhere (fetch is replaced too, and counted, so a send through it shows).
import assert from 'node:assert/strict';
import { send } from '../../supabase/functions/webhook-deliveries/worker.ts';

const hosted = { allowPrivate: false };
const localStack = { allowPrivate: true };

interface NetworkLog {
  lookups: { hostname: string; type: string }[];
  connects: { hostname: string; port: number }[];
  tlsNames: (string | undefined)[];
  written: string[];
  fetches: string[];
}

/** A connection that records what is written to it and answers `answer`. */
function fakeConn(answer: string, log: NetworkLog) {
  const bytes = new TextEncoder().encode(answer);
  let offset = 0;
  return {
    write: (chunk: Uint8Array) => {
      log.written.push(new TextDecoder().decode(chunk));
      return Promise.resolve(chunk.length);
    },
    read: (into: Uint8Array) => {
      if (offset >= bytes.length) return Promise.resolve(null);
      const part = bytes.subarray(offset, offset + into.length);
      into.set(part);
      offset += part.length;
      return Promise.resolve(part.length);
    },
    close: () => {},
  };
}

/**
 * Runs `fn` with DNS answered from `answers` (per name and record type, one answer per lookup in
 * turn, the last repeated: a name can rebind between lookups) and connections answered `answer`.
 */
async function withStubbedNetwork(
  answers: Record<string, { A?: string[][]; AAAA?: string[][] }>,
  answer: string,
  fn: (log: NetworkLog) => Promise<void>,
): Promise<void> {
  const log: NetworkLog = { lookups: [], connects: [], tlsNames: [], written: [], fetches: [] };
  const real = { resolveDns: Deno.resolveDns, connect: Deno.connect, startTls: Deno.startTls, fetch: globalThis.fetch };
  const stubbed = Deno as unknown as Record<string, unknown>;
  stubbed.resolveDns = (hostname: string, type: 'A' | 'AAAA') => {
    const turns = answers[hostname]?.[type] ?? [];
    const turn = log.lookups.filter((l) => l.hostname === hostname && l.type === type).length;
    log.lookups.push({ hostname, type });
    if (turns.length === 0) return Promise.reject(new Deno.errors.NotFound(`no ${type} record`));
    return Promise.resolve(turns[Math.min(turn, turns.length - 1)]);
  };
  stubbed.connect = (options: { hostname: string; port: number }) => {
    log.connects.push({ hostname: options.hostname, port: options.port });
    return Promise.resolve(fakeConn(answer, log));
  };
  stubbed.startTls = (conn: unknown, options: { hostname?: string }) => {
    log.tlsNames.push(options.hostname);
    return Promise.resolve(conn);
  };
  globalThis.fetch = (input: string | URL | Request) => {
    log.fetches.push(String(input instanceof Request ? input.url : input));
    return Promise.reject(new TypeError('no network in this test'));
  };
  try {
    await fn(log);
  } finally {
    Object.assign(stubbed, { resolveDns: real.resolveDns, connect: real.connect, startTls: real.startTls });
    globalThis.fetch = real.fetch;
  }
}

const delivery = (url: string) => ({
  delivery_id: crypto.randomUUID(),
  url,
  secret: `whsec_${btoa('0123456789abcdef0123456789abcdef')}`,
  event_id: crypto.randomUUID(),
  payload: { type: 'webhook.test', timestamp: new Date().toISOString(), data: {} },
});

Deno.test('a name is looked up once, and the request goes to the address that was checked, with the name as Host and TLS server name', async () => {
  // The first answer is public; every later one is the metadata address (DNS rebinding).
  const dns = { 'hooks.example.com': { A: [['93.184.216.34'], ['169.254.169.254']] } };
  await withStubbedNetwork(dns, 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok', async (log) => {
    const outcome = await send(delivery('https://hooks.example.com/in?x=1'), hosted);
    assert.equal(log.fetches.length, 0, `sent through fetch, which looks the name up again: ${log.fetches}`);
    assert.deepEqual(log.connects, [{ hostname: '93.184.216.34', port: 443 }]);
    assert.deepEqual(log.tlsNames, ['hooks.example.com']);
    assert.equal(log.lookups.filter((l) => l.type === 'A').length, 1);
    const request = log.written.join('');
    assert.match(request, /^POST \/in\?x=1 HTTP\/1\.1\r\n/);
    assert.match(request, /\r\nhost: hooks\.example\.com\r\n/i);
    assert.match(request, /\r\nwebhook-signature: v1,/i);
    assert.deepEqual(outcome, { ...outcome, status_code: 200, response_body: 'ok', error: null });
  });
});

Deno.test('a name that answers a private or metadata address at the check is refused, and nothing connects', async () => {
  const dns = { 'inside.example.com': { A: [['10.0.0.7']] }, 'meta.example.com': { AAAA: [['fd00:ec2::254']] } };
  await withStubbedNetwork(dns, 'HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecret', async (log) => {
    const inside = await send(delivery('https://inside.example.com/in'), hosted);
    assert.match(inside.error ?? '', /^Not sent: .*10\.0\.0\.7.*private/);
    const meta = await send(delivery('http://meta.example.com/in'), localStack);
    assert.match(meta.error ?? '', /^Not sent: .*metadata/);
    assert.equal(inside.response_body, null);
    assert.deepEqual(log.connects, []);
    assert.deepEqual(log.fetches, []);
  });
});

Deno.test('where the local setting lets a loopback address through, the request goes there but its answer is not kept', async () => {
  const dns = { 'receiver.test': { A: [['127.0.0.1'], ['10.9.9.9']] } };
  await withStubbedNetwork(dns, 'HTTP/1.1 200 OK\r\ncontent-length: 14\r\n\r\ninternal stuff', async (log) => {
    const outcome = await send(delivery('http://receiver.test:8080/hook'), localStack);
    assert.deepEqual(log.connects, [{ hostname: '127.0.0.1', port: 8080 }]);
    assert.deepEqual(log.tlsNames, []);
    assert.match(log.written.join(''), /\r\nhost: receiver\.test:8080\r\n/i);
    assert.equal(outcome.status_code, 200);
    assert.equal(outcome.response_body, null);
  });
});
