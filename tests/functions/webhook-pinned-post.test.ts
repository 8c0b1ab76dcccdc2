// The delivery's hand-written HTTP/1.1 POST (webhook-deliveries/pinned-post.ts) against receivers
// this file starts on loopback only (127.0.0.1 and ::1): the request as a receiver reads it, TLS
// checked against the URL's name while connected by address, the answer's status and first bytes
// through every framing, and the limits (head size, time). Names are never looked up here: a
// destination carries the address to connect to, and the one test through `send` answers its
// lookup with a stand-in for Deno.resolveDns (DNS is outside the product).
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { CheckedDestination } from '../../supabase/functions/_shared/webhook-urls.ts';
import { MAX_ANSWER_HEAD_BYTES, postPinned } from '../../supabase/functions/webhook-deliveries/pinned-post.ts';
import { send } from '../../supabase/functions/webhook-deliveries/worker.ts';

const KEPT = 2048;
const tlsDir = new URL('../fixtures/tls/', import.meta.url);
const cert = await Deno.readTextFile(new URL('hooks.fieldcheck.test.crt', tlsDir));
const key = await Deno.readTextFile(new URL('hooks.fieldcheck.test.key', tlsDir));

const destination = (url: string, address = '127.0.0.1'): CheckedDestination => {
  const parsed = new URL(url);
  return { url: parsed, hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), address, public: false };
};
const post = (url: string, address?: string, options: { body?: string; signal?: AbortSignal; caCerts?: string[] } = {}) =>
  postPinned({
    destination: destination(url, address),
    headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
    body: options.body ?? '{"type":"webhook.test"}',
    signal: options.signal ?? AbortSignal.timeout(5000),
    caCerts: options.caCerts,
  }, KEPT);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

interface Seen {
  method: string;
  url: string;
  host: string | null;
  headers: Headers;
  body: string;
}

/** A Deno.serve receiver on `hostname` that records each request and answers with `answer`. */
function receiver(hostname: string, answer: (req: Request) => Response = () => new Response('made', { status: 201 }), tls?: { cert: string; key: string }) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname, port: 0, onListen() {}, ...tls }, async (req) => {
    seen.push({ method: req.method, url: req.url, host: req.headers.get('host'), headers: req.headers, body: await req.text() });
    return answer(req);
  });
  return { seen, port: server.addr.port, close: () => server.shutdown() };
}

/** A TCP server on 127.0.0.1 that reads a request and writes `parts` as they are, one write each. */
function rawReceiver(parts: (string | Uint8Array)[], { answer = true } = {}) {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const closedByClient: boolean[] = [];
  const done = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(64 * 1024);
      await conn.read(buffer);
      if (answer) {
        for (const part of parts) {
          await conn.write(typeof part === 'string' ? new TextEncoder().encode(part) : part).catch(() => 0);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } else {
        // Never answers: reads until the client gives up and closes.
        closedByClient.push((await conn.read(buffer).catch(() => null)) === null);
      }
      try {
        conn.close();
      } catch {
        // The client closed it first.
      }
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    closedByClient,
    close: async () => {
      listener.close();
      await done.catch(() => {});
    },
  };
}

Deno.test('the request reaches the address given, with the URL name and port as Host, its path and query, and the body', async () => {
  for (const address of ['127.0.0.1', '::1']) {
    const server = receiver(address);
    try {
      const answer = await post(`http://receiver.fieldcheck.test:${server.port}/hooks/in?from=test`, address);
      assert.equal(answer.status, 201);
      assert.equal(text(answer.body), 'made');
      assert.equal(server.seen.length, 1);
      const [seen] = server.seen;
      assert.equal(seen.method, 'POST');
      assert.equal(seen.host, `receiver.fieldcheck.test:${server.port}`);
      assert.equal(new URL(seen.url).pathname + new URL(seen.url).search, '/hooks/in?from=test');
      assert.equal(seen.headers.get('content-type'), 'application/json');
      assert.equal(seen.headers.get('webhook-id'), 'msg_1');
      assert.equal(seen.body, '{"type":"webhook.test"}');
    } finally {
      await server.close();
    }
  }
});

Deno.test('over TLS the certificate is checked against the URL name, not the address connected to', async () => {
  const server = receiver('127.0.0.1', () => new Response('secure'), { cert, key });
  try {
    const answer = await post(`https://hooks.fieldcheck.test:${server.port}/in`, '127.0.0.1', { caCerts: [cert] });
    assert.equal(answer.status, 200);
    assert.equal(text(answer.body), 'secure');
    assert.equal(server.seen[0].host, `hooks.fieldcheck.test:${server.port}`);
    // The same address under another name: the certificate is not for it, so nothing is sent.
    await assert.rejects(post(`https://other.fieldcheck.test:${server.port}/in`, '127.0.0.1', { caCerts: [cert] }), /certificate|NotValidForName|invalid peer/i);
    // And without trusting the test certificate, the runtime's roots refuse it.
    await assert.rejects(post(`https://hooks.fieldcheck.test:${server.port}/in`, '127.0.0.1'), /certificate|UnknownIssuer|invalid peer/i);
    assert.equal(server.seen.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test('only the first 2 KB of an answer are read, whether it gives a length or comes in chunks', async () => {
  const big = 'x'.repeat(1024) + 'y'.repeat(100 * 1024);
  const streamed = () =>
    new Response(new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 700) controller.enqueue(new TextEncoder().encode(big.slice(i, i + 700)));
        controller.close();
      },
    }));
  for (const answer of [() => new Response(big), streamed]) {
    const server = receiver('127.0.0.1', answer);
    try {
      const { status, body } = await post(`http://receiver.fieldcheck.test:${server.port}/`);
      assert.equal(status, 200);
      assert.equal(text(body), big.slice(0, KEPT));
    } finally {
      await server.close();
    }
  }
});

