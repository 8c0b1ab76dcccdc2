import type { Answer, AnswerInput, SavedAnswers } from '../types';
import type { AnswerEntry, OutboxEntry, OutboxStore, PhotoEntry } from './outbox-store';

/**
 * The run page's outbox (issue 12, docs/offline.md): every answer change and photo is written to
 * IndexedDB first and sent from there, in the order made, when the network allows. Changes of one
 * item waiting together are coalesced into one; answers of one inspection go out in one batch.
 * Nothing is sent twice: an answer carries the version it was made from, so a retry whose first
 * attempt did arrive comes back as "stale" with our own value, which counts as saved; a photo's
 * check-in carries the entry's id as its Idempotency-Key, and each step is remembered.
 */

/** How the outbox reaches the server; the app passes the api calls, tests pass fakes. */
export interface OutboxTransport {
  saveAnswers(orgId: string, inspectionId: string, answers: AnswerInput[]): Promise<SavedAnswers>;
  checkInPhoto(entry: PhotoEntry): Promise<{ attachment: { id: string }; upload: { path: string; token: string } }>;
  /** 'already' when the object is there from an earlier attempt. */
  uploadPhoto(
    upload: { path: string; token: string },
    blob: Blob,
    contentType: string,
    onProgress?: (sent: number, total: number) => void,
  ): Promise<'uploaded' | 'already'>;
  confirmPhoto(entry: PhotoEntry & { attachmentId: string }): Promise<unknown>;
}

/** A failed call as the outbox needs to know it: retry later, or never. */
export interface OutboxFailure {
  /** The catalogue code when the api answered; null for no answer at all (offline, timeout). */
  code: string | null;
  status: number | null;
  message: string;
  /** validation_failed: field → message ("answers.2.value"). */
  fieldErrors: Record<string, string>;
  /** stale_version: the rows as they are now. */
  current?: Answer[];
}

export interface OutboxEvents {
  /** A batch reached the server: the page shows the saved rows (and the new score, when the save returned it). */
  onAnswersSaved?(orgId: string, inspectionId: string, saved: Pick<SavedAnswers, 'answers'> & Partial<Pick<SavedAnswers, 'inspection'>>): void;
  /** A photo was checked, uploaded and confirmed. */
  onPhotoSaved?(entry: PhotoEntry): void;
  /** Something changed for this inspection that the page should read again (a conflict's row, a refusal). */
  onStale?(orgId: string, inspectionId: string): void;
}

export interface OutboxOptions {
  store: OutboxStore;
  transport: OutboxTransport;
  /** Turns whatever a call threw into an OutboxFailure. */
  describe: (error: unknown) => OutboxFailure;
  events?: OutboxEvents;
  now?: () => number;
  random?: () => number;
  isOnline?: () => boolean;
  /**
   * Runs one sending pass unless another tab is running one (Web Locks); resolves whether it ran.
   * None: it always runs.
   */
  exclusive?: (pass: () => Promise<void>) => Promise<boolean>;
  newId?: () => string;
}

export interface OutboxState {
  entries: readonly OutboxEntry[];
  /** Ids of entries on their way now. */
  sending: ReadonlySet<string>;
  /** When the next attempt is due after a failure (null: none is waiting on a backoff). */
  retryAt: number | null;
  /** Bytes of a photo sent so far, by entry id, while it uploads. */
  progress: ReadonlyMap<string, { sent: number; total: number }>;
  loaded: boolean;
}

/**
 * Seconds to wait after the n-th failed attempt, with ±20 % jitter: soon at first, then at most a
 * minute while the server answers with errors, and at most 10 s while it can't be reached at all —
 * browsers do not always say when the network is back (no `online` event), so the outbox looks.
 */
const BACKOFF_SECONDS = [1, 2, 5, 10, 20, 30, 60];
const UNREACHABLE_CAP_SECONDS = 10;
/** Answers of one inspection per request (docs/product.md §9: 100 per batch). */
const MAX_BATCH = 100;

export function backoffMs(attempts: number, random: () => number = Math.random, unreachable = false): number {
  const step = BACKOFF_SECONDS[Math.min(attempts, BACKOFF_SECONDS.length) - 1] ?? 1;
  const base = unreachable ? Math.min(step, UNREACHABLE_CAP_SECONDS) : step;
  return Math.round(base * 1000 * (0.8 + 0.4 * random()));
}

