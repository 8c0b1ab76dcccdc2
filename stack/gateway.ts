// The API gateway on port 54321: routes by URL prefix to the stack's services, like Kong does
// for `supabase start`. It adds CORS for the platform services (functions answer their own
// CORS, as on Supabase) and turns an unexpected service failure into a JSON 500.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Service } from './types.ts';
import { sendJson } from './http.ts';

export interface Route {
  prefix: string;
  service: Service;
  /** Whether the gateway answers CORS for this prefix (true for auth, storage, realtime). */
  cors: boolean;
}

// Request headers supabase-js and browsers send (wire contracts §1.4).
const ALLOWED_HEADERS = [
  'authorization', 'apikey', 'x-client-info', 'content-type', 'x-supabase-api-version', 'x-upsert',
  'cache-control', 'x-metadata', 'content-encoding', 'x-region', 'traceparent', 'tracestate', 'baggage',
  'prefer', 'range', 'accept-profile', 'content-profile', 'x-request-id',
].join(', ');
const EXPOSED_HEADERS = [
  'X-Supabase-Api-Version', 'x-relay-error', 'content-disposition', 'x-total-count', 'link', 'x-request-id', 'retry-after',
].join(', ');

function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '3600',
    vary: 'Origin',
  };
}

function findRoute(routes: Route[], url: string): { route: Route; rest: string } | undefined {
  for (const route of routes) {
    if (url === route.prefix || url.startsWith(route.prefix + '/') || url.startsWith(route.prefix + '?')) {
      return { route, rest: url.slice(route.prefix.length) || '/' };
    }
  }
  return undefined;
}

// How long a connection refused for its headers may still send before it is cut off.
const LINGER_MS = 2000;

/** The answer to a request Node's parser refused, by the parser's error code. */
function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'Request header fields too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Request timeout' };
  return { status: 400, message: 'Bad request' };
}

/**
 * Answers a request that Node's HTTP parser refused (headers over the limit, malformed, too
 * slow), then closes its connection without a reset. Node's own handler writes a body-less
 * answer framed only by the connection's end and destroys the socket at once; whatever the
 * client was still sending (the rest of its headers, the requests behind it) is then unread,
 * and closing with unread data makes the kernel send a reset, which throws the answer away
 * before the client has read it. Here the answer has a length and says `Connection: close`
 * (the parser cannot find the next request after a broken one, so the client must send it on a
 * new connection), and the connection lingers, reading and dropping, until the client closes it.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, closing: WeakSet<Duplex>): void {
  // The parser reports each further chunk of a refused connection again: it is answered once.
  if (closing.has(socket)) return;
  closing.add(socket);
  // Gone already, or an earlier answer on this connection has begun: nothing can be written
  // without corrupting it (Node's own rule), so the connection is cut.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error.code);
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.on('data', () => {});
  socket.resume();
  const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
  cutOff.unref();
  socket.once('close', () => clearTimeout(cutOff));
}

export function createGateway(routes: Route[], log: (m: string) => void): http.Server {
  const server = http.createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url === '/health' || url === '/') {
      sendJson(res, 200, { status: 'ok', services: routes.map((r) => r.prefix) });
      return;
    }
    const match = findRoute(routes, url);
    if (!match) {
      sendJson(res, 404, { message: 'no Route matched with those values' });
      return;
    }
    if (match.route.cors) {
      for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
      if (req.method === 'OPTIONS') {
        res.writeHead(204);
        res.end();
        return;
      }
    }
    try {
      await match.route.service.handle(req, res, match.rest);
    } catch (error) {
      log(`Unhandled error in ${match.route.prefix}${match.rest}: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) sendJson(res, 500, { code: 'unexpected_failure', message: 'Unexpected failure' });
      else res.destroy();
    }
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = findRoute(routes, req.url ?? '/');
    if (!match?.route.service.upgrade) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    match.route.service.upgrade(req, socket, head, match.rest);
  });
  const closing = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, closing));
  // Idle keep-alive connections stay open as long as nginx keeps them by default (75 s; Kong,
  // Supabase's gateway, is built on nginx). Node's default, 5 s (+ 1 s), closed them while clients
  // still meant to use them: a client busy for a few seconds (a test compiling TypeScript) found
  // its pooled connection gone only when its next request was reset — "Failed to send a request
  // to the Edge Function" (issue 24). A stop closes them all (closeAllConnections) however long.
  server.keepAliveTimeout = 75_000;
  return server;
}
