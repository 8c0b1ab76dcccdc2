import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, describeError } from '../../../lib/errors';
import { refetchInspection, storeAnswers } from '../api/get-inspection';
import { saveAnswers } from '../api/save-answers';
import type { Answer, TemplateItem } from '../types';
import { answerValueProblem } from '../utils/answer-values';

// Typing pauses this long before an item is saved; a toggle is saved as quickly.
const SAVE_DELAY_MS = 700;

export type ItemSaveState = 'pending' | 'saving' | 'saved' | 'failed' | 'invalid' | 'conflict';

/** This tab's own version of one item while it differs from, or is on its way to, the server's. */
export interface ItemDraft {
  value: unknown;
  note: string | null;
  /** The answer version this draft was made from: the server refuses the save if someone saved since. */
  baseVersion: number | null;
  state: ItemSaveState;
  /** Beside the input: why the value can't be saved, or why saving failed. */
  error?: string;
  /** stale_version: the row someone else saved first. */
  theirs?: Answer;
}

export type OverallSaveState = 'idle' | 'saving' | 'saved' | 'failed';

interface Options {
  orgId: string;
  inspectionId: string;
  items: Map<string, TemplateItem>;
  answers: Map<string, Answer>;
}

/** Whether the draft, not the server's answer, is what the item shows. */
export function draftIsShown(draft: ItemDraft | undefined): draft is ItemDraft {
  return draft !== undefined && draft.state !== 'saved';
}

/**
 * Autosave of the run page: each item is saved on its own, a moment after its last change, with
 * the answer version it was edited from; a stale save keeps both values for the user to choose.
 */