Deno.test('answers framed every way HTTP/1.1 allows are read: interim answers, chunk extensions, bare line feeds, no length', async () => {
  const cases: [string, (string | Uint8Array)[], number, string][] = [
    ['100 Continue first', ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 202 Accepted\r\ncontent-length: 5\r\n\r\nqueue'], 202, 'queue'],
    ['chunks with extensions, split mid-line', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v', 'al\r\nhello\r\n', '6\r\n world\r\n0\r\n\r\n'], 200, 'hello world'],
    ['bare line feeds', ['HTTP/1.1 500 Oops\ncontent-length: 4\n\nfail'], 500, 'fail'],
    ['no length: read to the end', ['HTTP/1.0 404 Not Found\r\n\r\n', 'gone'], 404, 'gone'],
    ['a redirect is an answer, not followed', ['HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\n\r\n'], 302, ''],
    ['no content', ['HTTP/1.1 204 No Content\r\n\r\n'], 204, ''],
  ];
  for (const [name, parts, status, body] of cases) {
    const server = rawReceiver(parts);
    try {
      const answer = await post(`http://receiver.fieldcheck.test:${server.port}/`);
      assert.deepEqual([answer.status, text(answer.body)], [status, body], name);
    } finally {
      await server.close();
    }
  }
});

Deno.test('an answer whose head is over the limit, or that is not HTTP, or that never comes, is an error', async () => {
  const huge = rawReceiver(['HTTP/1.1 200 OK\r\n', `x-padding: ${'p'.repeat(MAX_ANSWER_HEAD_BYTES)}\r\n\r\nok`]);
  const notHttp = rawReceiver(['SSH-2.0-OpenSSH_9.6\r\n\r\n']);
  const closed = rawReceiver([]);
  try {
    await assert.rejects(post(`http://receiver.fieldcheck.test:${huge.port}/`), /longer than 65536 bytes/);
    await assert.rejects(post(`http://receiver.fieldcheck.test:${notHttp.port}/`), /not HTTP\/1\.1/);
    await assert.rejects(post(`http://receiver.fieldcheck.test:${closed.port}/`), /closed before an answer/);
  } finally {
    await Promise.all([huge.close(), notHttp.close(), closed.close()]);
  }
});

Deno.test('a receiver that never answers is cut off when the signal fires, and the connection is closed', async () => {
  const silent = rawReceiver([], { answer: false });
  try {
    const started = performance.now();
    await assert.rejects(post(`http://receiver.fieldcheck.test:${silent.port}/`, '127.0.0.1', { signal: AbortSignal.timeout(300) }), { name: 'TimeoutError' });
    assert.ok(performance.now() - started < 3000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(silent.closedByClient, [true]);
  } finally {
    await silent.close();
  }
});

Deno.test('send: a name checked once reaches the loopback receiver over TLS, signed; its answer is not kept (not a public address)', async () => {
  const server = receiver('127.0.0.1', () => new Response('from inside'), { cert, key });
  const realResolveDns = Deno.resolveDns;
  const lookups: string[] = [];
  (Deno as unknown as Record<string, unknown>).resolveDns = (hostname: string, type: string) => {
    lookups.push(`${hostname} ${type}`);
    return type === 'A' && hostname === 'hooks.fieldcheck.test' ? Promise.resolve(['127.0.0.1']) : Promise.reject(new Deno.errors.NotFound(type));
  };
  try {
    const secret = `whsec_${btoa('0123456789abcdef0123456789abcdef')}`;
    const claimed = { delivery_id: crypto.randomUUID(), url: `https://hooks.fieldcheck.test:${server.port}/in`, secret, event_id: crypto.randomUUID(), payload: { type: 'webhook.test', data: {} } };
    const outcome = await send(claimed, { allowPrivate: true }, new Date(), [cert]);
    assert.deepEqual({ ...outcome, duration_ms: 0 }, { status_code: 200, duration_ms: 0, response_body: null, error: null });
    assert.deepEqual(lookups.sort(), ['hooks.fieldcheck.test A', 'hooks.fieldcheck.test AAAA']);
    const [seen] = server.seen;
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, seen.headers.get(name)!]));
    assert.deepEqual(new Webhook(secret).verify(seen.body, headers), claimed.payload);
    // The hosted setting refuses the same name before anything is sent.
    const refused = await send(claimed, { allowPrivate: false }, new Date(), [cert]);
    assert.match(refused.error ?? '', /^Not sent: .*loopback/);
    assert.equal(server.seen.length, 1);
  } finally {
    (Deno as unknown as Record<string, unknown>).resolveDns = realResolveDns;
    await server.close();
  }
});
