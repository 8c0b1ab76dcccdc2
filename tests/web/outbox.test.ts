// The run page's outbox (web/src/features/inspections/offline/outbox.ts) against a real IndexedDB
// implementation (fake-indexeddb: the browser's API, in Node) and a transport that records what
// the server would receive (the server is outside this unit; its side is in tests/api and e2e):
// order, coalescing per item, versions carried across saves, backoff with jitter, a retry whose
// first attempt arrived, conflicts, refusals, durability across a reload, and photo steps.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, Outbox, type OutboxFailure, type OutboxTransport } from '../../web/src/features/inspections/offline/outbox';
import { openOutboxStore, type OutboxStore, type PhotoEntry } from '../../web/src/features/inspections/offline/outbox-store';
import type { Answer, AnswerInput } from '../../web/src/features/inspections/types';

const USER = 'user-1';
const ORG = 'org-1';
const INSPECTION = 'inspection-1';

class Failure extends Error {
  constructor(readonly failure: OutboxFailure) {
    super(failure.code ?? 'network');
  }
}

const offline = () => new Failure({ code: null, status: null, message: 'The network is not reachable.', fieldErrors: {} });

function row(itemKey: string, value: unknown, version: number, note: string | null = null): Answer {
  return { inspection_id: INSPECTION, item_key: itemKey, value, note, failed: null, answered_by: 'someone', answered_by_name: 'Someone', answered_at: new Date().toISOString(), version } as Answer;
}

/** What the server holds, and what it was sent: a fake standing in for the api function. */
class FakeServer implements OutboxTransport {
  answers = new Map<string, Answer>();
  batches: AnswerInput[][] = [];
  failNext: Array<() => Error> = [];
  /** Saves but throws afterwards, as a response lost on the way back. */
  loseNextResponse = false;
  gate: Promise<void> | undefined;
  calls: string[] = [];

  async saveAnswers(_org: string, _inspection: string, answers: AnswerInput[]) {
    this.batches.push(answers);
    if (this.gate) await this.gate;
    const fail = this.failNext.shift();
    if (fail) throw fail();
    const stale = answers.filter((a) => (this.answers.get(a.item_key)?.version ?? null) !== a.base_version);
    if (stale.length > 0) {
      throw new Failure({ code: 'stale_version', status: 409, message: 'Someone else changed this.', fieldErrors: {}, current: stale.map((a) => this.answers.get(a.item_key)!) });
    }
    const saved = answers.map((a) => {
      const next = row(a.item_key, a.value, (this.answers.get(a.item_key)?.version ?? 0) + 1, a.note);
      this.answers.set(a.item_key, next);
      return next;
    });
    if (this.loseNextResponse) {
      this.loseNextResponse = false;
      throw offline();
    }
    return { answers: saved, inspection: { id: INSPECTION, score: 0, max_score: 0, failed_count: 0, version: 1 } };
  }

  async checkInPhoto(entry: PhotoEntry) {
    this.calls.push(`check-in ${entry.id}`);
    const fail = this.failNext.shift();
    if (fail) throw fail();
    return { attachment: { id: `att-${entry.id}` }, upload: { path: `p/${entry.id}.jpg`, token: 't' } };
  }

  async uploadPhoto(upload: { path: string }) {
    this.calls.push(`upload ${upload.path}`);
    const fail = this.failNext.shift();
    if (fail) throw fail();
    return 'uploaded' as const;
  }

  async confirmPhoto(entry: PhotoEntry & { attachmentId: string }) {
    this.calls.push(`confirm ${entry.attachmentId}`);
    const fail = this.failNext.shift();
    if (fail) throw fail();
    return {};
  }
}

let clock = 1_000_000;
let online = true;
let store: OutboxStore;
let server: FakeServer;
let dbName: string;

function outboxFor(events = {}) {
  return new Outbox(USER, {
    store,
    transport: server,
    describe: (error) => (error instanceof Failure ? error.failure : { code: 'internal_error', status: 500, message: String(error), fieldErrors: {} }),
    events,
    now: () => clock,
    random: () => 0.5,
    isOnline: () => online,
  });
}

