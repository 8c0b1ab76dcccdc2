import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useOnline } from '@/lib/use-online';
import { Outbox, type OutboxState } from '../offline/outbox';
import { openedOutbox, outboxOf } from '../offline/outbox-instance';
import type { AnswerEntry, PhotoEntry } from '../offline/outbox-store';
import type { Answer, TemplateItem } from '../types';
import { answerValueProblem } from '../utils/answer-values';

// Typing pauses this long before an item is sent; a toggle is sent at once. Either way the change
// is on the device (IndexedDB) as soon as it is made.
const SEND_DELAY_MS = 700;

/**
 * Where one item's change is: `pending` waiting (on this device), `saving` on its way, `retrying`
 * after a failure that may pass, `failed` refused for good, `invalid` not sendable as typed (kept
 * in the page only), `conflict` someone else saved first.
 */
export type ItemSaveState = 'pending' | 'saving' | 'retrying' | 'failed' | 'invalid' | 'conflict';

/** This page's version of one item while it differs from, or is on its way to, the server's. */
export interface ItemDraft {
  value: unknown;
  note: string | null;
  state: ItemSaveState;
  /** Why the value can't be sent, or why sending failed. */
  error?: string;
  /** conflict: the row someone else saved first. */
  theirs?: Answer;
}

/** What the status bar says (docs/offline.md): the worst that is true of this inspection's changes. */
export type OverallSaveState = 'idle' | 'saved' | 'saving' | 'on-device' | 'retrying' | 'attention';

export interface SaveSummary {
  overall: OverallSaveState;
  /** Changes (answers and photos) on this device not yet on the server. */
  waiting: number;
  /** Changes that need the user: conflicts and refusals. */
  needsAttention: number;
  /** When the next attempt is due after a failure. */
  retryAt: number | null;
  /** The first item that needs the user, to take them there. */
  firstAttentionItem: string | null;
}

const emptyState: OutboxState = { entries: [], sending: new Set(), retryAt: null, progress: new Map(), loaded: false };
const noop = () => () => undefined;

/**
 * The tab's outbox, once opened (IndexedDB opens asynchronously). Opened ahead (the run page asks
 * for it with its data), it is here from the first render, which then needs no second one.
 */
function useOutbox(userId: string): Outbox | undefined {
  const [outbox, setOutbox] = useState<Outbox | undefined>(() => openedOutbox(userId));
  useEffect(() => {
    let current = true;
    void outboxOf(userId).then((opened) => {
      if (current) setOutbox(opened);
    });
    return () => {
      current = false;
    };
  }, [userId]);
  return outbox;
}

interface Options {
  orgId: string;
  inspectionId: string;
  userId: string;
  items: Map<string, TemplateItem>;
  answers: Map<string, Answer>;
}

/**
 * Saving on the run page: each change goes to the outbox (IndexedDB) at once and from there to
 * the server; the page shows every item as this device has it, and says where each change is.
 */
