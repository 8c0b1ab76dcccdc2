// Realtime's HTTP broadcast API, which supabase-js calls itself:
//   POST /api/broadcast                          {messages: [{topic, event, payload, private}]}
//     (channel.send() on a channel that is not joined)
//   POST /api/broadcast/<topic>/events/<event>   the body is the payload, JSON or raw bytes
//     (channel.httpSend())
// Both answer 202 with no body. The caller is the Authorization bearer, else the apikey; private
// messages need the caller's INSERT policy on realtime.messages, as a WebSocket send does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from 'postgres';
import { BodyTooLargeError, bearerToken, headerValue, readBody, sendJson } from '../http.ts';
import { writePolicies } from './authorization.ts';
import type { Hub } from './hub.ts';
import { BinaryPayload, flag, isObject } from './protocol.ts';
import type { Identity, TokenVerifier } from './tokens.ts';

export interface BroadcastApiDeps {
  hub: Hub;
  sql: Sql;
  tokens: TokenVerifier;
  log: (message: string) => void;
}

const MAX_BODY_BYTES = 3 * 1024 * 1024;

function accepted(res: ServerResponse): void {
  res.writeHead(202, { 'content-length': '0' });
  res.end();
}

async function caller(req: IncomingMessage, tokens: TokenVerifier): Promise<Identity | undefined> {
  const token = bearerToken(req) ?? headerValue(req, 'apikey');
  if (!token) return undefined;
  const checked = await tokens.apiKey(token);
  return checked.ok ? checked.identity : undefined;
}

export function createBroadcastApi(deps: BroadcastApiDeps) {
  const { hub, sql, tokens, log } = deps;

  async function mayWrite(topic: string, identity: Identity): Promise<boolean> {
    try {
      return (await writePolicies(sql, topic, identity)).broadcast;
    } catch (error) {
      log(`Realtime: write policy check for ${topic} failed: ${(error as Error).message}`);
      return false;
    }
  }

  async function batch(req: IncomingMessage, res: ServerResponse, identity: Identity): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8') || '{}');
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, { message: 'Payload too large' });
      return sendJson(res, 400, { message: 'Request body is not valid JSON' });
    }
    const messages = isObject(body) ? body.messages : undefined;
    if (!Array.isArray(messages) || messages.length === 0) {
      return sendJson(res, 422, { errors: { messages: ["can't be blank"] } });
    }
    const problems = messages.map((message) => {
      const errors: Record<string, string[]> = {};
      if (!isObject(message)) return { message: ['is invalid'] };
      if (typeof message.topic !== 'string' || message.topic === '') errors.topic = ["can't be blank"];
      if (typeof message.event !== 'string' || message.event === '') errors.event = ["can't be blank"];
      if (!isObject(message.payload)) errors.payload = message.payload == null ? ["can't be blank"] : ['is invalid'];
      return errors;
    });
    if (problems.some((errors) => Object.keys(errors).length > 0)) return sendJson(res, 422, { errors: { messages: problems } });

    // Private messages a caller may not send are skipped silently; the answer is still 202.
    const writable = new Map<string, boolean>();
    for (const message of messages as Array<Record<string, unknown>>) {
      const topic = message.topic as string;
      const isPrivate = flag(message.private);
      if (isPrivate) {
        if (!writable.has(topic)) writable.set(topic, await mayWrite(topic, identity));
        if (!writable.get(topic)) continue;
      }
      hub.broadcast(isPrivate, topic, { event: message.event as string, payload: message.payload, userBroadcast: false });
    }
    accepted(res);
  }

  async function single(req: IncomingMessage, res: ServerResponse, identity: Identity, topic: string, event: string, query: URLSearchParams): Promise<void> {
    const isPrivate = query.get('private') === 'true';
    if (!isPrivate && (query.has('persist') || query.has('persist[ttl]'))) {
      return sendJson(res, 422, { errors: { persist: ['can only be used on private channels'] } });
    }
    const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== 'application/json' && contentType !== 'application/octet-stream') {
      return sendJson(res, 415, { message: 'Content-Type must be application/json or application/octet-stream' });
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, { message: 'Payload too large' });
      throw error;
    }
    let payload: unknown;
    if (contentType === 'application/octet-stream') {
      payload = new BinaryPayload(raw);
    } else {
      try {
        const parsed = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
        // Phoenix's JSON parser puts a body that is not an object under `_json`.
        payload = isObject(parsed) ? parsed : { _json: parsed };
      } catch {
        return sendJson(res, 400, { message: 'Request body is not valid JSON' });
      }
    }
    if (isPrivate && !(await mayWrite(topic, identity))) return sendJson(res, 403, { message: 'Unauthorized' });
    hub.broadcast(isPrivate, topic, { event, payload, userBroadcast: true });
    accepted(res);
  }

  return async function handleBroadcastApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname.replace(/\/+$/, '');
    const singleMatch = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(path);
    if (path !== '/api/broadcast' && !singleMatch) return false;
    if (req.method !== 'POST') {
      sendJson(res, 405, { message: 'Method not allowed' });
      return true;
    }
    const identity = await caller(req, tokens);
    if (!identity) {
      sendJson(res, 401, { message: 'Unauthorized' });
      return true;
    }
    if (!singleMatch) {
      await batch(req, res, identity);
      return true;
    }
    let topic: string;
    let event: string;
    try {
      topic = decodeURIComponent(singleMatch[1]);
      event = decodeURIComponent(singleMatch[2]);
    } catch {
      sendJson(res, 404, { message: 'Not found' });
      return true;
    }
    await single(req, res, identity, topic, event, url.searchParams);
    return true;
  };
}
