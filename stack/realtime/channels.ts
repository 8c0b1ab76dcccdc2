// The channel protocol over one WebSocket, as Supabase Realtime's RealtimeChannel answers it:
// phx_join / phx_leave / heartbeat / broadcast / presence / access_token, replies, system
// messages and phx_close. Messages of one topic are handled in order, one at a time, as one
// Phoenix channel process would; different topics and the heartbeat do not wait for each other.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { WebSocket } from 'ws';
import { readPolicies, writePolicies } from './authorization.ts';
import type { Hub, Member } from './hub.ts';
import { encodeText, flag, isObject, type Inbound, type Outbound, type Ref, type Vsn } from './protocol.ts';
import type { Identity, TokenVerifier } from './tokens.ts';

export interface ChannelDeps {
  hub: Hub;
  sql: Sql;
  tokens: TokenVerifier;
  log: (message: string) => void;
  /** Whether database messages (realtime.send) are being received. */
  databaseListening(): boolean;
}

export interface SocketSession {
  receive(message: Inbound): void;
  /** The socket closed: every channel leaves. */
  closed(): void;
}

// setTimeout's ceiling is ~24.8 days; a token is re-checked at least hourly, as Realtime does.
const MAX_EXPIRY_CHECK_MS = 60 * 60 * 1000;

/** A stable integer id per postgres_changes binding, like Realtime's :erlang.phash2 (0..2^27). */
function bindingId(params: unknown): number {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(params)) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7ffffff;
}