const answer = (itemKey: string, value: unknown, knownVersion: number | null = null, delayMs = 0) => ({
  orgId: ORG,
  inspectionId: INSPECTION,
  itemKey,
  value,
  note: null,
  knownVersion,
  delayMs,
});

beforeEach(async () => {
  // Timers are the test's: the outbox is flushed by hand, at the time the test sets.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  clock = 1_000_000;
  online = true;
  dbName = `outbox-${Math.random()}`;
  store = await openOutboxStore(dbName);
  server = new FakeServer();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('answers', () => {
  it('sends waiting changes of one inspection in one batch, in the order made', async () => {
    const outbox = outboxFor();
    await outbox.enqueueAnswer(answer('b', 'pass'));
    await outbox.enqueueAnswer(answer('a', 'fail'));
    await outbox.flush();
    expect(server.batches).toEqual([[
      { item_key: 'b', value: 'pass', note: null, base_version: null },
      { item_key: 'a', value: 'fail', note: null, base_version: null },
    ]]);
    expect(outbox.getState().entries).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it('coalesces changes of one item waiting together into one, from the version they were made from', async () => {
    server.answers.set('temp', row('temp', 3, 4));
    const outbox = outboxFor();
    await outbox.enqueueAnswer(answer('temp', 7, 4, 700));
    await outbox.enqueueAnswer(answer('temp', 7.5, 4, 700));
    expect(outbox.getState().entries).toHaveLength(1);
    // Not before the typing pause is over.
    await outbox.flush();
    expect(server.batches).toEqual([]);
    clock += 700;
    await outbox.flush();
    expect(server.batches).toEqual([[{ item_key: 'temp', value: 7.5, note: null, base_version: 4 }]]);
    expect(server.answers.get('temp')?.version).toBe(5);
  });

  it('a change made while the item is on its way follows it, from the version that save returns', async () => {
    const outbox = outboxFor();
    let open!: () => void;
    server.gate = new Promise((resolve) => (open = resolve));
    await outbox.enqueueAnswer(answer('a', 'fail'));
    const first = outbox.flush();
    await vi.waitFor(() => expect(outbox.getState().sending.size).toBe(1));
    await outbox.enqueueAnswer(answer('a', 'pass'));
    expect(outbox.getState().entries).toHaveLength(2);
    server.gate = undefined;
    open();
    await first;
    await outbox.flush();
    expect(server.batches.map((b) => b.map((a) => [a.value, a.base_version]))).toEqual([[['fail', null]], [['pass', 1]]]);
    expect(server.answers.get('a')).toMatchObject({ value: 'pass', version: 2 });
  });

  it('waits out a failure with growing, jittered delays, the later changes behind it, then sends them in order', async () => {
    const outbox = outboxFor();
    server.failNext.push(offline, offline);
    await outbox.enqueueAnswer(answer('a', 'fail'));
    await outbox.flush();
    const [first] = outbox.getState().entries;
    expect(first).toMatchObject({ attempts: 1, error: 'The network is not reachable.', unreachable: true });
    expect(first.notBefore - clock).toBe(backoffMs(1, () => 0.5, true));
    expect(outbox.getState().retryAt).toBe(first.notBefore);
    await outbox.enqueueAnswer({ ...answer('b', 'pass'), inspectionId: 'inspection-2' });
    await outbox.flush();
    expect(server.batches).toHaveLength(1);
    clock = first.notBefore;
    await outbox.flush();
    const second = outbox.getState().entries[0];
    expect(second.attempts).toBe(2);
    expect(second.notBefore - clock).toBe(backoffMs(2, () => 0.5, true));
    clock = second.notBefore;
    await outbox.flush();
    expect(server.batches.map((b) => b.map((a) => a.item_key))).toEqual([['a'], ['a'], ['a'], ['b']]);
    expect(outbox.getState().entries).toEqual([]);
    expect(outbox.getState().retryAt).toBeNull();
  });

  it('backs off 1, 2, 5, 10, 20, 30 then 60 s at most, each within ±20 %', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(n, () => 0.5))).toEqual([1000, 2000, 5000, 10000, 20000, 30000, 60000, 60000]);
    expect(backoffMs(3, () => 0)).toBe(4000);
    expect(backoffMs(3, () => 1)).toBe(6000);
    // While the server can't be reached at all, it looks again every 10 s at most.
    expect([4, 5, 7].map((n) => backoffMs(n, () => 0.5, true))).toEqual([10000, 10000, 10000]);
  });

  it('sends nothing while offline, and everything once back online', async () => {
    online = false;
    const outbox = outboxFor();
    await outbox.enqueueAnswer(answer('a', 'fail'));
    await outbox.flush();
    expect(server.batches).toEqual([]);
    online = true;
    outbox.retryNow();
    await outbox.flush();
    expect(server.batches).toHaveLength(1);
  });

  it('counts a retry whose first attempt arrived as saved, not as a conflict: nothing is sent twice', async () => {
    const saved: string[] = [];
    const outbox = outboxFor({ onAnswersSaved: (_org: string, _inspection: string, s: { answers: Answer[] }) => saved.push(...s.answers.map((a) => `${a.item_key}@${a.version}`)) });
    server.loseNextResponse = true;
    await outbox.enqueueAnswer(answer('a', 'fail'));
    await outbox.flush();
    expect(outbox.getState().entries[0].attempts).toBe(1);
    clock += 60_000;
    await outbox.flush();
    expect(server.answers.get('a')).toMatchObject({ value: 'fail', version: 1 });
    expect(outbox.getState().entries).toEqual([]);
    expect(saved).toEqual(['a@1']);
  });

  it('parks a change someone else overtook, with their value, and sends the rest of the batch', async () => {
    server.answers.set('a', row('a', 'pass', 2));
    const outbox = outboxFor();
    await outbox.enqueueAnswer(answer('a', 'fail', 1));
    await outbox.enqueueAnswer(answer('b', 'pass', null));
    await outbox.flush();
    const [conflict] = outbox.getState().entries;
    expect(conflict).toMatchObject({ itemKey: 'a', parked: 'conflict', theirs: { value: 'pass', version: 2 } });
    expect(server.answers.get('b')?.value).toBe('pass');
    // Keeping ours sends it over theirs, now from their version.
    await outbox.keepMine(conflict.id);
    await outbox.flush();
    expect(server.answers.get('a')).toMatchObject({ value: 'fail', version: 3 });
    expect(outbox.getState().entries).toEqual([]);
  });

  it('parks a change the server refuses for good with its reason, and sends the others', async () => {
    const outbox = outboxFor();
    server.failNext.push(() => new Failure({ code: 'validation_failed', status: 422, message: 'Some fields need attention.', fieldErrors: { 'answers.1.value': 'Enter a number.' } }));
    await outbox.enqueueAnswer(answer('a', 'pass'));
    await outbox.enqueueAnswer(answer('temp', 'warm'));
    await outbox.flush();
    expect(outbox.getState().entries).toMatchObject([{ itemKey: 'temp', parked: 'failed', error: 'Enter a number.' }]);
    expect(server.answers.get('a')?.value).toBe('pass');
    // The user's next change of the item supersedes the refused one.
    await outbox.enqueueAnswer(answer('temp', 4, null));
    expect(outbox.getState().entries).toMatchObject([{ itemKey: 'temp', value: 4 }]);
    expect(outbox.getState().entries[0].parked).toBeUndefined();
  });

  it('keeps every change of an inspection that closed meanwhile, with why, until the user lets it go', async () => {
    const outbox = outboxFor();
    server.failNext.push(() => new Failure({ code: 'invalid_transition', status: 409, message: "This inspection is submitted, so it can't be answered.", fieldErrors: {} }));
    await outbox.enqueueAnswer(answer('a', 'pass'));
    await outbox.enqueueAnswer(answer('b', 'fail'));
    await outbox.flush();
    expect(outbox.getState().entries.map((e) => [e.parked, e.error])).toEqual([
      ['failed', "This inspection is submitted, so it can't be answered."],
      ['failed', "This inspection is submitted, so it can't be answered."],
    ]);
    await outbox.discard(outbox.getState().entries[0].id);
    expect(outbox.getState().entries).toHaveLength(1);
  });

  it('outlives a reload: a new outbox over the same database finds and sends what was waiting', async () => {
    online = false;
    const before = outboxFor();
    await before.enqueueAnswer(answer('a', 'fail'));
    await before.enqueueAnswer(answer('b', 'pass'));
    before.stop();
    online = true;
    const after = outboxFor();
    await after.load();
    expect(after.getState().entries.map((e) => e.kind === 'answer' && e.itemKey)).toEqual(['a', 'b']);
    await after.flush();
    expect(server.batches).toEqual([[
      { item_key: 'a', value: 'fail', note: null, base_version: null },
      { item_key: 'b', value: 'pass', note: null, base_version: null },
    ]]);
  });

  it('holds only the signed-in user\'s changes', async () => {
    online = false;
    await outboxFor().enqueueAnswer(answer('a', 'fail'));
    const other = new Outbox('user-2', { store, transport: server, describe: () => ({ code: null, status: null, message: '', fieldErrors: {} }), now: () => clock });
    await other.load();
    expect(other.getState().entries).toEqual([]);
  });
});

describe('photos', () => {
  const photo = () => ({ orgId: ORG, inspectionId: INSPECTION, itemKey: 'photo', blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), contentType: 'image/jpeg', fileName: 'a.jpg' });

  it('checks in, uploads and confirms, once each', async () => {
    const outbox = outboxFor();
    await outbox.enqueuePhoto(photo());
    const [entry] = outbox.getState().entries;
    await outbox.flush();
    expect(server.calls).toEqual([`check-in ${entry.id}`, `upload p/${entry.id}.jpg`, `confirm att-${entry.id}`]);
    expect(outbox.getState().entries).toEqual([]);
  });

  it('keeps the blob on the device until it is confirmed, and resumes from the step that failed', async () => {
    const outbox = outboxFor();
    await outbox.enqueuePhoto(photo());
    const [entry] = outbox.getState().entries;
    // Check-in passes, the upload fails: the next attempt uploads again without checking in again.
    const upload = server.uploadPhoto.bind(server);
    let failUpload = true;
    server.uploadPhoto = async (u) => {
      if (failUpload) {
        failUpload = false;
        server.calls.push(`upload ${u.path} (lost)`);
        throw offline();
      }
      return upload(u);
    };
    await outbox.flush();
    const [waiting] = (await store.list()) as PhotoEntry[];
    expect(waiting).toMatchObject({ attachmentId: `att-${entry.id}`, attempts: 1 });
    expect(waiting.blob).toBeInstanceOf(Blob);
    clock = waiting.notBefore;
    await outbox.flush();
    expect(server.calls).toEqual([`check-in ${entry.id}`, `upload p/${entry.id}.jpg (lost)`, `upload p/${entry.id}.jpg`, `confirm att-${entry.id}`]);
    expect(await store.list()).toEqual([]);
  });

  it('parks a photo the server refuses (not a photo, limit reached) with the reason', async () => {
    const outbox = outboxFor();
    server.failNext.push(() => new Failure({ code: 'limit_exceeded', status: 422, message: "You've reached the limit of 2 photos.", fieldErrors: {} }));
    await outbox.enqueuePhoto(photo());
    await outbox.flush();
    expect(outbox.getState().entries).toMatchObject([{ kind: 'photo', parked: 'failed', error: "You've reached the limit of 2 photos." }]);
  });
});