export function useAnswerAutosave({ orgId, inspectionId, userId, items, answers }: Options) {
  const outbox = useOutbox(userId);
  const state = useSyncExternalStore(outbox ? outbox.subscribe.bind(outbox) : noop, () => outbox?.getState() ?? emptyState);
  const online = useOnline();
  // What the user typed, shown at once (the outbox writes asynchronously), and kept while it can't be sent.
  const [typed, setTyped] = useState<Map<string, { value: unknown; note: string | null; error?: string }>>(new Map());
  const [savedOnce, setSavedOnce] = useState(false);

  const mine = useMemo(() => state.entries.filter((entry) => entry.inspectionId === inspectionId), [state.entries, inspectionId]);
  // The latest waiting change of each item.
  const entryOf = useMemo(() => {
    const map = new Map<string, AnswerEntry>();
    for (const entry of mine) if (entry.kind === 'answer') map.set(entry.itemKey, entry);
    return map;
  }, [mine]);
  const photos = useMemo(() => mine.filter((entry): entry is PhotoEntry => entry.kind === 'photo'), [mine]);

  // Once a change is in the outbox or on the server, what was typed has done its job.
  useEffect(() => {
    setTyped((current) => {
      let next: typeof current | undefined;
      for (const [itemKey, draft] of current) {
        if (draft.error) continue;
        const entry = entryOf.get(itemKey);
        const server = answers.get(itemKey);
        const caughtUp = entry
          ? JSON.stringify(entry.value) === JSON.stringify(draft.value) && entry.note === draft.note
          : JSON.stringify(server?.value ?? null) === JSON.stringify(draft.value ?? null) && (server?.note ?? null) === draft.note;
        if (caughtUp) (next ??= new Map(current)).delete(itemKey);
      }
      return next ?? current;
    });
  }, [entryOf, answers]);

  // "Saved" is said once something of this page went to the server, and nothing waits.
  useEffect(() => {
    if (mine.some((entry) => state.sending.has(entry.id))) setSavedOnce(true);
  }, [mine, state.sending]);

  // Edits made before the outbox had opened go in now.
  useEffect(() => {
    if (!outbox) return;
    for (const [itemKey, draft] of typed) {
      if (draft.error || entryOf.has(itemKey)) continue;
      void outbox.enqueueAnswer({ orgId, inspectionId, itemKey, value: draft.value, note: draft.note, knownVersion: answers.get(itemKey)?.version ?? null });
    }
    // Only when the outbox opens: later edits enqueue themselves.
  }, [outbox]);

  const drafts = useMemo(() => {
    const map = new Map<string, ItemDraft>();
    for (const [itemKey, entry] of entryOf) {
      const state_: ItemSaveState = state.sending.has(entry.id)
        ? 'saving'
        : entry.parked === 'conflict'
          ? 'conflict'
          : entry.parked === 'failed'
            ? 'failed'
            : entry.attempts > 0 && !entry.unreachable
              ? 'retrying'
              : 'pending';
      map.set(itemKey, { value: entry.value, note: entry.note, state: state_, error: entry.error, theirs: entry.theirs });
    }
    for (const [itemKey, draft] of typed) {
      const behind = map.get(itemKey);
      map.set(itemKey, {
        value: draft.value,
        note: draft.note,
        state: draft.error ? 'invalid' : behind?.state === 'conflict' ? 'conflict' : 'pending',
        error: draft.error,
        theirs: behind?.theirs,
      });
    }
    return map;
  }, [entryOf, typed, state.sending]);

  /** Records a change of an item's value or note: on the device at once, sent after a pause. */
  const edit = useCallback(
    (itemKey: string, change: { value?: unknown; note?: string | null }, delay = SEND_DELAY_MS) => {
      const item = items.get(itemKey);
      if (!item) return;
      const shown = drafts.get(itemKey);
      const server = answers.get(itemKey);
      const value = 'value' in change ? change.value : (shown?.value ?? server?.value ?? null);
      const note = 'note' in change ? (change.note ?? null) : (shown?.note ?? server?.note ?? null);
      const problem = answerValueProblem(item, value);
      setTyped((current) => new Map(current).set(itemKey, { value, note, error: problem ?? undefined }));
      if (problem || !outbox) return;
      void outbox.enqueueAnswer({ orgId, inspectionId, itemKey, value, note, knownVersion: server?.version ?? null, delayMs: delay });
    },
    [items, drafts, answers, outbox, orgId, inspectionId],
  );

  /** After a conflict: send ours over theirs, now that we have seen theirs. */
  const keepMine = useCallback((itemKey: string) => void (entryOf.get(itemKey) && outbox?.keepMine(entryOf.get(itemKey)!.id)), [entryOf, outbox]);

  /** After a conflict or a refusal (or to drop an unsendable edit): show the server's answer again. */
  const takeTheirs = useCallback(
    (itemKey: string) => {
      setTyped((current) => {
        const next = new Map(current);
        next.delete(itemKey);
        return next;
      });
      const entry = entryOf.get(itemKey);
      if (entry) void outbox?.discard(entry.id);
    },
    [entryOf, outbox],
  );

  /** Tries now what is waiting on a failure that may pass. */
  const retry = useCallback(() => outbox?.retryNow(), [outbox]);

  /** Drops a photo the server refused. */
  const discardPhoto = useCallback((id: string) => void outbox?.discard(id), [outbox]);

  /** Adds photos to an item: on the device at once (the file itself), uploaded when the network allows. */
  const addPhotos = useCallback(
    async (itemKey: string, files: { blob: Blob; contentType: string; fileName: string }[]) => {
      if (!outbox) return;
      for (const file of files) await outbox.enqueuePhoto({ orgId, inspectionId, itemKey, ...file });
    },
    [outbox, orgId, inspectionId],
  );

  /** Sends what is waiting and resolves once nothing of this inspection is on its way: true when all of it arrived. */
  const settle = useCallback(async () => {
    if (!outbox) return typed.size === 0;
    await outbox.settled(inspectionId);
    return !outbox.getState().entries.some((entry) => entry.inspectionId === inspectionId);
  }, [outbox, inspectionId, typed.size]);

  const summary: SaveSummary = useMemo(() => {
    const attention = mine.filter((entry) => entry.parked);
    const invalid = [...typed.entries()].filter(([, draft]) => draft.error);
    const waiting = mine.filter((entry) => !entry.parked).length + [...typed.values()].filter((draft) => !draft.error).length;
    const retrying = mine.some((entry) => !entry.parked && entry.attempts > 0);
    // A failed attempt that got no answer at all says more about the network than navigator.onLine.
    const unreachable = mine.some((entry) => !entry.parked && entry.unreachable);
    const firstAttention = attention[0]?.itemKey ?? invalid[0]?.[0] ?? null;
    const overall: OverallSaveState =
      attention.length + invalid.length > 0
        ? 'attention'
        : waiting > 0 && (!online || unreachable)
          ? 'on-device'
          : retrying
            ? 'retrying'
            : waiting > 0
              ? 'saving'
              : savedOnce
                ? 'saved'
                : 'idle';
    return { overall, waiting, needsAttention: attention.length + invalid.length, retryAt: state.retryAt, firstAttentionItem: firstAttention };
  }, [mine, typed, online, savedOnce, state.retryAt]);

  // Leaving with a change the device does not hold yet (typed but not written) asks first.
  useEffect(() => {
    if (![...typed.values()].some((draft) => draft.error)) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [typed]);

  // Whether changes can be sent as far as this page knows: the browser says so and the last attempt got an answer.
  const reachable = online && !mine.some((entry) => !entry.parked && entry.unreachable);
  return { drafts, photos, sending: state.sending, progress: state.progress, reachable, edit, keepMine, takeTheirs, retry, settle, addPhotos, discardPhoto, summary, online, ready: outbox !== undefined };
}

