// Asks the preview worker (preview.worker.ts) for occurrences, with a time limit: a worker still
// counting after it is ended, and the next request starts a new one.
import type { ExpansionInput, PreviewOccurrence } from './occurrence-expansion';
import type { PreviewRequest, PreviewResponse } from './preview.worker';

/** For a rule, once the worker is ready: any rule that occurs takes milliseconds; one that never does, seconds. */
export const PREVIEW_TIME_LIMIT_MS = 2000;
/** For the worker's code to arrive and start (a slow network, a first visit). */
const START_LIMIT_MS = 20_000;

export class PreviewTimeout extends Error {
  constructor() {
    super('preview_timeout');
  }
}

interface Waiting {
  resolve: (results: PreviewOccurrence[][]) => void;
  reject: (error: Error) => void;
}

interface PreviewWorker {
  instance: Worker;
  ready: Promise<void>;
  waiting: Map<number, Waiting>;
}

let worker: PreviewWorker | null = null;
let lastId = 0;

function stop(current: PreviewWorker, error: Error) {
  current.instance.terminate();
  if (worker === current) worker = null;
  for (const request of current.waiting.values()) request.reject(error);
  current.waiting.clear();
}

function startWorker(): PreviewWorker {
  const instance = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, Waiting>();
  let isReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  const started: PreviewWorker = { instance, ready, waiting };
  instance.onmessage = (event: MessageEvent<PreviewResponse>) => {
    const message = event.data;
    if ('ready' in message) return isReady();
    const request = waiting.get(message.id);
    if (!request) return;
    waiting.delete(message.id);
    if ('failed' in message) request.reject(new Error('preview_failed'));
    else request.resolve(message.results);
  };
  instance.onerror = () => stop(started, new Error('preview_failed'));
  return started;
}

function withTimeLimit<T>(promise: Promise<T>, ms: number, error: () => Error, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(error());
      }, ms);
    }),
  ]);
}

/** The occurrences of each input, worked out in the worker; rejects with PreviewTimeout when it takes too long. */
export async function expandOccurrences(inputs: ExpansionInput[], timeLimitMs = PREVIEW_TIME_LIMIT_MS): Promise<PreviewOccurrence[][]> {
  worker ??= startWorker();
  const current = worker;
  const failed = () => new Error('preview_failed');
  await withTimeLimit(current.ready, START_LIMIT_MS, failed, () => stop(current, failed()));
  const id = ++lastId;
  const answer = new Promise<PreviewOccurrence[][]>((resolve, reject) => current.waiting.set(id, { resolve, reject }));
  current.instance.postMessage({ id, inputs } satisfies PreviewRequest);
  // Still counting: end it (every request to it is dropped) and let the next one start afresh.
  const tooSlow = () => new PreviewTimeout();
  return withTimeLimit(answer, timeLimitMs, tooSlow, () => stop(current, tooSlow()));
}