/** Whether a failure may pass by itself: no answer at all, a server error, too many requests, an expired session. */
function isTransient(failure: OutboxFailure): boolean {
  return failure.status === null || failure.status >= 500 || failure.status === 429 || failure.status === 408 || failure.status === 401;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export class Outbox {
  private entries: OutboxEntry[] = [];
  private readonly sending = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly progress = new Map<string, { sent: number; total: number }>();
  private state: OutboxState = { entries: [], sending: new Set(), retryAt: null, progress: new Map(), loaded: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;
  private again = false;
  private seq = 0;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly isOnline: () => boolean;
  private readonly exclusive: (pass: () => Promise<void>) => Promise<boolean>;
  /** Another tab was sending: look again after this instant rather than spin. */
  private elsewhereUntil = 0;
  private readonly newId: () => string;

  constructor(
    private readonly userId: string,
    private readonly options: OutboxOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.isOnline = options.isOnline ?? (() => true);
    this.exclusive = options.exclusive ?? (async (pass) => (await pass(), true));
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Reads what is waiting from the store (also what another tab changed) and schedules sending. */
  async load(): Promise<void> {
    const stored = await this.options.store.list();
    this.entries = stored.filter((entry) => entry.userId === this.userId);
    this.seq = Math.max(this.seq, ...stored.map((entry) => entry.seq));
    this.publish(true);
    this.schedule();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getState(): OutboxState {
    return this.state;
  }

  /**
   * Records an answer change. It is durable once this resolves. A change of an item already
   * waiting replaces it (keeping the version it was made from and its place in the order); one
   * made while that item's earlier change is on its way follows it, from the version it returns.
   */
  async enqueueAnswer(change: {
    orgId: string;
    inspectionId: string;
    itemKey: string;
    value: unknown;
    note: string | null;
    /** The version of the answer the page shows (null: none yet). */
    knownVersion: number | null;
    /** Wait this long for more changes before sending (typing). */
    delayMs?: number;
  }): Promise<void> {
    const notBefore = this.now() + (change.delayMs ?? 0);
    const ofItem = this.entries.filter(
      (entry): entry is AnswerEntry => entry.kind === 'answer' && entry.inspectionId === change.inspectionId && entry.itemKey === change.itemKey,
    );
    // A change refused for good is superseded by the user's next change of the item.
    for (const refused of ofItem.filter((entry) => entry.parked === 'failed')) await this.discard(refused.id);
    const waiting = ofItem.find((entry) => !this.sending.has(entry.id) && entry.parked !== 'failed');
    let entry: AnswerEntry;
    if (waiting) {
      // A conflict stays one until the user chooses; their edits go into their own version meanwhile.
      entry = { ...waiting, value: change.value, note: change.note, notBefore, error: undefined };
    } else {
      entry = {
        kind: 'answer',
        id: this.newId(),
        seq: ++this.seq,
        userId: this.userId,
        orgId: change.orgId,
        inspectionId: change.inspectionId,
        itemKey: change.itemKey,
        value: change.value,
        note: change.note,
        baseVersion: ofItem.some((other) => this.sending.has(other.id)) ? undefined : change.knownVersion,
        notBefore,
        attempts: 0,
      };
    }
    await this.write(entry);
    this.schedule();
  }

  /** Records a photo (the file itself, as a blob) to upload when the network allows. */
  async enqueuePhoto(photo: { orgId: string; inspectionId: string; itemKey: string; blob: Blob; contentType: string; fileName: string }): Promise<void> {
    const entry: PhotoEntry = {
      kind: 'photo',
      id: this.newId(),
      seq: ++this.seq,
      userId: this.userId,
      ...photo,
      notBefore: this.now(),
      attempts: 0,
    };
    await this.write(entry);
    this.schedule();
  }

  /** Drops a waiting change (the user takes the server's answer, or gives up a refused one). */
  async discard(id: string): Promise<void> {
    if (this.sending.has(id)) return;
    await this.options.store.remove(id);
    this.entries = this.entries.filter((entry) => entry.id !== id);
    this.publish();
  }

  /** After a conflict: send ours over theirs, now that the user has seen theirs. */
  async keepMine(id: string): Promise<void> {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry || entry.kind !== 'answer' || entry.parked !== 'conflict') return;
    await this.write({ ...entry, baseVersion: entry.theirs?.version ?? null, theirs: undefined, parked: undefined, notBefore: this.now(), attempts: 0 });
    this.schedule();
  }

  /** Sends what is waiting now, without waiting out a backoff (a "Retry now" button, the network coming back). */
  retryNow(): void {
    const now = this.now();
    this.entries = this.entries.map((entry) => (entry.parked || entry.notBefore <= now ? entry : { ...entry, notBefore: now }));
    this.publish();
    this.schedule();
  }

  /** Resolves once nothing of this inspection is waiting or on its way (parked entries aside). */
  async settled(inspectionId: string): Promise<void> {
    this.retryNow();
    for (;;) {
      const busy = this.entries.some((entry) => entry.inspectionId === inspectionId && !entry.parked);
      if (!busy) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops the timer (the user signed out, the tab closes). */
  stop(): void {
    clearTimeout(this.timer);
  }

  private async write(entry: OutboxEntry): Promise<void> {
    await this.options.store.put(entry);
    const index = this.entries.findIndex((candidate) => candidate.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    this.entries.sort((a, b) => a.seq - b.seq);
    this.publish();
  }

  private async drop(ids: string[]): Promise<void> {
    for (const id of ids) await this.options.store.remove(id);
    this.entries = this.entries.filter((entry) => !ids.includes(entry.id));
  }

  private publish(loaded = this.state.loaded): void {
    const unparked = this.entries.filter((entry) => !entry.parked);
    const retryAt = unparked.some((entry) => entry.attempts > 0) ? Math.min(...unparked.map((entry) => entry.notBefore)) : null;
    this.state = { entries: [...this.entries], sending: new Set(this.sending), retryAt, progress: new Map(this.progress), loaded };
    for (const listener of this.listeners) listener();
  }

  /** Wakes the sender when the first waiting entry is due. */
  schedule(): void {
    clearTimeout(this.timer);
    const head = this.entries.find((entry) => !entry.parked);
    if (!head || !this.isOnline()) return;
    const wait = Math.max(0, head.notBefore - this.now(), this.elsewhereUntil - this.now());
    this.timer = setTimeout(() => void this.flush(), wait);
  }

  /** Sends until nothing is due; one pass at a time (a second call asks for one more pass). */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      try {
        do {
          this.again = false;
          const ran = await this.exclusive(() => this.pass());
          if (!ran) this.elsewhereUntil = this.now() + 1000;
        } while (this.again);
      } finally {
        this.flushing = undefined;
        this.schedule();
      }
    })();
    return this.flushing;
  }

  /** One pass: sends the entries that are due, in order, stopping at the first that must wait. */
  private async pass(): Promise<void> {
    // Another tab may have sent or added entries since: the store is the truth.
    const stored = await this.options.store.list();
    this.entries = stored.filter((entry) => entry.userId === this.userId);
    this.seq = Math.max(this.seq, ...stored.map((entry) => entry.seq));
    for (;;) {
      if (!this.isOnline()) return;
      const head = this.entries.find((entry) => !entry.parked);
      if (!head || head.notBefore > this.now()) return;
      const ok = head.kind === 'answer' ? await this.sendAnswers(head) : await this.sendPhoto(head);
      if (!ok) return;
    }
  }

  /** The due answers of the head's inspection, from the head on, one per item, up to a batch. */
  private batchFrom(head: AnswerEntry): AnswerEntry[] {
    const batch: AnswerEntry[] = [];
    const items = new Set<string>();
    for (const entry of this.entries) {
      if (entry.parked) continue;
      if (entry.kind !== 'answer' || entry.inspectionId !== head.inspectionId) break;
      if (entry.notBefore > this.now() || entry.baseVersion === undefined || items.has(entry.itemKey)) break;
      items.add(entry.itemKey);
      batch.push(entry);
      if (batch.length === MAX_BATCH) break;
    }
    return batch;
  }

  /** Sends a batch; true when the sender may go on to the next entry. */
  private async sendAnswers(head: AnswerEntry): Promise<boolean> {
    const batch = this.batchFrom(head);
    if (batch.length === 0) return false;
    for (const entry of batch) this.sending.add(entry.id);
    this.publish();
    try {
      const saved = await this.options.transport.saveAnswers(
        head.orgId,
        head.inspectionId,
        batch.map((entry) => ({ item_key: entry.itemKey, value: entry.value, note: entry.note, base_version: entry.baseVersion ?? null })),
      );
      await this.landed(batch, saved.answers);
      this.options.events?.onAnswersSaved?.(head.orgId, head.inspectionId, saved);
      return true;
    } catch (error) {
      return await this.refused(batch, this.options.describe(error));
    } finally {
      for (const entry of batch) this.sending.delete(entry.id);
      this.publish();
    }
  }

  /** Saved rows: their entries go, and a later change of the same item continues from the new version. */
  private async landed(entries: AnswerEntry[], rows: Answer[]): Promise<void> {
    await this.drop(entries.map((entry) => entry.id));
    for (const row of rows) {
      const next = this.entries.find(
        (entry): entry is AnswerEntry => entry.kind === 'answer' && entry.inspectionId === entries[0].inspectionId && entry.itemKey === row.item_key && entry.baseVersion === undefined,
      );
      if (next) await this.write({ ...next, baseVersion: row.version });
    }
  }

  private async refused(batch: AnswerEntry[], failure: OutboxFailure): Promise<boolean> {
    if (failure.code === 'stale_version') {
      const current = new Map((failure.current ?? []).map((row) => [row.item_key, row]));
      // A retry whose first attempt arrived: the server already holds exactly this change.
      const arrived = batch.filter((entry) => {
        const row = current.get(entry.itemKey);
        return row !== undefined && sameValue(row.value, entry.value) && (row.note ?? null) === entry.note;
      });
      await this.landed(arrived, arrived.map((entry) => current.get(entry.itemKey)!));
      for (const entry of batch) {
        const row = current.get(entry.itemKey);
        if (!row || arrived.includes(entry)) continue;
        await this.write({ ...entry, parked: 'conflict', theirs: row, error: undefined });
      }
      if (arrived.length > 0) this.options.events?.onAnswersSaved?.(batch[0].orgId, batch[0].inspectionId, { answers: arrived.map((entry) => current.get(entry.itemKey)!) });
      this.options.events?.onStale?.(batch[0].orgId, batch[0].inspectionId);
      // The rest of the batch was not written (all or nothing): it goes again at once.
      return true;
    }
    if (isTransient(failure)) {
      const attempts = batch[0].attempts + 1;
      const unreachable = failure.status === null;
      await this.write({ ...batch[0], attempts, notBefore: this.now() + backoffMs(attempts, this.random, unreachable), error: failure.message, unreachable });
      return false;
    }
    if (failure.code === 'validation_failed') {
      // Only the answers named are refused; the others go again.
      for (const [index, entry] of batch.entries()) {
        const message = failure.fieldErrors[`answers.${index}.value`] ?? failure.fieldErrors[`answers.${index}.item_key`];
        if (message) await this.write({ ...entry, parked: 'failed', error: message });
      }
      if (batch.every((_, index) => !failure.fieldErrors[`answers.${index}.value`] && !failure.fieldErrors[`answers.${index}.item_key`])) {
        for (const entry of batch) await this.write({ ...entry, parked: 'failed', error: failure.message });
      }
      return true;
    }
    // The inspection is no longer open to answers (submitted, canceled, reassigned, gone): nothing
    // of it can be sent; each change stays visible with why, until the user lets it go.
    for (const entry of this.entries) {
      if (entry.inspectionId === batch[0].inspectionId && !entry.parked) await this.write({ ...entry, parked: 'failed', error: failure.message });
    }
    this.options.events?.onStale?.(batch[0].orgId, batch[0].inspectionId);
    return true;
  }

  /** A photo's steps, each remembered: check in (keyed), upload to the signed URL, confirm. */
  private async sendPhoto(entry: PhotoEntry): Promise<boolean> {
    this.sending.add(entry.id);
    this.publish();
    let current = entry;
    try {
      if (!current.attachmentId || !current.upload) {
        const checkedIn = await this.options.transport.checkInPhoto(current);
        current = { ...current, attachmentId: checkedIn.attachment.id, upload: checkedIn.upload };
        await this.write(current);
      }
      if (!current.uploaded) {
        await this.options.transport.uploadPhoto(current.upload!, current.blob, current.contentType, (sent, total) => {
          this.progress.set(entry.id, { sent, total });
          this.publish();
        });
        current = { ...current, uploaded: true };
        await this.write(current);
      }
      await this.options.transport.confirmPhoto(current as PhotoEntry & { attachmentId: string });
      await this.drop([current.id]);
      this.options.events?.onPhotoSaved?.(current);
      return true;
    } catch (error) {
      const failure = this.options.describe(error);
      if (isTransient(failure)) {
        const attempts = current.attempts + 1;
        const unreachable = failure.status === null;
        await this.write({ ...current, attempts, notBefore: this.now() + backoffMs(attempts, this.random, unreachable), error: failure.message, unreachable });
        return false;
      }
      if (failure.code === 'validation_failed' && failure.fieldErrors.file && current.uploaded) {
        // The server does not see the upload: send it again.
        await this.write({ ...current, uploaded: false, attempts: current.attempts + 1, notBefore: this.now() + backoffMs(current.attempts + 1, this.random) });
        return false;
      }
      await this.write({ ...current, parked: 'failed', error: failure.message });
      this.options.events?.onStale?.(current.orgId, current.inspectionId);
      return true;
    } finally {
      this.sending.delete(entry.id);
      this.progress.delete(entry.id);
      this.publish();
    }
  }
}
