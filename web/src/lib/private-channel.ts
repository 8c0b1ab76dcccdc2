import type { RealtimeChannel } from '@supabase/supabase-js';
import { newIdempotencyKey } from './idempotency-key';
import { loadedSupabase, supabaseLoaded } from './supabase';

export interface PrivateChannelListener<Event, Presence> {
  onEvent?: (event: Event) => void;
  /** Joined; `resumed` after a lost connection or a refused join, when events may have been missed. */
  onJoined?: (resumed: boolean) => void;
  /** The server answered the join with a refusal: the topic's row may be gone, or the user removed. */
  onRefused?: () => void;
  onPresence?: (presences: Presence[]) => void;
}

/** What differs between topics: how a broadcast and a presence are read. */
export interface PrivateChannelTopic<Event, Presence> {
  /** The realtime topic, e.g. `org:<id>`. */
  name: string;
  /** The typed event of a broadcast, or null for one this client does not know. */
  parseEvent: (event: string, payload: unknown) => Event | null;
  /** The typed presence of a tab's tracked state, or null for a malformed one. */
  parsePresence: (meta: unknown) => Presence | null;
}

export interface PrivateChannelWatch<Presence> {
  /** Stops listening; the subscription closes shortly after its last watcher stops. */
  stop: () => void;
  /** Shares this tab's presence (null: none), now and after every rejoin. */
  track: (presence: Presence | null) => void;
}

// Delays before joining again after a failure; jittered so many tabs don't return at once.
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];
// A channel nobody uses any more stays open this long: React's StrictMode and redirects release and re-acquire at once.
const CLOSE_GRACE_MS = 250;

// Tells this tab's presence apart from the same user's other tabs.
const tabId = newIdempotencyKey();

/** A join refused by the server carries its reply as the cause; a lost socket or a timeout does not. */
function isRefusal(error: Error | undefined): boolean {
  const cause = error?.cause as { reason?: unknown; code?: unknown } | undefined;
  return typeof cause === 'object' && cause !== null && typeof cause.reason === 'string' && typeof cause.code !== 'number';
}

/**
 * The one subscription of this tab to a private topic: joins as the signed-in user, rejoins with
 * backoff after an error, a timeout or a close it did not ask for, and carries this tab's presence.
 */
class PrivateChannel<Event, Presence> {
  readonly presenceKey: string;
  private readonly topic: PrivateChannelTopic<Event, Presence>;
  private readonly listeners = new Set<PrivateChannelListener<Event, Presence>>();
  private channel: RealtimeChannel | null = null;
  private joined = false;
  private joinedBefore = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closeTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private tracked: Presence | null = null;
  private presences: Presence[] = [];

  constructor(topic: PrivateChannelTopic<Event, Presence>, userId: string) {
    this.topic = topic;
    this.presenceKey = `${userId}:${tabId}`;
    void this.join();
  }

  get isClosed() {
    return this.closed;
  }

  get currentPresences() {
    return this.presences;
  }

  add(listener: PrivateChannelListener<Event, Presence>) {
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.closeTimer = null;
    this.listeners.add(listener);
  }

  remove(listener: PrivateChannelListener<Event, Presence>) {
    this.listeners.delete(listener);
    if (this.listeners.size === 0 && !this.closeTimer) {
      this.closeTimer = setTimeout(() => {
        this.closeTimer = null;
        if (this.listeners.size === 0) this.close();
      }, CLOSE_GRACE_MS);
    }
  }

  setTracked(presence: Presence | null) {
    this.tracked = presence;
    if (!this.joined || !this.channel) return;
    void (presence ? this.channel.track(presence as Record<string, unknown>) : this.channel.untrack());
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.listeners.clear();
    this.dropChannel();
    if (channels.get(this.topic.name) === this) channels.delete(this.topic.name);
  }

