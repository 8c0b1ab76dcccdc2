// Asks the preview worker (preview.worker.ts) for occurrences, with a time limit: a worker still
// counting after it is ended and the next request starts a new one.
import type { ExpansionInput, PreviewOccurrence } from './occurrence-expansion';
import type { PreviewRequest, PreviewResponse } from './preview.worker';

/** Long enough for any rule that occurs (milliseconds, measured), short enough not to keep a person waiting. */
export const PREVIEW_TIME_LIMIT_MS = 2000;

export class PreviewTimeout extends Error {
  constructor() {
    super('preview_timeout');
  }
}

let worker: Worker | null = null;
let lastId = 0;
const waiting = new Map<number, { resolve: (results: PreviewOccurrence[][]) => void; reject: (error: Error) => void }>();

function startWorker(): Worker {
  const started = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module' });
  started.onmessage = (event: MessageEvent<PreviewResponse>) => {
    const request = waiting.get(event.data.id);
    if (!request) return;
    waiting.delete(event.data.id);
    if ('failed' in event.data) request.reject(new Error('preview_failed'));
    else request.resolve(event.data.results);
  };
  started.onerror = () => {
    for (const [id, request] of waiting) {
      waiting.delete(id);
      request.reject(new Error('preview_failed'));
    }
  };
  return started;
}

/** The occurrences of each input, worked out in the worker; rejects with PreviewTimeout after the time limit. */
export function expandOccurrences(inputs: ExpansionInput[], timeLimitMs = PREVIEW_TIME_LIMIT_MS): Promise<PreviewOccurrence[][]> {
  worker ??= startWorker();
  const current = worker;
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (!waiting.delete(id)) return;
      // Still counting: end it (every request to it is dropped) and let the next one start afresh.
      current.terminate();
      if (worker === current) worker = null;
      for (const [otherId, other] of waiting) {
        waiting.delete(otherId);
        other.reject(new PreviewTimeout());
      }
      reject(new PreviewTimeout());
    }, timeLimitMs);
    waiting.set(id, {
      resolve: (results) => {
        clearTimeout(timer);
        resolve(results);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    current.postMessage({ id, inputs } satisfies PreviewRequest);
  });
}
