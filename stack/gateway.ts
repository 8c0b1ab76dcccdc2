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
  // Keep-alive sockets of browsers and test clients must not hold up a stop.
  server.keepAliveTimeout = 5000;
  return server;
}
