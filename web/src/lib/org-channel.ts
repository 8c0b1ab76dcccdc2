import type { Role } from '@schemas/common';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { newIdempotencyKey } from './idempotency-key';
import { supabase } from './supabase';

/** One change the database broadcasts on `org:<id>` (migration 20261121000900). */
export interface OrgChange {
  /** `<entity>_<action>`, e.g. `site_updated`. */
  event: string;
  entity: 'organization' | 'member' | 'invitation' | 'site' | 'template' | 'inspection';
  action: 'created' | 'updated' | 'deleted';
  id: string;
  org_id: string;
  actor_id: string | null;
  at: string;
  /** Member events only: whose membership changed, and its role now. */
  user_id?: string;
  role?: Role;
  /** Inspection events: the status after the change. */
  status?: string;
}

/** What a tab shares on the organization channel: where its user is looking. */
export interface OrgPresence {
  site_id: string | null;
  user_id: string;
  display_name: string;
}

export interface OrgChannelListener {
  onChange?: (change: OrgChange) => void;
  /** Joined; `resumed` after a lost connection or a refused join, when changes may have been missed. */
  onJoined?: (resumed: boolean) => void;
  /** The server answered the join with a refusal: the organization may be gone, or the user removed. */
  onRefused?: () => void;
  onPresence?: (presences: OrgPresence[]) => void;
}

// Delays before joining again after a failure; jittered so many tabs don't return at once.
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];
// A channel nobody uses any more stays open this long: React's StrictMode and redirects release and re-acquire at once.
const CLOSE_GRACE_MS = 250;

// Tells this tab's presence apart from the same user's other tabs.
const tabId = newIdempotencyKey();

const entities = new Set(['organization', 'member', 'invitation', 'site', 'template', 'inspection']);
const actions = new Set(['created', 'updated', 'deleted']);

function parseChange(event: string, payload: unknown, orgId: string): OrgChange | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const change = payload as Partial<OrgChange>;
  if (!entities.has(change.entity ?? '') || !actions.has(change.action ?? '')) return null;
  if (typeof change.id !== 'string' || change.org_id !== orgId) return null;
  return { ...(change as OrgChange), event };
}

function isPresence(value: unknown): value is OrgPresence {
  const meta = value as Partial<OrgPresence> | null;
  return typeof meta?.user_id === 'string' && typeof meta.display_name === 'string';
}

/** A join refused by the server carries its reply as the cause; a lost socket or a timeout does not. */
function isRefusal(error: Error | undefined): boolean {
  const cause = error?.cause as { reason?: unknown; code?: unknown } | undefined;
  return typeof cause === 'object' && cause !== null && typeof cause.reason === 'string' && typeof cause.code !== 'number';
}

/**
 * The one subscription of this tab to `org:<id>`: joins as the signed-in user, rejoins with backoff
 * after an error, a timeout or a close it did not ask for, and carries this tab's presence.
 */
class OrgChannel {
  readonly orgId: string;
  readonly presenceKey: string;
  private readonly listeners = new Set<OrgChannelListener>();
  private channel: RealtimeChannel | null = null;
  private joined = false;
  private joinedBefore = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closeTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  // Earlier channels of this topic still leaving: supabase.channel() would hand them back.
  private leaving: Promise<unknown> = Promise.resolve();
  private tracked: OrgPresence | null = null;
  private presences: OrgPresence[] = [];

  constructor(orgId: string, userId: string) {
    this.orgId = orgId;
    this.presenceKey = `${userId}:${tabId}`;
    void this.join();
  }

  get isClosed() {
    return this.closed;
  }

  get currentPresences() {
    return this.presences;
  }

  add(listener: OrgChannelListener) {
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.closeTimer = null;
    this.listeners.add(listener);
  }

  remove(listener: OrgChannelListener) {
    this.listeners.delete(listener);
    if (this.listeners.size === 0 && !this.closeTimer) {
      this.closeTimer = setTimeout(() => {
        this.closeTimer = null;
        if (this.listeners.size === 0) this.close();
      }, CLOSE_GRACE_MS);
    }
  }

  /** Shares where this tab is looking (null: nowhere in particular), now and after every rejoin. */
  setTracked(presence: OrgPresence | null) {
    this.tracked = presence;
    if (!this.joined || !this.channel) return;
    void (presence ? this.channel.track(presence) : this.channel.untrack());
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.listeners.clear();
    this.dropChannel();
    if (channels.get(this.orgId) === this) channels.delete(this.orgId);
  }

  private async join() {
    this.retryTimer = null;
    await this.leaving;
    try {
      // The join carries the token realtime holds: make it the current session's (it lags after an MFA step-up).
      const { data } = await supabase.auth.getSession();
      if (this.closed || !data.session) return;
      await supabase.realtime.setAuth();
    } catch {
      this.scheduleRetry();
      return;
    }
    if (this.closed) return;

    const channel = supabase.channel(`org:${this.orgId}`, {
      config: { private: true, presence: { key: this.presenceKey, enabled: true } },
    });
    this.channel = channel;
    channel.on('broadcast', { event: '*' }, (message) => {
      if (channel !== this.channel) return;
      const change = parseChange(String(message.event), message.payload, this.orgId);
      if (change) for (const listener of this.listeners) listener.onChange?.(change);
    });
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
      if (this.tracked) void this.channel?.track(this.tracked);
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
    if (channel) this.leaving = Promise.all([this.leaving, supabase.removeChannel(channel).catch(() => undefined)]);
  }

  private readPresence(channel: RealtimeChannel) {
    const presences: OrgPresence[] = [];
    for (const metas of Object.values(channel.presenceState())) {
      for (const meta of metas) if (isPresence(meta)) presences.push(meta);
    }
    this.setPresences(presences);
  }

  private setPresences(presences: OrgPresence[]) {
    if (presences.length === 0 && this.presences.length === 0) return;
    this.presences = presences;
    for (const listener of this.listeners) listener.onPresence?.(presences);
  }
}

const channels = new Map<string, OrgChannel>();

export interface OrgChannelWatch {
  /** Stops listening; the subscription closes shortly after its last watcher stops. */
  stop: () => void;
  /** Shares where this tab is looking (null: nowhere in particular) with the organization's members. */
  track: (presence: OrgPresence | null) => void;
}

/** Listens to `org:<orgId>` as `userId`; every caller in the tab shares one subscription. */
export function watchOrgChannel(orgId: string, userId: string, listener: OrgChannelListener): OrgChannelWatch {
  let channel = channels.get(orgId);
  // Another user signed in in this tab: their presence key and token are not this one's.
  if (channel && channel.presenceKey !== `${userId}:${tabId}`) channel.close();
  if (!channel || channel.isClosed) {
    channel = new OrgChannel(orgId, userId);
    channels.set(orgId, channel);
  }
  const watched = channel;
  watched.add(listener);
  listener.onPresence?.(watched.currentPresences);
  return { stop: () => watched.remove(listener), track: (presence) => watched.setTracked(presence) };
}