  private async join() {
    this.retryTimer = null;
    await (leavingByTopic.get(this.topic.name) ?? Promise.resolve());
    let supabase;
    try {
      // Live updates join once supabase-js has loaded after the first screen (lib/auth.ts): the
      // page reads its data first, and a join refetches what changed before it (docs/realtime.md).
      supabase = await supabaseLoaded();
      // The join carries the token realtime holds: make it the current session's (it lags after an MFA step-up).
      const { data } = await supabase.auth.getSession();
      if (this.closed || !data.session) return;
      await supabase.realtime.setAuth();
    } catch {
      this.scheduleRetry();
      return;
    }
    if (this.closed) return;

    const channel = supabase.channel(this.topic.name, {
      config: { private: true, presence: { key: this.presenceKey, enabled: true } },
    });
    this.channel = channel;
    channel.on('broadcast', { event: '*' }, (message) => {
      if (channel !== this.channel) return;
      const event = this.topic.parseEvent(String(message.event), message.payload);
      if (event !== null) for (const listener of this.listeners) listener.onEvent?.(event);
    });
    // Registered before subscribe: supabase-js asks the server for presence only when a presence listener exists at join.
    channel.on('presence', { event: 'sync' }, () => {
      if (channel === this.channel) this.readPresence(channel);
    });
    channel.subscribe((status, error) => {
      if (channel === this.channel) this.onStatus(status, error);
    });
  }

  private onStatus(status: string, error: Error | undefined) {
    if (status === 'SUBSCRIBED') {
      const resumed = this.joinedBefore || this.failures > 0;
      this.joined = true;
      this.joinedBefore = true;
      this.failures = 0;
      if (this.tracked) void this.channel?.track(this.tracked as Record<string, unknown>);
      for (const listener of this.listeners) listener.onJoined?.(resumed);
      return;
    }
    // CHANNEL_ERROR, TIMED_OUT, or CLOSED by the server (our own leave has dropped the channel already).
    const refused = status === 'CHANNEL_ERROR' && isRefusal(error);
    this.dropChannel();
    if (this.listeners.size === 0) {
      this.close();
      return;
    }
    if (refused) for (const listener of this.listeners) listener.onRefused?.();
    this.scheduleRetry();
  }

  private scheduleRetry() {
    if (this.closed) return;
    const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)];
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.join(), delay * (0.8 + Math.random() * 0.4));
  }

  private dropChannel() {
    const channel = this.channel;
    this.channel = null;
    this.joined = false;
    this.setPresences([]);
    // Leaving also stops realtime-js's own rejoin timer: retries are ours, with our backoff.
    if (!channel) return;
    const topic = this.topic.name;
    const leaving = Promise.all([leavingByTopic.get(topic), (loadedSupabase()?.removeChannel(channel) ?? Promise.resolve()).catch(() => undefined)]);
    leavingByTopic.set(topic, leaving);
    void leaving.then(() => {
      if (leavingByTopic.get(topic) === leaving) leavingByTopic.delete(topic);
    });
  }

  private readPresence(channel: RealtimeChannel) {
    const presences: Presence[] = [];
    for (const metas of Object.values(channel.presenceState())) {
      for (const meta of metas) {
        const presence = this.topic.parsePresence(meta);
        if (presence !== null) presences.push(presence);
      }
    }
    this.setPresences(presences);
  }

  private setPresences(presences: Presence[]) {
    if (presences.length === 0 && this.presences.length === 0) return;
    this.presences = presences;
    for (const listener of this.listeners) listener.onPresence?.(presences);
  }
}

// Channels of a topic still leaving, kept past their closing: supabase.channel() would hand a leaving one back.
const leavingByTopic = new Map<string, Promise<unknown>>();

// Type-erased: each topic's watcher knows its own event and presence types.
const channels = new Map<string, PrivateChannel<unknown, unknown>>();

/** Listens to a private topic as `userId`; every caller in the tab shares one subscription per topic. */
export function watchPrivateChannel<Event, Presence>(
  topic: PrivateChannelTopic<Event, Presence>,
  userId: string,
  listener: PrivateChannelListener<Event, Presence>,
): PrivateChannelWatch<Presence> {
  let channel = channels.get(topic.name) as PrivateChannel<Event, Presence> | undefined;
  // Another user signed in in this tab: their presence key and token are not this one's.
  if (channel && channel.presenceKey !== `${userId}:${tabId}`) channel.close();
  if (!channel || channel.isClosed) {
    channel = new PrivateChannel(topic, userId);
    channels.set(topic.name, channel as PrivateChannel<unknown, unknown>);
  }
  const watched = channel;
  watched.add(listener);
  listener.onPresence?.(watched.currentPresences);
  return { stop: () => watched.remove(listener), track: (presence) => watched.setTracked(presence) };
}
