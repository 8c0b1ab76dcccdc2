// Who is joined to what, and fan-out. A topic's subscribers are keyed by the channel name and
// the private flag: public and private channels of the same name are distinct, as on Supabase.
// Presence lives here too, per topic, keyed by each channel's presence key.
import { randomBytes } from 'node:crypto';
import { BinaryPayload, encodeText, encodeUserBroadcast, type Ref, type Vsn } from './protocol.ts';
import type { Identity } from './tokens.ts';

export interface Connection {
  vsn: Vsn;
  send(frame: string | Buffer): void;
}

/** A private channel's RLS answers; write answers are undefined until the first send or track. */
export interface ChannelPolicies {
  broadcastRead: boolean;
  presenceRead: boolean;
  broadcastWrite?: boolean;
  presenceWrite?: boolean;
}

/** One joined channel of one socket. */
export interface Member {
  connection: Connection;
  /** `realtime:<name>` */
  topic: string;
  /** The channel name, as policies see it through realtime.topic(). */
  name: string;
  joinRef: Ref;
  isPrivate: boolean;
  selfBroadcast: boolean;
  ackBroadcast: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  identity: Identity;
  /** Undefined for public channels. */
  policies?: ChannelPolicies;
  tracked?: { payload: Record<string, unknown>; meta: Record<string, unknown> };
  expiryTimer?: NodeJS.Timeout;
}

/** A broadcast to fan out; encoded at most once per framing however many subscribers get it. */
export interface Broadcast {
  event: string;
  payload: unknown;
  meta?: Record<string, unknown>;
  /** Sent to vsn 2.0.0 clients as a binary kind-4 frame (a kind-3 push or the single-message API). */
  userBroadcast: boolean;
  /** A client's JSON broadcast push, relayed as it came (Realtime relays the pushed map). */
  envelope?: Record<string, unknown>;
}

type Presences = Record<string, { metas: Record<string, unknown>[] }>;

function topicKey(isPrivate: boolean, name: string): string {
  return `${isPrivate ? 'private' : 'public'}:${name}`;
}

/** A unique presence ref, shaped like Phoenix's. */
function presenceRef(): string {
  return randomBytes(8).toString('base64url');
}

export interface Hub {
  add(member: Member): void;
  /** Removes a member; its presence leaves, which the remaining members are told. */
  remove(member: Member): void;
  broadcast(isPrivate: boolean, name: string, message: Broadcast, except?: Member): void;
  presenceState(member: Member): Presences;
  /** Tracks or re-tracks a member's presence and tells the topic. */
  track(member: Member, payload: Record<string, unknown>): void;
  untrack(member: Member): void;
  /** Whether a member receives presence updates. */
  seesPresence(member: Member): boolean;
  subscriberCount(): number;
}

export function createHub(): Hub {
  const topics = new Map<string, Set<Member>>();

  const membersOf = (member: Member) => topics.get(topicKey(member.isPrivate, member.name)) ?? new Set<Member>();

  // Public topics fan presence out to every subscriber; private ones only to members with
  // presence on and presence read allowed (Realtime's MessageDispatcher / PresenceHandler).
  const seesPresence = (member: Member) => !member.isPrivate || (member.presenceEnabled && member.policies?.presenceRead === true);

  function sendToAll(recipients: Iterable<Member>, topic: string, event: string, payload: unknown): void {
    const frames = new Map<Vsn, string>();
    for (const recipient of recipients) {
      const { vsn } = recipient.connection;
      let frame = frames.get(vsn);
      if (frame === undefined) {
        frame = encodeText(vsn, { joinRef: null, ref: null, topic, event, payload });
        frames.set(vsn, frame);
      }
      recipient.connection.send(frame);
    }
  }

  function presenceDiff(member: Member, joins: Presences, leaves: Presences): void {
    const recipients = [...membersOf(member)].filter(seesPresence);
    sendToAll(recipients, member.topic, 'presence_diff', { joins, leaves });
  }

  function untrack(member: Member): void {
    const tracked = member.tracked;
    if (!tracked) return;
    member.tracked = undefined;
    presenceDiff(member, {}, { [member.presenceKey]: { metas: [tracked.meta] } });
  }

  return {
    add(member) {
      const key = topicKey(member.isPrivate, member.name);
      let members = topics.get(key);
      if (!members) topics.set(key, (members = new Set()));
      members.add(member);
    },

    remove(member) {
      const key = topicKey(member.isPrivate, member.name);
      const members = topics.get(key);
      if (!members?.delete(member)) return;
      if (members.size === 0) topics.delete(key);
      clearTimeout(member.expiryTimer);
      untrack(member);
    },

    broadcast(isPrivate, name, message, except) {
      const members = topics.get(topicKey(isPrivate, name));
      if (!members) return;
      const frames = new Map<Vsn, string | Buffer | null>();
      for (const member of members) {
        if (member === except) continue;
        if (isPrivate && member.policies?.broadcastRead !== true) continue;
        const { vsn } = member.connection;
        let frame = frames.get(vsn);
        if (frame === undefined) {
          frame = encodeBroadcast(vsn, member.topic, message);
          frames.set(vsn, frame);
        }
        if (frame !== null) member.connection.send(frame);
      }
    },

    presenceState(member) {
      const state: Presences = {};
      for (const other of membersOf(member)) {
        if (!other.tracked) continue;
        (state[other.presenceKey] ??= { metas: [] }).metas.push(other.tracked.meta);
      }
      return state;
    },

    track(member, payload) {
      const previous = member.tracked;
      const meta: Record<string, unknown> = { ...payload, phx_ref: presenceRef() };
      if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
      member.tracked = { payload, meta };
      const key = member.presenceKey;
      presenceDiff(member, { [key]: { metas: [meta] } }, previous ? { [key]: { metas: [previous.meta] } } : {});
    },

    untrack,
    seesPresence,

    subscriberCount() {
      let count = 0;
      for (const members of topics.values()) count += members.size;
      return count;
    },
  };
}

/**
 * The frame a subscriber of `vsn` gets, or null when its framing cannot carry the message
 * (raw bytes for a vsn 1.0.0 client, which Supabase drops too).
 */
function encodeBroadcast(vsn: Vsn, topic: string, message: Broadcast): string | Buffer | null {
  const binary = message.payload instanceof BinaryPayload;
  if (vsn === '2.0.0' && message.userBroadcast) {
    const frame = encodeUserBroadcast(topic, message.event, message.payload);
    if (frame) return frame;
  }
  if (binary) return null;
  let payload = message.envelope;
  if (!payload) {
    payload = { type: 'broadcast', event: message.event, payload: message.payload };
    if (message.meta) payload.meta = message.meta;
  }
  return encodeText(vsn, { joinRef: null, ref: null, topic, event: 'broadcast', payload });
}
