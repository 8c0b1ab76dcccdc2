// A delivery's POST, sent to the one address the SSRF guard checked (issue 24 finding 4, DNS
// rebinding): TCP to that address, TLS with the URL's name as server name (SNI and the certificate
// check), the URL's host as Host, HTTP/1.1, and only the status and the first bytes of the answer
// read. fetch cannot do this in every runtime the worker runs in: it looks the name up itself, and
// neither Supabase's hosted edge runtime (Deno 2.1) nor Deno 2.9 offers a way to give it the address
// for an https URL (docs/webhooks.md, "Why the request is written by hand"). So the request is
// written here on Deno.connect and Deno.startTls, both of which the hosted runtime has: the small
// part of HTTP/1.1 a webhook needs (one POST with a length, `connection: close`, the status line,
// a length or chunked framing, the first 2 KB), every read bounded.
import type { CheckedDestination } from '../_shared/webhook-urls.ts';

/** An answer's status line and headers may take this much; a receiver that sends more is refused. */
export const MAX_ANSWER_HEAD_BYTES = 64 * 1024;
/** A chunk-size line longer than this (extensions included) is not an answer worth reading. */
const MAX_CHUNK_LINE_BYTES = 1024;
const READ_SIZE = 16 * 1024;

export interface PinnedPost {
  destination: CheckedDestination;
  /** Header names in lower case; Host, content-length and connection are written here. */
  headers: Record<string, string>;
  body: string;
  /** Ends the attempt wherever it is: connecting, the TLS handshake, writing or reading. */
  signal: AbortSignal;
  /** Tests only: certificates to trust besides the runtime's roots (a loopback TLS receiver). */
  caCerts?: string[];
}

export interface PinnedAnswer {
  status: number;
  /** The body's first bytes, at most as many as asked for; de-chunked. */
  body: Uint8Array;
}

type Connection = Pick<Deno.Conn, 'read' | 'write' | 'close'>;

/** Sends the POST to `destination.address` and reads the status and at most `keptBodyBytes` of the body. */
export async function postPinned({ destination, headers, body, signal, caCerts }: PinnedPost, keptBodyBytes: number): Promise<PinnedAnswer> {
  signal.throwIfAborted();
  const { url, hostname, address } = destination;
  const secure = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  let conn: Connection | undefined;
  const closeConnection = () => {
    try {
      conn?.close();
    } catch {
      // Already closed (the answer was read, or the handshake failed and took the socket with it).
    }
  };
  signal.addEventListener('abort', closeConnection, { once: true });
  try {
    const tcp = await untilAborted(Deno.connect({ hostname: address, port }), signal);
    conn = tcp;
    // The name, not the address, is the server name: SNI, and what the certificate must be for.
    if (secure) conn = await untilAborted(Deno.startTls(tcp, { hostname, caCerts, alpnProtocols: ['http/1.1'] }), signal);
    const bodyBytes = new TextEncoder().encode(body);
    await writeAll(conn, concat([new TextEncoder().encode(requestHead(url, headers, bodyBytes.length)), bodyBytes]));
    return await readAnswer(new AnswerReader(conn), keptBodyBytes);
  } catch (error) {
    // A read or write cut short by closing the connection reports that; the caller wants why.
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    signal.removeEventListener('abort', closeConnection);
    closeConnection();
  }
}

