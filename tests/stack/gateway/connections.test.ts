// Every request gets an HTTP answer (issue 24): a fuzz run saw keep-alive connections reset
// without an answer after 413 and 431 answers. A client that keeps its connection open sends a
// request the stack refuses before reading all of it — a body over the api's limit, headers over
// the gateway's — and then an ordinary request. The refusal must arrive whole, and the next
// request must be answered too: on the same connection after a 413, on a new one after a 431
// (which closes its connection, saying so, as a header overflow leaves nothing to parse on).
// Raw sockets over loopback, so nothing between the test and the gateway hides a reset. And an
// idle keep-alive connection stays open as long as Supabase's gateway keeps one.
import net from 'node:net';
import { Agent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

const api = new URL(stack.API_URL);
const OVER_THE_API_LIMIT = 2 * 1024 * 1024; // the api function reads at most 256 KB of JSON
const ROUNDS = 5;
let token: string;

beforeAll(async () => {
  token = (await signedInClient()).session.access_token;
});

interface Exchange {
  /** The status of every answer read, in order. */
  statuses: number[];
  /** How the connection ended: still open when we were done, closed cleanly (FIN), or reset. */
  ending: 'open' | 'closed' | 'reset' | 'timeout';
  /** The raw bytes read, for the assertion messages. */
  raw: string;
}

/**
 * Opens one connection, sends `requests` one after another (each once the previous answer is
 * complete) or all at once (`pipelined`), and reads until every request is answered, the
 * connection ends, or `timeoutMs` passes. Answers are framed by their Content-Length.
 */
function exchange(requests: Buffer[], options: { pipelined?: boolean; timeoutMs?: number } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(api.port), api.hostname);
    let buffer = Buffer.alloc(0);
    const statuses: number[] = [];
    let sent = 0;
    let settled = false;
    const finish = (ending: Exchange['ending']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses, ending, raw: buffer.toString('latin1').slice(0, 500) });
    };
    const timer = setTimeout(() => finish('timeout'), options.timeoutMs ?? 4000);
    const sendNext = () => {
      if (sent < requests.length) socket.write(requests[sent++]);
    };
    socket.on('connect', () => {
      if (options.pipelined) while (sent < requests.length) sendNext();
      else sendNext();
    });
    let parsed = 0;
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      // Parse every complete answer from `parsed` on.
      for (;;) {
        const headEnd = buffer.indexOf('\r\n\r\n', parsed);
        if (headEnd === -1) break;
        const head = buffer.subarray(parsed, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
        if (!Number.isFinite(length) || buffer.length < headEnd + 4 + length) break;
        statuses.push(Number(head.slice(9, 12)));
        parsed = headEnd + 4 + length;
        if (!options.pipelined) sendNext();
      }
      if (statuses.length === requests.length) finish('open');
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', () => finish('reset'));
  });
}

function post(path: string, bodyBytes: number, headers: Record<string, string> = {}): Buffer {
  const head = Object.entries({ host: api.host, 'content-type': 'application/json', 'content-length': String(bodyBytes), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n`), Buffer.alloc(bodyBytes, 'a')]);
}

function chunkedPost(path: string, bodyBytes: number, headers: Record<string, string>): Buffer {
  const head = Object.entries({ host: api.host, 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([
    Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n${bodyBytes.toString(16)}\r\n`),
    Buffer.alloc(bodyBytes, 'a'),
    Buffer.from('\r\n0\r\n\r\n'),
  ]);
}

function get(path: string, headers: Record<string, string> = {}): Buffer {
  const head = Object.entries({ host: api.host, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.from(`GET ${path} HTTP/1.1\r\n${head}\r\n`);
}

const asUser = () => ({ apikey: stack.ANON_KEY, authorization: `Bearer ${token}` });

describe('a request refused before its body is read', () => {
  // The api refuses a declared 2 MB body at once, from its Content-Length, and a chunked one after
  // reading 256 KB of it; the rest is still on its way.
  const cases = [
    ['with a declared length', () => post('/functions/v1/api/orgs', OVER_THE_API_LIMIT, asUser())],
    ['sent in chunks', () => chunkedPost('/functions/v1/api/orgs', OVER_THE_API_LIMIT, asUser())],
  ] as const;

  for (const [name, refused] of cases) {
    it(`${name}: the 413 arrives and the next request on the same connection is answered`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const outcome = await exchange([refused(), get('/functions/v1/api/me', asUser())]);
        expect(outcome, `round ${round + 1}: ${outcome.raw}`).toMatchObject({ statuses: [413, 200], ending: 'open' });
      }
    });

    it(`${name}: pipelined, the request behind it is answered too`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const outcome = await exchange([refused(), get('/functions/v1/api/me', asUser())], { pipelined: true });
        expect(outcome, `round ${round + 1}: ${outcome.raw}`).toMatchObject({ statuses: [413, 200], ending: 'open' });
      }
    });
  }

  it('refused for its token (a 401 before the body is read), the next request on the same connection is answered', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const outcome = await exchange([post('/functions/v1/api/orgs', OVER_THE_API_LIMIT, { authorization: 'Bearer not-a-token' }), get('/functions/v1/api/me', asUser())]);
      expect(outcome, `round ${round + 1}: ${outcome.raw}`).toMatchObject({ statuses: [401, 200], ending: 'open' });
    }
  });
});

describe('an idle keep-alive connection', () => {
  it('is still open after 7 s, so a client that was busy a while is answered on it', async () => {
    // Node closed idle connections after 6 s; a client whose event loop was busy past that (a
    // test compiling TypeScript) then sent its next request into the closed connection.
    const socket = net.connect(Number(api.port), api.hostname);
    const answers: string[] = [];
    let ended = false;
    socket.on('data', (chunk) => answers.push(chunk.toString('latin1')));
    socket.on('end', () => (ended = true));
    socket.on('error', () => (ended = true));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(get('/health'));
    await expect.poll(() => answers.join('')).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 7000));
    expect(ended).toBe(false);
    socket.write(get('/health'));
    await expect.poll(() => answers.join('').match(/HTTP\/1\.1 200/g)?.length).toBe(2);
    socket.destroy();
  }, 20_000);
});

describe('headers over the gateway limit', () => {
  const oversized = () => get('/functions/v1/api/me', { ...asUser(), 'x-padding': 'p'.repeat(100 * 1024) });

  it('get a whole 431 and a clean close, never a reset, however much is still to come', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const outcome = await exchange([oversized(), get('/health')], { pipelined: true });
      expect(outcome, `round ${round + 1}: ${outcome.raw}`).toMatchObject({ statuses: [431], ending: 'closed' });
      expect(outcome.raw).toMatch(/\r\nconnection: close\r\n/i);
    }
  });

  it('a keep-alive client gets its 431, then an answer to its next request', async () => {
    const client = new Agent({ keepAliveTimeout: 10_000 });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const refused = await request(`${stack.API_URL}/functions/v1/api/me`, { dispatcher: client, headers: { ...asUser(), 'x-padding': 'p'.repeat(100 * 1024) } });
        expect(refused.statusCode).toBe(431);
        expect(await refused.body.json()).toEqual({ message: 'Request header fields too large' });
        const next = await request(`${stack.API_URL}/functions/v1/api/me`, { dispatcher: client, headers: asUser() });
        expect(next.statusCode).toBe(200);
        await next.body.dump();
      }
    } finally {
      await client.close();
    }
  });
});