function sameRef(a: Ref, b: Ref): boolean {
  return a !== null && b !== null && String(a) === String(b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const POSTGRES_CHANGES_UNAVAILABLE =
  'Postgres Changes are not available on the local stack; send database events with realtime.send() or realtime.broadcast_changes() and listen to them as broadcasts';

export function openSession(ws: WebSocket, vsn: Vsn, apiKey: Identity, deps: ChannelDeps): SocketSession {
  const { hub, sql, tokens, log } = deps;
  const channels = new Map<string, Member>();
  const queues = new Map<string, Promise<void>>();
  let open = true;

  const connection = {
    vsn,
    send(frame: string | Buffer) {
      if (open && ws.readyState === ws.OPEN) ws.send(frame);
    },
  };

  function push(message: Outbound): void {
    connection.send(encodeText(vsn, message));
  }

  function reply(request: Inbound, status: 'ok' | 'error', response: Record<string, unknown> = {}): void {
    push({ joinRef: request.joinRef, ref: request.ref, topic: request.topic, event: 'phx_reply', payload: { status, response } });
  }

  /** A server push on a joined channel carries its join ref and no ref (Phoenix.Channel.push). */
  function pushToChannel(member: Member, event: string, payload: unknown): void {
    push({ joinRef: member.joinRef, ref: null, topic: member.topic, event, payload });
  }

  function systemMessage(member: Member, extension: string, status: 'ok' | 'error', message: string): void {
    pushToChannel(member, 'system', { extension, status, message, channel: member.name });
  }

  function leaveChannel(member: Member): void {
    if (channels.get(member.topic) === member) channels.delete(member.topic);
    hub.remove(member);
  }

  /** Realtime's shutdown_response: a system error, then the channel stops and the client gets phx_close. */
  function shutdown(member: Member, message: string): void {
    if (channels.get(member.topic) !== member) return;
    systemMessage(member, 'system', 'error', message);
    leaveChannel(member);
    push({ joinRef: member.joinRef, ref: member.joinRef, topic: member.topic, event: 'phx_close', payload: {} });
  }

  function scheduleExpiry(member: Member): void {
    clearTimeout(member.expiryTimer);
    const delay = Math.min(Math.max(member.identity.exp * 1000 - Date.now(), 0), MAX_EXPIRY_CHECK_MS);
    member.expiryTimer = setTimeout(() => {
      const now = Math.floor(Date.now() / 1000);
      if (member.identity.exp <= now) shutdown(member, `Token has expired ${now - member.identity.exp} seconds ago`);
      else scheduleExpiry(member);
    }, delay);
    member.expiryTimer.unref();
  }

  /** The token a join acts with: its access_token (or legacy user_token); sb_ keys and none mean the API key. */
  async function joinIdentity(payload: Record<string, unknown>) {
    const token = payload.access_token ?? payload.user_token;
    if (typeof token !== 'string' || token.startsWith('sb_')) return { ok: true as const, identity: apiKey };
    return tokens.verify(token);
  }

  async function join(message: Inbound): Promise<void> {
    const { topic } = message;
    if (!topic.startsWith('realtime:')) {
      reply(message, 'error', { reason: 'unmatched topic' });
      return;
    }
    const name = topic.slice('realtime:'.length);
    if (name === '') {
      reply(message, 'error', { reason: 'TopicNameRequired: You must provide a topic name' });
      return;
    }
    // A second join of a joined topic replaces the first, as Phoenix does.
    const duplicate = channels.get(topic);
    if (duplicate) leaveChannel(duplicate);

    const payload = isObject(message.payload) ? message.payload : {};
    const config = isObject(payload.config) ? payload.config : undefined;
    const broadcast = isObject(config?.broadcast) ? config.broadcast : {};
    const presence = isObject(config?.presence) ? config.presence : {};
    const postgresChanges = Array.isArray(config?.postgres_changes) ? config.postgres_changes.filter((p) => p != null) : [];
    const waitForPostgresChanges = isObject(config?.postgres_changes_options) && flag(config.postgres_changes_options.wait);

    const checked = await joinIdentity(payload);
    if (!checked.ok) {
      reply(message, 'error', { reason: `${checked.code}: ${checked.message}` });
      return;
    }
    const presenceKey = typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID();
    const member: Member = {
      connection,
      topic,
      name,
      joinRef: message.joinRef ?? message.ref,
      isPrivate: flag(config?.private),
      selfBroadcast: flag(broadcast.self),
      ackBroadcast: flag(broadcast.ack),
      presenceKey: String(presenceKey),
      // Without any config Realtime turns presence on; otherwise the client's flag decides.
      presenceEnabled: config ? flag(presence.enabled) : true,
      identity: checked.identity,
    };

    if (member.isPrivate) {
      try {
        const read = await readPolicies(sql, name, member.identity);
        member.policies = { broadcastRead: read.broadcast, presenceRead: read.presence };
      } catch (error) {
        log(`Realtime: policy check for ${name} failed: ${(error as Error).message}`);
        member.policies = { broadcastRead: false, presenceRead: false };
      }
      const { broadcastRead, presenceRead } = member.policies;
      if (!broadcastRead && !(member.presenceEnabled && presenceRead)) {
        reply(message, 'error', { reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${name}` });
        return;
      }
    }
    if (postgresChanges.length > 0 && waitForPostgresChanges) {
      reply(message, 'error', { reason: `RealtimeDisabledForConfiguration: ${POSTGRES_CHANGES_UNAVAILABLE}` });
      return;
    }
    if (!open) return;

    channels.set(topic, member);
    hub.add(member);
    scheduleExpiry(member);
    // Echo each binding in order with an id, or the client reports a bindings mismatch.
    const bindings = postgresChanges.map((params) => (isObject(params) ? { ...params, id: bindingId(params) } : params));
    reply(message, 'ok', { postgres_changes: bindings });
    if (member.presenceEnabled && hub.seesPresence(member)) pushToChannel(member, 'presence_state', hub.presenceState(member));
    if (bindings.length > 0) systemMessage(member, 'postgres_changes', 'error', POSTGRES_CHANGES_UNAVAILABLE);
    if (flag(broadcast.replication_ready)) {
      if (deps.databaseListening()) systemMessage(member, 'system', 'ok', 'Replication connection established');
      else shutdown(member, 'Replication connection was not established in time');
    }
  }

  function leave(message: Inbound): void {
    reply(message, 'ok');
    const member = channels.get(message.topic);
    if (!member || (message.joinRef !== null && !sameRef(message.joinRef, member.joinRef))) return;
    leaveChannel(member);
    push({ joinRef: member.joinRef, ref: member.joinRef, topic: member.topic, event: 'phx_close', payload: {} });
  }

  /** Write policies are evaluated on a private channel's first send or track, then kept. */
  async function ensureWritePolicies(member: Member): Promise<boolean> {
    const policies = member.policies!;
    if (policies.broadcastWrite !== undefined) return true;
    try {
      const write = await writePolicies(sql, member.name, member.identity);
      policies.broadcastWrite = write.broadcast;
      policies.presenceWrite = write.presence;
      return true;
    } catch (error) {
      log(`Realtime: write policy check for ${member.name} failed: ${(error as Error).message}`);
      return false;
    }
  }

  async function broadcast(member: Member, message: Inbound): Promise<void> {
    if (member.isPrivate) {
      // Refused sends are dropped without a reply, so an ack'ing client times out, as on Supabase.
      if (!(await ensureWritePolicies(member)) || !member.policies!.broadcastWrite) return;
    }
    const body = isObject(message.payload) ? message.payload : {};
    const userBroadcast = message.userBroadcastPush === true;
    hub.broadcast(
      member.isPrivate,
      member.name,
      {
        event: typeof body.event === 'string' ? body.event : '',
        payload: body.payload,
        userBroadcast,
        envelope: userBroadcast ? undefined : body,
      },
      member.selfBroadcast ? undefined : member,
    );
    if (member.ackBroadcast) reply(message, 'ok');
  }

  async function presence(member: Member, message: Inbound): Promise<void> {
    const body = isObject(message.payload) ? message.payload : undefined;
    if (!body || typeof body.event !== 'string') {
      reply(message, 'ok');
      return;
    }
    const event = body.event.toLowerCase();
    if (event === 'untrack') {
      hub.untrack(member);
      reply(message, 'ok');
      return;
    }
    if (event !== 'track') {
      reply(message, 'error');
      return;
    }
    if (member.isPrivate && (!(await ensureWritePolicies(member)) || !member.policies!.presenceWrite)) {
      reply(message, 'error');
      return;
    }
    const payload = body.payload ?? {};
    if (!isObject(payload)) {
      reply(message, 'error', { reason: 'Presence track payload must be a map' });
      return;
    }
    if (member.tracked && deepEqual(member.tracked.payload, payload)) {
      reply(message, 'ok');
      return;
    }
    const firstPresence = !member.presenceEnabled;
    member.presenceEnabled = true;
    reply(message, 'ok');
    // A track that turns presence on gets the state it missed at join.
    if (firstPresence && hub.seesPresence(member)) pushToChannel(member, 'presence_state', hub.presenceState(member));
    hub.track(member, payload);
  }

  async function accessToken(member: Member, message: Inbound): Promise<void> {
    const token = isObject(message.payload) ? message.payload.access_token : undefined;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === member.identity.token) return;
    const checked = await tokens.verify(token);
    if (!checked.ok) {
      shutdown(member, checked.message);
      return;
    }
    member.identity = checked.identity;
    scheduleExpiry(member);
    if (!member.isPrivate) return;
    const previous = member.policies!;
    let read;
    try {
      read = await readPolicies(sql, member.name, member.identity);
    } catch (error) {
      log(`Realtime: policy check for ${member.name} failed: ${(error as Error).message}`);
      shutdown(member, 'Realtime was unable to connect to the project database');
      return;
    }
    const revoked = (previous.broadcastRead && !read.broadcast) || (member.presenceEnabled && previous.presenceRead && !read.presence);
    if (revoked) {
      shutdown(member, `You no longer have permission to read from this Channel topic: ${member.name}`);
      return;
    }
    member.policies = { broadcastRead: read.broadcast, presenceRead: read.presence };
  }

  async function handle(message: Inbound): Promise<void> {
    if (!open) return;
    if (message.event === 'phx_join') return join(message);
    if (message.event === 'phx_leave') return leave(message);
    const member = channels.get(message.topic);
    if (!member) {
      reply(message, 'error', { reason: 'unmatched topic' });
      return;
    }
    // Phoenix drops messages for an earlier join of the topic.
    if (message.joinRef !== null && !sameRef(message.joinRef, member.joinRef)) return;
    if (message.event === 'broadcast') return broadcast(member, message);
    if (message.event === 'presence') return presence(member, message);
    if (message.event === 'access_token') return accessToken(member, message);
    // Anything else gets no reply, as Realtime's catch-all handle_in.
  }

  return {
    receive(message) {
      if (message.topic === 'phoenix') {
        if (message.event === 'heartbeat') reply(message, 'ok');
        return;
      }
      const previous = queues.get(message.topic) ?? Promise.resolve();
      const next = previous
        .then(() => handle(message))
        .catch((error) => log(`Realtime: ${message.event} on ${message.topic} failed: ${(error as Error).stack ?? error}`));
      queues.set(message.topic, next);
      void next.then(() => {
        if (queues.get(message.topic) === next) queues.delete(message.topic);
      });
    },

    closed() {
      open = false;
      for (const member of channels.values()) hub.remove(member);
      channels.clear();
    },
  };
}