/** The request line and headers: the URL's path and query, its host (with the port it names) as Host. */
export function requestHead(url: URL, headers: Record<string, string>, bodyLength: number): string {
  const lines = [`POST ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) {
    // The worker's own headers; a line break would start a header nobody wrote.
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new Error(`The header ${JSON.stringify(name)} holds a line break`);
    lines.push(`${name}: ${value}`);
  }
  lines.push(`content-length: ${bodyLength}`, 'connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Resolves as `pending` does, or rejects when `signal` aborts first (closing what arrives late). */
function untilAborted<T extends { close(): void }>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      pending.then((late) => late.close(), () => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function writeAll(conn: Connection, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length;) offset += await conn.write(bytes.subarray(offset));
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Buffered reads from the connection, each bounded by its caller. */
class AnswerReader {
  #buffer: Uint8Array = new Uint8Array(0);
  #ended = false;

  constructor(private readonly conn: Connection) {}

  /** Reads once more; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#ended) return false;
    const chunk = new Uint8Array(READ_SIZE);
    const read = await this.conn.read(chunk);
    if (read === null) {
      this.#ended = true;
      return false;
    }
    this.#buffer = concat([this.#buffer, chunk.subarray(0, read)]);
    return true;
  }

  #take(length: number): Uint8Array {
    const taken = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return taken;
  }

  /**
   * Bytes up to and including the first place `endOf` finds (the index just past it), or null when
   * the stream ends first; `limit` bytes without it is an error.
   */
  async through(endOf: (buffer: Uint8Array) => number, limit: number, what: string): Promise<Uint8Array | null> {
    for (;;) {
      const end = endOf(this.#buffer);
      if (end !== -1 && end <= limit) return this.#take(end);
      if (end !== -1 || this.#buffer.length >= limit) throw new Error(`The answer's ${what} is longer than ${limit} bytes`);
      if (!(await this.#fill())) return null;
    }
  }

  /** `length` bytes, or fewer when the stream ends first. */
  async bytes(length: number): Promise<Uint8Array> {
    while (this.#buffer.length < length && (await this.#fill()));
    return this.#take(Math.min(length, this.#buffer.length)).slice();
  }
}

const LF = 0x0a;
const CR = 0x0d;

/** Just past the blank line that ends a head (CRLF CRLF, or bare LFs, which RFC 9112 lets a reader accept). */
function endOfHead(buffer: Uint8Array): number {
  for (let i = buffer.indexOf(LF); i !== -1; i = buffer.indexOf(LF, i + 1)) {
    if (buffer[i + 1] === LF) return i + 2;
    if (buffer[i + 1] === CR && buffer[i + 2] === LF) return i + 3;
  }
  return -1;
}

function endOfLine(buffer: Uint8Array): number {
  const i = buffer.indexOf(LF);
  return i === -1 ? -1 : i + 1;
}

const latin1 = new TextDecoder('latin1');

async function readAnswer(reader: AnswerReader, keptBodyBytes: number): Promise<PinnedAnswer> {
  for (;;) {
    const head = await reader.through(endOfHead, MAX_ANSWER_HEAD_BYTES, 'status line and headers');
    if (head === null) throw new Error('The connection closed before an answer');
    const [statusLine, ...headerLines] = latin1.decode(head).split(/\r?\n/);
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine)?.[1];
    if (!status) throw new Error(`The answer is not HTTP/1.1: ${JSON.stringify(statusLine.slice(0, 40))}`);
    const code = Number(status);
    // Interim answers (100 Continue, 103 Early Hints) come before the real one.
    if (code < 200) continue;
    const headers = new Map<string, string>();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    if (code === 204 || code === 304) return { status: code, body: new Uint8Array(0) };
    if (/(^|,)\s*chunked\s*$/i.test(headers.get('transfer-encoding') ?? '')) return { status: code, body: await readChunked(reader, keptBodyBytes) };
    const length = headers.get('content-length');
    const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : Infinity;
    return { status: code, body: await reader.bytes(Math.min(declared, keptBodyBytes)) };
  }
}

/** The first `keptBodyBytes` of a chunked body's data; what follows is never read. */
async function readChunked(reader: AnswerReader, keptBodyBytes: number): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let length = 0;
  while (length < keptBodyBytes) {
    const line = await reader.through(endOfLine, MAX_CHUNK_LINE_BYTES, 'chunk size line');
    if (line === null) break;
    const size = latin1.decode(line).split(';')[0].trim();
    if (!/^[0-9a-f]{1,8}$/i.test(size)) throw new Error('The answer\'s chunked body is malformed');
    if (size.match(/^0+$/)) break;
    const wanted = Math.min(parseInt(size, 16), keptBodyBytes - length);
    const data = await reader.bytes(wanted);
    kept.push(data);
    length += data.length;
    if (data.length < wanted || length >= keptBodyBytes) break;
    // The line break after the chunk's data.
    if ((await reader.through(endOfLine, MAX_CHUNK_LINE_BYTES, 'chunk end')) === null) break;
  }
  return concat(kept);
}
