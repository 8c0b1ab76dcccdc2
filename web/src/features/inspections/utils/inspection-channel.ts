import type { RealtimeChannel } from '@supabase/supabase-js';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { supabase } from '../../../lib/supabase';

/** `answer_saved` on `inspection:<id>`: the saved row, as the answers trigger sends it. */
export interface AnswerSavedEvent {
  inspection_id: string;
  item_key: string;
  value: unknown;
  note: string | null;
  failed: boolean | null;
  answered_by: string | null;
  answered_at: string;
  version: number;
}

export interface InspectionUpdatedEvent {
  id: string;
  status: string;
  score: number | null;
  max_score: number | null;
  failed_count: number;
  version: number;
}

export interface AttachmentChangedEvent {
  id: string;
  item_key: string;
  action: 'created' | 'confirmed' | 'deleted';
}

/** What a tab shares on the inspection's channel: who it is and which item it is on. */
export interface InspectionPresence {
  user_id: string;
  display_name: string;
  item_key: string | null;
}

export interface InspectionChannelListener {
  onAnswerSaved?: (answer: AnswerSavedEvent) => void;
  onInspectionUpdated?: (update: InspectionUpdatedEvent) => void;
  onAttachmentChanged?: (change: AttachmentChangedEvent) => void;
  /** Joined; `resumed` after a lost connection, when events may have been missed. */
  onJoined?: (resumed: boolean) => void;
  onPresence?: (presences: InspectionPresence[]) => void;
}

// The same backoff as the organization channel: jittered, so many tabs don't return at once.
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];

// Tells this tab's presence apart from the same user's other tabs.
const tabId = newIdempotencyKey();

// Channels of a topic still leaving: supabase.channel() would hand a leaving one back.
const leavingByTopic = new Map<string, Promise<unknown>>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPresence(value: unknown): value is InspectionPresence {
  return isObject(value) && typeof value.user_id === 'string' && typeof value.display_name === 'string';
}

export interface InspectionChannelWatch {
  stop: () => void;
  /** Shares which item this tab is on (null: none), now and after every rejoin. */
  track: (presence: InspectionPresence) => void;
}

/**
 * Listens to the private topic `inspection:<id>`: joins after `setAuth` so the join carries the
 * current token, rejoins with backoff after an error or a close it did not ask for, and carries
 * this tab's presence.
 */
export function watchInspectionChannel(inspectionId: string, userId: string, listener: InspectionChannelListener): InspectionChannelWatch {
  const topic = `inspection:${inspectionId}`;
  let channel: RealtimeChannel | null = null;
  let joined = false;
  let joinedBefore = false;
  let failures = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let tracked: InspectionPresence | null = null;

  function dropChannel() {
    const dropped = channel;
    channel = null;
    joined = false;
    listener.onPresence?.([]);
    if (!dropped) return;
    // Leaving also stops realtime-js's own rejoin timer: retries are ours, with our backoff.
    const previous = leavingByTopic.get(topic) ?? Promise.resolve();
    const leaving = Promise.all([previous, supabase.removeChannel(dropped).catch(() => undefined)]);
    leavingByTopic.set(topic, leaving);
    void leaving.then(() => {
      if (leavingByTopic.get(topic) === leaving) leavingByTopic.delete(topic);
    });
  }

  function scheduleRetry() {
    if (stopped) return;
    const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)];
    failures += 1;
    retryTimer = setTimeout(() => void join(), delay * (0.8 + Math.random() * 0.4));
  }

  async function join() {
    retryTimer = null;
    await (leavingByTopic.get(topic) ?? Promise.resolve());
    try {
      const { data } = await supabase.auth.getSession();
      if (stopped || !data.session) return;
      await supabase.realtime.setAuth();
    } catch {
      scheduleRetry();
      return;
    }
    if (stopped) return;

    const current = supabase.channel(topic, {
      config: { private: true, presence: { key: `${userId}:${tabId}`, enabled: true } },
    });
    channel = current;
    current.on('broadcast', { event: '*' }, (message) => {
      if (current !== channel) return;
      const payload: unknown = message.payload;
      if (!isObject(payload)) return;
      if (message.event === 'answer_saved' && typeof payload.item_key === 'string') {
        listener.onAnswerSaved?.(payload as unknown as AnswerSavedEvent);
      } else if (message.event === 'inspection_updated' && payload.id === inspectionId) {
        listener.onInspectionUpdated?.(payload as unknown as InspectionUpdatedEvent);
      } else if (message.event === 'attachment_changed' && typeof payload.item_key === 'string') {
        listener.onAttachmentChanged?.(payload as unknown as AttachmentChangedEvent);
      }
    });
    current.on('presence', { event: 'sync' }, () => {
      if (current !== channel) return;
      const presences: InspectionPresence[] = [];
      for (const metas of Object.values(current.presenceState())) {
        for (const meta of metas) if (isPresence(meta)) presences.push({ ...meta, item_key: typeof meta.item_key === 'string' ? meta.item_key : null });
      }
      listener.onPresence?.(presences);
    });
    current.subscribe((status) => {
      if (current !== channel) return;
      if (status === 'SUBSCRIBED') {
        const resumed = joinedBefore || failures > 0;
        joined = true;
        joinedBefore = true;
        failures = 0;
        if (tracked) void current.track(tracked);
        listener.onJoined?.(resumed);
        return;
      }
      // CHANNEL_ERROR, TIMED_OUT, or CLOSED by the server (our own leave has dropped the channel already).
      dropChannel();
      scheduleRetry();
    });
  }

  void join();

  return {
    stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      dropChannel();
    },
    track(presence) {
      tracked = presence;
      if (joined && channel) void channel.track(presence);
    },
  };
}