export function useAnswerAutosave({ orgId, inspectionId, items, answers }: Options) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Map<string, ItemDraft>>(new Map());
  const draftsRef = useRef(drafts);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const inFlight = useRef(new Set<string>());
  // Bumped on every edit of an item, so a save that returns knows whether it saved the latest.
  const revisions = useRef(new Map<string, number>());
  const [savedOnce, setSavedOnce] = useState(false);
  const answersRef = useRef(answers);
  answersRef.current = answers;

  const update = useCallback((change: (next: Map<string, ItemDraft>) => void) => {
    const next = new Map(draftsRef.current);
    change(next);
    draftsRef.current = next;
    setDrafts(next);
  }, []);

  // The save of an item, after its timer; a ref so the timers always call the current one.
  const sendRef = useRef<(itemKey: string) => Promise<void>>(async () => undefined);

  const schedule = useCallback((itemKey: string, delay: number) => {
    const timer = timers.current.get(itemKey);
    if (timer) clearTimeout(timer);
    timers.current.set(
      itemKey,
      setTimeout(() => {
        timers.current.delete(itemKey);
        void sendRef.current(itemKey);
      }, delay),
    );
  }, []);

  const send = useCallback(
    async (itemKey: string) => {
      const draft = draftsRef.current.get(itemKey);
      if (!draft || draft.state !== 'pending') return;
      if (inFlight.current.has(itemKey)) return; // sent again when the one in flight returns
      inFlight.current.add(itemKey);
      const revision = revisions.current.get(itemKey) ?? 0;
      update((next) => next.set(itemKey, { ...draft, state: 'saving', error: undefined }));
      try {
        const saved = await saveAnswers(orgId, inspectionId, [
          { item_key: itemKey, value: draft.value, note: draft.note, base_version: draft.baseVersion },
        ]);
        storeAnswers(queryClient, orgId, inspectionId, saved.answers, saved.inspection);
        setSavedOnce(true);
        const row = saved.answers.find((answer) => answer.item_key === itemKey);
        const edited = (revisions.current.get(itemKey) ?? 0) !== revision;
        update((next) => {
          const latest = next.get(itemKey);
          if (!latest) return;
          if (edited) next.set(itemKey, { ...latest, baseVersion: row?.version ?? latest.baseVersion, state: 'pending' });
          else next.set(itemKey, { ...latest, baseVersion: row?.version ?? latest.baseVersion, state: 'saved' });
        });
      } catch (error) {
        const failure = describeError(error);
        const problem = error instanceof ApiError ? error.problem : null;
        update((next) => {
          const latest = next.get(itemKey) ?? draft;
          if (failure.code === 'stale_version') {
            const theirs = (problem?.current as Answer[] | undefined)?.find((answer) => answer.item_key === itemKey);
            if (theirs) storeAnswers(queryClient, orgId, inspectionId, [theirs]);
            next.set(itemKey, { ...latest, state: 'conflict', theirs, error: undefined });
          } else if (failure.code === 'validation_failed') {
            const message = Object.values(failure.fieldErrors)[0] ?? failure.message;
            next.set(itemKey, { ...latest, state: 'invalid', error: message });
          } else {
            next.set(itemKey, { ...latest, state: 'failed', error: failure.message });
          }
        });
        if (failure.code === 'invalid_transition') void refetchInspection(queryClient, orgId, inspectionId);
      } finally {
        inFlight.current.delete(itemKey);
        if (draftsRef.current.get(itemKey)?.state === 'pending') schedule(itemKey, 0);
      }
    },
    [orgId, inspectionId, update, queryClient, schedule],
  );
  sendRef.current = send;

  /** Records a change of an item's value or note and saves it after a pause. */
  const edit = useCallback(
    (itemKey: string, change: { value?: unknown; note?: string | null }, delay = SAVE_DELAY_MS) => {
      const item = items.get(itemKey);
      if (!item) return;
      revisions.current.set(itemKey, (revisions.current.get(itemKey) ?? 0) + 1);
      const current = draftsRef.current.get(itemKey);
      const server = answersRef.current.get(itemKey);
      const base: ItemDraft = draftIsShown(current)
        ? current
        : { value: server?.value ?? null, note: server?.note ?? null, baseVersion: server?.version ?? null, state: 'pending' };
      const value = 'value' in change ? change.value : base.value;
      const note = 'note' in change ? (change.note ?? null) : base.note;
      const problem = answerValueProblem(item, value);
      // A conflict stays until the user chooses; their edits go into their own version meanwhile.
      const state: ItemSaveState = base.state === 'conflict' ? 'conflict' : problem ? 'invalid' : 'pending';
      update((next) => next.set(itemKey, { ...base, value, note, state, error: problem ?? undefined }));
      if (state === 'pending') schedule(itemKey, delay);
    },
    [items, update, schedule],
  );

  /** After stale_version: save ours over theirs, now that we have seen theirs. */
  const keepMine = useCallback(
    (itemKey: string) => {
      const draft = draftsRef.current.get(itemKey);
      if (!draft) return;
      update((next) => next.set(itemKey, { ...draft, baseVersion: draft.theirs?.version ?? draft.baseVersion, theirs: undefined, state: 'pending' }));
      schedule(itemKey, 0);
    },
    [update, schedule],
  );

  /** After stale_version (or to drop an unsaved change): show the server's answer again. */
  const takeTheirs = useCallback(
    (itemKey: string) => {
      const timer = timers.current.get(itemKey);
      if (timer) clearTimeout(timer);
      revisions.current.set(itemKey, (revisions.current.get(itemKey) ?? 0) + 1);
      update((next) => next.delete(itemKey));
    },
    [update],
  );

  /** Tries a failed save again. */
  const retry = useCallback(
    (itemKey: string) => {
      const draft = draftsRef.current.get(itemKey);
      if (!draft || draft.state !== 'failed') return;
      update((next) => next.set(itemKey, { ...draft, state: 'pending' }));
      schedule(itemKey, 0);
    },
    [update, schedule],
  );

  /** Saves every waiting change now (before submitting, or when the page is hidden). */
  const flushAll = useCallback(() => {
    for (const [itemKey, timer] of timers.current) {
      clearTimeout(timer);
      timers.current.delete(itemKey);
      void sendRef.current(itemKey);
    }
  }, []);

  /** Saves what is waiting, then resolves once nothing is on its way: true when everything was saved. */
  const settle = useCallback(async () => {
    flushAll();
    for (;;) {
      const states = [...draftsRef.current.values()].map((draft) => draft.state);
      if (inFlight.current.size === 0 && !states.some((state) => state === 'pending' || state === 'saving')) {
        return !states.some((state) => state === 'failed' || state === 'invalid' || state === 'conflict');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, [flushAll]);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') flushAll();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => document.removeEventListener('visibilitychange', onHide);
  }, [flushAll]);

  const overall: OverallSaveState = useMemo(() => {
    let saving = false;
    let failed = false;
    for (const draft of drafts.values()) {
      if (draft.state === 'pending' || draft.state === 'saving') saving = true;
      if (draft.state === 'failed' || draft.state === 'conflict' || draft.state === 'invalid') failed = true;
    }
    return failed ? 'failed' : saving ? 'saving' : savedOnce ? 'saved' : 'idle';
  }, [drafts, savedOnce]);

  useEffect(() => {
    if (overall !== 'saving' && overall !== 'failed') return;
    // Leaving with changes not yet saved asks first.
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [overall]);

  // Leaving the page saves what is waiting rather than dropping it.
  useEffect(() => () => flushAll(), [flushAll]);

  return { drafts, edit, keepMine, takeTheirs, retry, settle, overall };
}
