// A CSV streamed from the database (docs/reports.md): read through a server-side cursor inside the
// caller's transaction, so row-level security decides what is in it and the function holds one
// batch at a time however many rows there are. The transaction stays open while the body streams
// and ends when the last batch is written, when the download is aborted (the stream is canceled,
// the cursor closed, the transaction rolled back) or when the database fails (the body is cut off,
// never finished silently short).
//
// Because an export holds a pooled connection and an open transaction while it waits on its
// reader, it is bounded three ways (issue 24, finding 3; docs/reports.md, "Slow readers"): a
// function instance streams at most `exportLimits.slots` exports at once (others get 503 with
// Retry-After), a reader slower than `minBytesPerSecond` while the export waits on it is cut,
// and Postgres ends the export's session if its transaction sits idle longer than
// `idleInTransactionSeconds` whatever the function does.
import { attachmentDisposition, csvHeader, UTF8_BOM } from '../../_shared/csv.ts';
import type { Tx } from '../../_shared/db.ts';
import { ApiError, logToConsole } from '../../_shared/errors.ts';
import type { RouteContext } from '../../_shared/http.ts';
import { memoryProbe } from '../../_shared/memory-probe.ts';

/** The export's query, not yet run: it becomes the body of an SQL cursor (`declare … cursor for`). */
export type ExportQuery = ReturnType<Tx['unsafe']>;

/** Rows fetched per round trip of the cursor: large enough to keep the database busy, small enough to keep memory flat. */
const CURSOR_BATCH = 1000;
/** Bytes queued ahead of a slow client before the cursor waits (back-pressure). */
const STREAM_HIGH_WATER_BYTES = 256 * 1024;
/** A batch's text is handed to the body in pieces of at most this, so the reader's pace is seen finely. */
const PIECE_BYTES = 64 * 1024;

/**
 * What an export holds to (docs/reports.md, "Slow readers"). A deployed function uses these;
 * the test stack's fixture function (tests/fixtures/functions/export-limits) sets smaller ones
 * so a test does not wait minutes.
 */
export const exportLimits = {
  /** Exports one function instance streams at once: each holds one of its 5 pooled connections. */
  slots: 2,
  /** Retry-After of the 503 when every slot is taken: an export of 100 000 rows takes ~4 s. */
  busyRetryAfterSeconds: 5,
  /**
   * Below this many bytes a second, over a window the export spent mostly waiting on its reader,
   * the export is cut. 0: never. 16 KB/s is 128 kbit/s, a third of the slowest mobile profile
   * browsers emulate (Chrome's "Slow 3G", 400 kbit/s); a 25 MB export would take 26 minutes.
   */
  minBytesPerSecond: 16 * 1024,
  /**
   * The window over which the reader's pace is judged. Long, because the function sees the
   * reader's pace through the socket buffers between, in bursts: measured through the local
   * gateway, ~10 MB of buffers let a reader's progress through ~1.5 MB at a time, ~94 s apart
   * at 16 KB/s (docs/reports.md, "Slow readers").
   */
  rateWindowSeconds: 120,
  /**
   * Postgres ends the export's session when its transaction sits idle this long (set on the
   * transaction): a backstop that holds whatever the function does, above the longest the rate
   * rule lets an export wait (two windows).
   */
  idleInTransactionSeconds: 300,
};

/** Exports this function instance is streaming now. */
let exportsStreaming = 0;

/** The export was cut because its reader took the body too slowly. */
class SlowReaderCut extends Error {
  constructor(bytesPerSecond: number) {
    super(`export cut: the reader took ${Math.round(bytesPerSecond)} bytes/s, below the minimum of ${exportLimits.minBytesPerSecond}`);
    this.name = 'SlowReaderCut';
  }
}

/**
 * Judges the reader's pace: `taken` counts the bytes the client has taken from the body. Over
 * each window of `rateWindowSeconds` in which the export spent at least half the time waiting
 * on the client (the database or the function being the slow side does not count against the
 * reader), it must take `minBytesPerSecond` × the window, or `wait` throws SlowReaderCut.
 */
function readerPace(taken: () => number) {
  const windowMs = exportLimits.rateWindowSeconds * 1000;
  let windowStart = Date.now();
  let takenAtStart = taken();
  let waitedMs = 0;
  const judge = (now: number) => {
    const elapsedMs = now - windowStart;
    if (elapsedMs < windowMs) return;
    const rate = ((taken() - takenAtStart) * 1000) / elapsedMs;
    if (exportLimits.minBytesPerSecond > 0 && waitedMs >= elapsedMs / 2 && rate < exportLimits.minBytesPerSecond) throw new SlowReaderCut(rate);
    windowStart = now;
    takenAtStart = taken();
    waitedMs = 0;
  };
  return {
    /** Waits for `ready` (the body has room), judging each window that ends meanwhile. */
    async wait(ready: Promise<void>): Promise<void> {
      // One promise for every round below; if it rejects after a round the timer won, its
      // rejection is still handled (by the race that returns it, or here).
      const room = ready.then(() => true as const);
      room.catch(() => undefined);
      for (;;) {
        judge(Date.now());
        const started = Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const windowOver = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(1, windowStart + windowMs - started))));
        const roomAgain = await Promise.race([room, windowOver]).finally(() => clearTimeout(timer));
        waitedMs += Date.now() - started;
        if (roomAgain) return;
      }
    },
  };
}

