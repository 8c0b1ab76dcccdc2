// Reports (docs/product.md §7; docs/reports.md): `GET /orgs/{org}/reports/inspections.csv` and
// `…/answers.csv` stream every inspection (or answer) the list's filters select, and
// `GET /orgs/{org}/inspections/{id}/report.pdf` is the inspection's report to hand over.
//
// The CSVs are read through a server-side cursor inside the caller's transaction, so row-level
// security decides what is in them and the function holds one batch at a time however many rows
// there are: the transaction stays open while the body streams and ends when the last batch is
// written, when the download is aborted (the stream is canceled, the cursor closed, the
// transaction rolled back) or when the database fails (the body is cut off, never finished
// silently short).
//
// Because an export holds a pooled connection and an open transaction while it waits on its
// reader, it is bounded three ways (issue 24, finding 3; docs/reports.md, "Slow readers"): a
// function instance streams at most `exportLimits.slots` exports at once (others get 503 with
// Retry-After), a reader slower than `minBytesPerSecond` while the export waits on it is cut,
// and Postgres ends the export's session if its transaction sits idle longer than
// `idleInTransactionSeconds` whatever the function does.
import { z } from 'zod';
import { attachmentDisposition, csvBoolean, csvHeader, csvNumber, csvPlain, csvRecord, csvText, UTF8_BOM } from '../_shared/csv.ts';
import type { Tx } from '../_shared/db.ts';
import { memoryProbe } from '../_shared/memory-probe.ts';
import { ApiError, logToConsole } from '../_shared/errors.ts';
import { route, type RouteContext } from '../_shared/http.ts';
import { answerText } from '../_shared/schemas/answer-text.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import { ANSWER_CSV_COLUMNS, INSPECTION_CSV_COLUMNS, reportQuerySchema } from '../_shared/schemas/reports.ts';
import { requireRole } from './access.ts';
import { inspectionFilters, overdueCondition } from './inspections.ts';
import { storageCallerOf } from './evidence.ts';
import { orgParams } from './orgs.ts';
import { buildInspectionReport, readReportData } from './report-pdf.ts';

type ReportQuery = z.output<typeof reportQuerySchema>;
/** The export's query, not yet run: it becomes the body of an SQL cursor (`declare … cursor for`). */
type ExportQuery = ReturnType<Tx['unsafe']>;

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

/**
 * `column` (a timestamptz) in `zone` (a site's IANA zone) as ISO 8601 with that zone's offset,
 * to the second: `2026-11-21T09:05:00-08:00`. Null stays null. In SQL, because formatting a
 * hundred thousand rows' times with Intl in the function would take seconds.
 */
const localIso = (tx: Tx, column: string, zone: string) => {
  const local = `(${column} at time zone ${zone})`;
  const utc = `(${column} at time zone 'UTC')`;
  return tx.unsafe(
    `to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS') || case when ${local} < ${utc} then '-' else '+' end || ` +
      `to_char(greatest(${local} - ${utc}, ${utc} - ${local}), 'HH24:MI')`,
  );
};

/**
 * `column` (a timestamptz) in UTC as `YYYY-MM-DD HH:MM:SS`: the one form of a date-time that
 * Excel, LibreOffice and Google Sheets all read as a date when they open a CSV (docs/reports.md).
 */
