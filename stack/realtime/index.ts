// The local Realtime service for /realtime/v1: Supabase Realtime's Phoenix channel protocol
// (vsn 1.0.0 and 2.0.0) at /websocket, broadcast, presence, private channels authorized by RLS
// on realtime.messages, database broadcasts from realtime.send(), and the HTTP broadcast API.
// State is the open sockets in memory; everything durable is in Postgres.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { headerValue, parseServicePath, sendJson } from '../http.ts';
import type { Service, ServiceContext } from '../types.ts';
import { openSession } from './channels.ts';
import { listenForDatabaseMessages } from './database.ts';
import { createBroadcastApi } from './http.ts';
import { createHub } from './hub.ts';
import { decodeFrame, SUPPORTED_VSNS, type Vsn } from './protocol.ts';
import { createTokenVerifier, type Identity } from './tokens.ts';

const CLOSE_GOING_AWAY = 1001;

/** Refuses a WebSocket upgrade with a plain HTTP answer, as Phoenix does for a refused connect. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export async function createRealtimeService(context: ServiceContext): Promise<Service> {
  const { config, sql, signingKey, log } = context;
  const hub = createHub();
  const tokens = createTokenVerifier(config, signingKey);
  const database = await listenForDatabaseMessages(
    config,
    (message) => hub.broadcast(message.private, message.topic, { event: message.event, payload: message.payload, meta: { id: message.id }, userBroadcast: false }),
    log,
  );
  const broadcastApi = createBroadcastApi({ hub, sql, tokens, log });
  // realtime.messages is partitioned by day, as on Supabase, where Realtime's janitor keeps the
  // coming days' partitions: without today's, realtime.send() loses its message with a warning.
  const maintainPartitions = () =>
    sql`select realtime.local_stack_maintain_message_partitions()`.catch((error) =>
      log(`Realtime: could not maintain the partitions of realtime.messages: ${(error as Error).message}`),
    );
  await maintainPartitions();
  const partitionTimer = setInterval(maintainPartitions, 60 * 60 * 1000);
  partitionTimer.unref();
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  let closing: Promise<void> | undefined;

  function accept(ws: WebSocket, vsn: Vsn, apiKey: Identity): void {
    sockets.add(ws);
    const session = openSession(ws, vsn, apiKey, { hub, sql, tokens, log, databaseListening: database.listening });
    ws.on('message', (data, isBinary) => {
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      const message = decodeFrame(vsn, buffer, isBinary);
      if (message) session.receive(message);
      else log(`Realtime: ignored a frame that is not a vsn ${vsn} message`);
    });
    ws.on('close', () => {
      sockets.delete(ws);
      session.closed();
    });
    ws.on('error', (error) => log(`Realtime: socket error: ${error.message}`));
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse, path: string) {
      const url = parseServicePath(path);
      if (await broadcastApi(req, res, url)) return;
      if (url.pathname.replace(/\/+$/, '') === '/websocket') {
        sendJson(res, 400, { message: 'Connect with a WebSocket upgrade' });
        return;
      }
      sendJson(res, 404, { message: 'Not found' });
    },

    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string) {
      const url = parseServicePath(path);
      if (url.pathname.replace(/\/+$/, '') !== '/websocket') {
        refuseUpgrade(socket, 404, 'Not found');
        return;
      }
      const vsn = url.searchParams.get('vsn') ?? '1.0.0';
      if (!SUPPORTED_VSNS.includes(vsn)) {
        refuseUpgrade(socket, 400, `Unsupported protocol version ${vsn}; use 1.0.0 or 2.0.0`);
        return;
      }
      const key = url.searchParams.get('apikey') ?? headerValue(req, 'x-api-key') ?? headerValue(req, 'apikey');
      if (!key) {
        refuseUpgrade(socket, 403, 'No API key found in request');
        return;
      }
      socket.on('error', () => socket.destroy());
      tokens
        .apiKey(key)
        .then((checked) => {
          if (!checked.ok) {
            refuseUpgrade(socket, 403, `${checked.code}: ${checked.message}`);
            return;
          }
          // A socket that got here while the service was closing would hold up the gateway's close.
          if (socket.destroyed || closing) {
            socket.destroy();
            return;
          }
          wss.handleUpgrade(req, socket, head, (ws) => accept(ws, vsn as Vsn, checked.identity));
        })
        .catch((error) => {
          log(`Realtime: upgrade failed: ${(error as Error).stack ?? error}`);
          socket.destroy();
        });
    },

    close() {
      // The gateway asks first (WebSockets hold up its close), the stack's teardown again after.
      closing ??= closeAll();
      return closing;
    },
  };

  async function closeAll(): Promise<void> {
    const goodbyes = [...sockets].map(
      (ws) =>
        new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          ws.close(CLOSE_GOING_AWAY, 'Server shutting down');
          // A client that does not answer the close handshake is cut off.
          setTimeout(() => {
            ws.terminate();
            resolve();
          }, 500).unref();
        }),
    );
    await Promise.all(goodbyes);
    clearInterval(partitionTimer);
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await database.close();
  }
}