export type StreamContext = Pick<RouteContext<unknown, unknown, unknown>, 'db' | 'requestId'>;

/**
 * A CSV answer streamed from `rows` in the caller's transaction. `prepare` runs first in the same
 * transaction (the role check; the file name): what it throws is answered as a problem, because
 * nothing has been sent yet. After that the status is sent, and a failure can only cut the body
 * off, which clients see as a failed download.
 */
export async function streamCsv<Row>(
  ctx: StreamContext,
  prepare: (tx: Tx) => Promise<string>,
  columns: readonly string[],
  rows: (tx: Tx) => ExportQuery,
  record: (row: Row) => string,
): Promise<Response> {
  // Each function instance streams a bounded number of exports, so slow readers never hold all
  // of its pooled connections: a request beyond that is turned away before it takes one.
  if (exportsStreaming >= exportLimits.slots) {
    throw new ApiError('service_unavailable', {
      headers: { 'retry-after': String(exportLimits.busyRetryAfterSeconds) },
      detail: `This server is already sending ${exportLimits.slots} exports; try again in ${exportLimits.busyRetryAfterSeconds} seconds.`,
    });
  }
  exportsStreaming++;
  let slotHeld = true;
  const releaseSlot = () => {
    if (slotHeld) exportsStreaming--;
    slotHeld = false;
  };

  const queue = new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER_BYTES });
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>({}, queue, queue);
  // Counts what the client has taken: this stage runs only when the server reads the body to
  // send it (its readable side keeps nothing ahead), so the count follows the socket's pace.
  let taken = 0;
  let bodyEnd!: TransformStreamDefaultController<Uint8Array>;
  const body = readable.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        bodyEnd = controller;
      },
      transform(chunk, controller) {
        taken += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const encoder = new TextEncoder();
  let fileName = '';
  let started = false;
  // Set when a write is refused: nothing but the client going away errors the body's stream.
  let clientGone = false;
  const ready = Promise.withResolvers<void>();

  const export_ = ctx.db(async (tx) => {
    // However the function fares, Postgres ends this session if the transaction sits idle longer.
    // The session also names the request in pg_stat_activity while it streams (`export <request
    // id>`), so an export that holds a connection can be traced to its request.
    await tx`
      select set_config('idle_in_transaction_session_timeout', ${String(exportLimits.idleInTransactionSeconds * 1000)}, true),
             set_config('application_name', ${`export ${ctx.requestId}`.slice(0, 63)}, true)
    `;
    fileName = await prepare(tx);
    started = true;
    ready.resolve();
    const writer = writable.getWriter();
    const probe = memoryProbe(fileName);
    const pace = readerPace(() => taken);
    const write = async (text: string) => {
      const bytes = encoder.encode(text);
      for (let offset = 0; offset < bytes.byteLength; offset += PIECE_BYTES) {
        // Waits while the client is slower than the database (cut if it is too slow); rejects once
        // the download is aborted.
        await pace.wait(writer.ready.catch((error) => {
          clientGone = true;
          throw error;
        }));
        // Not awaited: write() settles only once the piece has gone through the queues, a wait
        // the pace would not see. A client gone shows in the next `ready` (or in close).
        writer.write(bytes.subarray(offset, offset + PIECE_BYTES)).catch(() => undefined);
      }
    };
    try {
      await write(UTF8_BOM + csvHeader(columns));
      // An SQL cursor, fetched batch by batch with statements of their own: between two fetches
      // the session is "idle in transaction", which the timeout above watches. (postgres.js's
      // protocol-level cursor() keeps the session "active" between batches, where no timeout of
      // Postgres applies.)
      await tx`declare export_rows no scroll cursor for ${rows(tx)}`;
      for (;;) {
        const batch = (await tx.unsafe(`fetch forward ${CURSOR_BATCH} from export_rows`)) as unknown as Row[];
        if (batch.length === 0) break;
        let text = '';
        for (const row of batch) text += record(row);
        await write(text);
        probe.sample();
      }
      await writer.close().catch((error) => {
        clientGone = true;
        throw error;
      });
      probe.end();
    } catch (error) {
      // The body is errored where it leaves, at once (a no-op when the client already went): the
      // writes still queued ahead of a reader that does not read would otherwise hold the abort,
      // and with it this transaction and the slot, for as long as that reader stays.
      bodyEnd.error(error);
      await writer.abort(error).catch(() => undefined);
      throw error;
    }
  });
  export_.finally(releaseSlot).catch((error) => {
    if (!started) return ready.reject(error);
    // After the status went out: an aborted download is the client's choice, a reader too slow
    // is cut on purpose; anything else is ours.
    if (error instanceof SlowReaderCut) logToConsole({ level: 'warn', request_id: ctx.requestId, export: fileName, error: error.message });
    else if (!clientGone) logToConsole({ level: 'error', request_id: ctx.requestId, export: fileName, error: String(error) });
  });

  await ready.promise;
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': attachmentDisposition(fileName),
      // Never kept by a cache in between: it is one caller's view of the organization, and it changes.
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