const utcDateTime = (tx: Tx, column: string) => tx.unsafe(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`);

interface InspectionCsvRow {
  id: string;
  title: string;
  status: string;
  site_id: string;
  site_name: string;
  site_external_ref: string | null;
  site_timezone: string;
  external_ref: string | null;
  template_id: string;
  template_name: string;
  template_version: number;
  assignee_id: string | null;
  assignee_name: string | null;
  due_at: string | null;
  overdue: boolean;
  started_at: string | null;
  started_by: string | null;
  started_by_name: string | null;
  submitted_at: string | null;
  submitted_by: string | null;
  submitted_by_name: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
  reviewed_by_name: string | null;
  score: string;
  max_score: string;
  failed_count: number;
  start_distance_m: number | null;
  start_outside_geofence: boolean | null;
  created_at: string;
  updated_at: string;
  due_at_utc: string | null;
  started_at_utc: string | null;
  submitted_at_utc: string | null;
  reviewed_at_utc: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

function selectInspectionRows(tx: Tx, orgId: string, query: ReportQuery) {
  const at = (column: string) => localIso(tx, column, 's.timezone');
  const utc = (column: string) => utcDateTime(tx, column);
  return tx<InspectionCsvRow[]>`
    select i.id, i.title, i.status, i.site_id, s.name as site_name, s.external_ref as site_external_ref, s.timezone as site_timezone,
           i.external_ref, i.template_id, v.name as template_name, v.version as template_version,
           i.assignee_id, pa.display_name as assignee_name, ${at('i.due_at')} as due_at, ${overdueCondition(tx)} as overdue,
           ${at('i.started_at')} as started_at, i.started_by, ps.display_name as started_by_name,
           ${at('i.submitted_at')} as submitted_at, i.submitted_by, pu.display_name as submitted_by_name,
           ${at('i.reviewed_at')} as reviewed_at, i.reviewed_by, pr.display_name as reviewed_by_name,
           i.score, i.max_score, i.failed_count, round(i.start_distance_m)::int as start_distance_m, i.start_outside_geofence,
           ${at('i.created_at')} as created_at, ${at('i.updated_at')} as updated_at,
           ${utc('i.due_at')} as due_at_utc, ${utc('i.started_at')} as started_at_utc, ${utc('i.submitted_at')} as submitted_at_utc,
           ${utc('i.reviewed_at')} as reviewed_at_utc, ${utc('i.created_at')} as created_at_utc, ${utc('i.updated_at')} as updated_at_utc
    from public.inspections i
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    left join public.profiles pa on pa.user_id = i.assignee_id
    left join public.profiles ps on ps.user_id = i.started_by
    left join public.profiles pu on pu.user_id = i.submitted_by
    left join public.profiles pr on pr.user_id = i.reviewed_by
    where ${inspectionFilters(tx, orgId, query)}
    order by i.created_at desc, i.id desc
  `;
}

/** A percentage to one decimal; empty before anything scored was answered. */
function percentOf(score: number, max: number): string {
  return max > 0 ? String(Math.round((score / max) * 1000) / 10) : '';
}

function inspectionRecord(row: InspectionCsvRow): string {
  const score = Number(row.score);
  const max = Number(row.max_score);
  return csvRecord([
    csvPlain(row.id),
    csvText(row.title),
    csvPlain(row.status),
    csvPlain(row.site_id),
    csvText(row.site_name),
    csvText(row.site_external_ref),
    csvPlain(row.site_timezone),
    csvText(row.external_ref),
    csvPlain(row.template_id),
    csvText(row.template_name),
    csvNumber(row.template_version),
    csvPlain(row.assignee_id),
    csvText(row.assignee_name),
    csvPlain(row.due_at),
    csvBoolean(row.overdue),
    csvPlain(row.started_at),
    csvPlain(row.started_by),
    csvText(row.started_by_name),
    csvPlain(row.submitted_at),
    csvPlain(row.submitted_by),
    csvText(row.submitted_by_name),
    csvPlain(row.reviewed_at),
    csvPlain(row.reviewed_by),
    csvText(row.reviewed_by_name),
    csvNumber(score),
    csvNumber(max),
    percentOf(score, max),
    csvNumber(row.failed_count),
    csvNumber(row.start_distance_m),
    csvBoolean(row.start_outside_geofence),
    csvPlain(row.created_at),
    csvPlain(row.updated_at),
    csvPlain(row.due_at_utc),
    csvPlain(row.started_at_utc),
    csvPlain(row.submitted_at_utc),
    csvPlain(row.reviewed_at_utc),
    csvPlain(row.created_at_utc),
    csvPlain(row.updated_at_utc),
  ]);
}

interface AnswerCsvRow {
  inspection_id: string;
  inspection_title: string;
  inspection_status: string;
  site_id: string;
  site_name: string;
  site_timezone: string;
  template_name: string;
  template_version: number;
  section_key: string;
  section_title: string;
  item_key: string;
  item_label: string;
  item_kind: string;
  item_unit: string | null;
  value: unknown;
  failed: boolean | null;
  note: string | null;
  answered_by: string | null;
  answered_by_name: string | null;
  answered_at: string | null;
  answered_at_utc: string | null;
  photo_count: number;
  hidden: boolean;
}

function selectAnswerRows(tx: Tx, orgId: string, query: ReportQuery) {
  return tx<AnswerCsvRow[]>`
    select i.id as inspection_id, i.title as inspection_title, i.status as inspection_status,
           i.site_id, s.name as site_name, s.timezone as site_timezone, v.name as template_name, v.version as template_version,
           sec.value ->> 'key' as section_key, sec.value ->> 'title' as section_title,
           item.value ->> 'key' as item_key, item.value ->> 'label' as item_label, item.value ->> 'kind' as item_kind,
           item.value ->> 'unit' as item_unit,
           a.value, a.failed, a.note, a.answered_by, p.display_name as answered_by_name,
           ${localIso(tx, 'a.answered_at', 's.timezone')} as answered_at, ${utcDateTime(tx, 'a.answered_at')} as answered_at_utc,
           photos.n as photo_count, (item.value ->> 'key') = any (i.hidden_item_keys) as hidden
    from public.inspections i
    join public.sites s on s.id = i.site_id
    join public.template_versions v on v.id = i.template_version_id
    cross join lateral jsonb_array_elements(v.definition -> 'sections') with ordinality as sec (value, n)
    cross join lateral jsonb_array_elements(sec.value -> 'items') with ordinality as item (value, n)
    left join public.answers a on a.inspection_id = i.id and a.item_key = item.value ->> 'key'
    left join public.profiles p on p.user_id = a.answered_by
    cross join lateral (
      select count(*)::int as n from public.attachments t
      where t.inspection_id = i.id and t.item_key = item.value ->> 'key' and t.confirmed_at is not null
    ) photos
    where ${inspectionFilters(tx, orgId, query)}
      and (a.item_key is not null or photos.n > 0)
    order by i.created_at desc, i.id desc, sec.n, item.n
  `;
}

function answerRecord(row: AnswerCsvRow): string {
  const isNumber = row.item_kind === 'number';
  return csvRecord([
    csvPlain(row.inspection_id),
    csvText(row.inspection_title),
    csvPlain(row.inspection_status),
    csvPlain(row.site_id),
    csvText(row.site_name),
    csvPlain(row.site_timezone),
    csvText(row.template_name),
    csvNumber(row.template_version),
    csvPlain(row.section_key),
    csvText(row.section_title),
    csvPlain(row.item_key),
    csvText(row.item_label),
    csvPlain(row.item_kind),
    csvText(answerText({ kind: row.item_kind, unit: row.item_unit }, row.value)),
    csvBoolean(row.failed),
    csvText(row.note),
    csvPlain(row.answered_by),
    csvText(row.answered_by_name),
    csvPlain(row.answered_at),
    csvNumber(row.photo_count),
    csvBoolean(row.hidden),
    // A number column: a negative reading stays a number, never gets the text's apostrophe.
    csvNumber(isNumber && typeof row.value === 'number' ? row.value : null),
    csvText(isNumber ? row.item_unit : null),
    csvPlain(row.answered_at_utc),
  ]);
}

/** The organization's slug, for file names; 404 unless the caller belongs to it. */
async function organizationSlug(tx: Tx, orgId: string): Promise<string> {
  await requireRole(tx, orgId);
  const [org] = await tx<{ slug: string }[]>`select slug from public.organizations where id = ${orgId}`;
  if (!org) throw ApiError.notFound('organization');
  return org.slug;
}

/** Today's date (UTC) as the file names carry it. */
const today = () => new Date().toISOString().slice(0, 10);

type StreamContext = Pick<RouteContext<unknown, unknown, unknown>, 'db' | 'requestId'>;

/**
 * A CSV answer streamed from `rows` in the caller's transaction. `prepare` runs first in the same
 * transaction (the role check; the file name): what it throws is answered as a problem, because
 * nothing has been sent yet. After that the status is sent, and a failure can only cut the body
 * off, which clients see as a failed download.
 */
async function streamCsv<Row>(
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

export const exportInspectionsCsv = route({
  method: 'GET',
  response: { file: 'text/csv' },
  summary: 'Every inspection the filters select, as CSV (streamed)',
  path: '/orgs/:org/reports/inspections.csv',
  params: orgParams,
  query: reportQuerySchema,
  handler: async ({ params, query, db, requestId }) => {
    return await streamCsv<InspectionCsvRow>(
      { db, requestId },
      async (tx) => `${await organizationSlug(tx, params.org)}-inspections-${today()}.csv`,
      INSPECTION_CSV_COLUMNS,
      (tx) => selectInspectionRows(tx, params.org, query),
      inspectionRecord,
    );
  },
});

export const exportAnswersCsv = route({
  method: 'GET',
  response: { file: 'text/csv' },
  summary: "Every answer of the inspections the filters select, as CSV (streamed)",
  path: '/orgs/:org/reports/answers.csv',
  params: orgParams,
  query: reportQuerySchema,
  handler: async ({ params, query, db, requestId }) => {
    return await streamCsv<AnswerCsvRow>(
      { db, requestId },
      async (tx) => `${await organizationSlug(tx, params.org)}-answers-${today()}.csv`,
      ANSWER_CSV_COLUMNS,
      (tx) => selectAnswerRows(tx, params.org, query),
      answerRecord,
    );
  },
});

const inspectionParams = z.strictObject({ org: idSchema, id: idSchema });

export const inspectionReportPdf = route({
  method: 'GET',
  response: { file: 'application/pdf' },
  summary: "The inspection's report as a PDF: cover, every item, photos, signature, failed items and their actions",
  path: '/orgs/:org/inspections/:id/report.pdf',
  params: inspectionParams,
  handler: async ({ req, principal, params, db }) => {
    // Everything the report shows is read as the caller, so RLS decides; the photos' bytes come
    // from Storage afterwards, only for the rows that read returned.
    const data = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await readReportData(tx, params.org, params.id);
    });
    const pdf = await buildInspectionReport(data, storageCallerOf(req, principal));
    const fileName = `${data.organization.slug}-${data.inspection.title}-${data.generatedAt.slice(0, 10)}.pdf`;
    return new Response(pdf.stream, {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': attachmentDisposition(fileName),
        // Known before the first byte (report-pdf.ts), so a download can show its progress.
        'content-length': String(pdf.length),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  },
});
