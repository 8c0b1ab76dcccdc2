// Reports (issue 16 part 4), on a private stack:
// 1. inspections.csv of 100 000 inspections through the api function (gateway → Deno → a cursor
//    in the caller's transaction under RLS → the stream), read to the end: time, bytes, rows/s,
//    and the function process's memory — its peak RSS (VmHWM, reset before each export through
//    /proc/<pid>/clear_refs) beside its RSS before, and the same for a 10 000-row export, so a
//    flat memory shows as the same peak for ten times the rows. Also the CPU time the function
//    spent (hosted functions have a CPU-time limit as well as a wall clock).
// 2. answers.csv of 2 000 inspections × 40 answers (80 000 records), the same figures.
// 3. report.pdf of a 500-item inspection with 50 photos (2.5 MB JPEGs uploaded through the real
//    check-in → signed upload → confirm flow): time, size, peak RSS and CPU of the function.
// 4. report.pdf of the worst inspection the limits allow (issue 24.1, worstReport below): every
//    text at its longest in alternating scripts, signatures at 2 MP that decode to incompressible
//    pixels, 1 000 photos with the largest files and PNGs, 1 000 corrective actions; the same
//    figures, and from the function with V8's heap capped, the heap and buffers it held.
//    BENCH_REPORTS=worst runs only this part (no 100k seed), BENCH_REPORTS=pdf skips the CSVs.
// Loopback only; every loop is bounded.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freePort } from '../../stack/os.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';
import { encodePng } from '../support/png.ts';
import { signUpBenchUser } from './measure.ts';

const INSPECTIONS = 100_000;
const SMALL_EXPORT = 10_000;
const ANSWERED_INSPECTIONS = 2_000;
const ANSWERS_EACH = 40;
const ROUNDS = 3;
const PDF_ITEMS = 500;
const PDF_PHOTOS = 50;
const PHOTO_BYTES = 2.5 * 1024 * 1024;

/** The api function's Deno process on this stack: its command line names api/index.ts, its environment this stack's database. */
function functionPid(dbUrl: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('functions/api/index.ts')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(`SUPABASE_DB_URL=${dbUrl}`)) return Number(entry);
    } catch {
      // A process that ended meanwhile, or one of another user's.
    }
  }
  throw new Error('the api function process was not found');
}

function status(pid: number): { rssKb: number; peakKb: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? NaN);
  return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
}

/** User + system CPU seconds of the process so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** V8's old-space cap for the capped copy of the function: what is left of hosted's 256 MB after code and new space. */
const CAPPED_HEAP_MB = 128;

/**
 * A second process of the api function, started exactly as the stack started `pid` (its command
 * line and environment) but with V8's heap capped at CAPPED_HEAP_MB, listening on a port of its
 * own. Left alone, V8 on this 24 GB machine grows its heap lazily and collects late, so an
 * uncapped process's RSS says little about what hosted's 256 MB limit allows; a report that
 * needed more live memory than the cap would end this process with an out-of-memory error.
 */
async function cappedFunction(pid: number, live = false): Promise<{ url: string; pid: number; stop: () => void; lastProbe: () => Promise<Probe | null> }> {
  const [deno, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  const port = await freePort();
  const child = spawn(deno, [args[0], `--v8-flags=--max-old-space-size=${CAPPED_HEAP_MB}${live ? ',--expose-gc' : ''}`, ...args.slice(1)], {
    cwd: realpathSync(`/proc/${pid}/cwd`),
    // The memory probe (supabase/functions/_shared/memory-probe.ts) logs each export's peaks; with
    // `live`, after collecting the garbage first.
    env: { ...env, DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, FIELDCHECK_MEMORY_PROBE: live ? 'live' : '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const probes: Probe[] = [];
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      if (text.includes('"memory_probe"')) probes.push(JSON.parse(text));
      else if (text.trim()) console.error(`[capped function] ${text}`);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('the capped function process exited while starting');
    const ready = await fetch(`${url}/api/openapi.json`).then((r) => r.arrayBuffer().then(() => true), () => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: () => child.kill('SIGTERM'),
    lastProbe: async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return probes.at(-1) ?? null;
    },
  };
}

/** What the function's memory probe logged for one answer: peaks in MB. */
interface Probe {
  memory_probe: string;
  heap_used_mb: number;
  external_mb: number;
  heap_and_external_mb: number;
  rss_mb: number;
}

interface Measured {
  ms: number;
  bytes: number;
  lines: number;
  beforeMb: number;
  peakMb: number;
  cpuS: number;
}

/** Downloads `url` to the end, counting bytes and line ends, with the function's peak RSS reset first. */
async function measure(pid: number, url: string, token: string, anonKey: string): Promise<Measured> {
  // "5" resets the peak RSS (VmHWM) to the current RSS (Linux ≥ 4.0).
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = status(pid);
  const cpu = cpuSeconds(pid);
  const started = performance.now();
  const response = await fetch(url, { headers: { apikey: anonKey, authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
  }
  const ms = performance.now() - started;
  const after = status(pid);
  return { ms, bytes, lines, beforeMb: before.rssKb / 1024, peakMb: after.peakKb / 1024, cpuS: cpuSeconds(pid) - cpu };
}

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function line(label: string, runs: Measured[], rowsPerRun: number) {
  const ms = median(runs.map((r) => r.ms));
  console.log(
    `  ${label}: median ${(ms / 1000).toFixed(2)} s (${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')}), ` +
      `${Math.round(rowsPerRun / (ms / 1000)).toLocaleString('en')} rows/s, ${mb(runs[0].bytes)} MB; ` +
      `function RSS before ${runs.map((r) => r.beforeMb.toFixed(0)).join('/')} MB, peak ${runs.map((r) => r.peakMb.toFixed(0)).join('/')} MB; ` +
      `CPU ${runs.map((r) => r.cpuS.toFixed(2)).join('/')} s`,
  );
}

/** A 500-item template: 10 sections of 50 items of every kind but photos, and 5 photo items of 10 photos. */
function bigDefinition() {
  const kinds = ['pass_fail', 'yes_no', 'number', 'text', 'single_choice', 'date'] as const;
  const sections = Array.from({ length: 10 }, (_, s) => ({
    key: `section-${s}`,
    title: `Section ${s + 1} — Zone ${String.fromCharCode(65 + s)}`,
    items: Array.from({ length: PDF_ITEMS / 10 }, (_, i) => {
      const n = s * 50 + i;
      const key = `item-${n}`;
      const label = `Check ${n + 1}: the equipment in area ${s + 1} is clean, labelled and in working order`;
      if (i === 0 && s < 5) return { key, kind: 'photo', label: `Photos of zone ${s + 1}`, help: null, required: false, weight: 0, max_photos: 10 };
      const kind = kinds[n % kinds.length];
      const base = { key, label, help: null, required: false, weight: 1 };
      if (kind === 'yes_no') return { ...base, kind, fail_on: 'no' };
      if (kind === 'number') return { ...base, kind, min: 0, max: 5, unit: '°C' };
      if (kind === 'single_choice') return { ...base, kind, options: ['Good', 'Fair', 'Poor'], failing_options: ['Poor'] };
      return { ...base, kind };
    }),
  }));
  return { sections };
}

function valueFor(item: { kind: string }, n: number): unknown {
  switch (item.kind) {
    case 'pass_fail':
      return n % 7 === 0 ? 'fail' : 'pass';
    case 'yes_no':
      return n % 11 === 0 ? 'no' : 'yes';
    case 'number':
      return (n % 8) - 1;
    case 'text':
      return `Observed on the walk-through: item ${n} is as expected; staff Zoë and 山田 confirmed.`;
    case 'single_choice':
      return ['Good', 'Fair', 'Poor'][n % 3];
    case 'date':
      return '2026-11-20';
    default:
      return null;
  }
}

/**
 * A valid JPEG of about `bytes` bytes: a real 320 × 240 image with comment segments padding it out,
 * put before its scan (SOS) as a camera's EXIF and ICC data come before it, so the frame header
 * stays near the start as in a phone's photo.
 */
function paddedJpeg(bytes: number, frameLast = false): Uint8Array {
  const image = new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '..', 'fixtures', 'reports', 'photo.jpg')));
  // With `frameLast`, the padding goes right after the start marker, before the frame header, as a
  // very large ICC profile or XMP block puts it: the report walks the whole file for the header.
  let sos = 2;
  if (!frameLast) while (!(image[sos] === 0xff && image[sos + 1] === 0xda)) sos += 2 + ((image[sos + 2] << 8) | image[sos + 3]);
  const segments: Uint8Array[] = [];
  for (let left = bytes - image.length; left > 4; ) {
    const payload = Math.min(65_533, left - 4);
    const segment = new Uint8Array(4 + payload).fill(0x20);
    segment.set([0xff, 0xfe, ((payload + 2) >> 8) & 0xff, (payload + 2) & 0xff]);
    segments.push(segment);
    left -= segment.length;
  }
  const out = new Uint8Array(image.length + segments.reduce((sum, s) => sum + s.length, 0));
  out.set(image.subarray(0, sos), 0);
  let at = sos;
  for (const segment of segments) {
    out.set(segment, at);
    at += segment.length;
  }
  out.set(image.subarray(sos), at);
  return out;
}

// --- 4. The worst report the limits allow (issue 24.1) -------------------------------------------
//
// What costs the function memory while it makes a report (docs/reports.md, "Images" and "Limits"),
// each at the most the limits allow, in one inspection of 500 items (50 sections of 10):
// - text: every label 500 characters, every answer 4 000, every note 2 000, in alternating Latin
//   and CJK characters (each character a run of its own font: the most drawing per character);
// - signatures: 50 items signed at the 2 MP limit with PNGs whose pixels pako cannot compress
//   (each row the one above plus one: tiny as a PNG, 7.6 MB re-compressed), up to ~100 KB of data
//   URL each; the report decodes the first four (8 MP) and holds their pixels until written;
// - photos: 100 photo items of 10, 1 000 photos: 990 small JPEGs, 5 JPEGs of 10 MB whose frame
//   header lies behind 10 MB of metadata, 5 PNGs of 40 MP (all through the real upload routes);
// - 1 000 corrective actions (the most a report lists) with 120-character titles and 2 000-character
//   resolution notes.
// A report of 5 000 photos would add 4 000 small deferred images (~1 KB each) and 500 items of
// text fewer; its files stream through one at a time whatever their size.
const WORST = { sections: 50, signatures: 50, photoItems: 100, photosEach: 10, bigJpegs: 5, bigPngs: 5, actions: 1000 };

/** `length` characters alternating Latin and CJK, so that every character is a run of its own font. */
const mixedText = (length: number, seed: string) =>
  Array.from({ length }, (_, i) => (i % 2 ? String.fromCharCode(0x6771 + (i % 50)) : seed[i % seed.length])).join('');

/**
 * A 2 MP RGBA PNG whose decoded pixels deflate hardly at all (row 0 noise, each row the one above
 * plus one, which PNG's Up filter makes nothing), padded with a text chunk to the 200 000
 * characters a signature's data URL may have.
 */
function incompressibleSignature(): string {
  const width = 1732;
  const height = 1154;
  let seed = 7;
  const first = Array.from({ length: width * 4 }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 255);
  const spec = {
    width, height, colorType: 6 as const, level: 9,
    sample: (x: number, y: number) => [0, 1, 2, 3].map((k) => (first[x * 4 + k] + y) & 255),
    filter: (y: number) => (y === 0 ? 0 : 2),
  };
  const bytes = encodePng(spec).length;
  const padding = Math.floor(((200_000 - 'data:image/png;base64,'.length) / 4) * 3) - bytes - 12 - 2;
  const png = encodePng({ ...spec, extra: [['tEXt', new TextEncoder().encode(`Comment\0${'x'.repeat(padding - 8)}`)]] });
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

function worstDefinition() {
  const kinds = Array.from({ length: WORST.sections * 10 }, (_, n) =>
    n < WORST.signatures ? 'signature' : n < WORST.signatures + WORST.photoItems ? 'photo' : 'text');
  return {
    sections: Array.from({ length: WORST.sections }, (_, s) => ({
      key: `s${s}`,
      title: mixedText(120, `Section ${s} `),
      items: Array.from({ length: 10 }, (_, i) => {
        const n = s * 10 + i;
        const base = { key: `i${n}`, label: mixedText(500, `Check ${n} `), help: null, required: false, weight: 0 };
        return kinds[n] === 'photo' ? { ...base, kind: 'photo', max_photos: WORST.photosEach } : { ...base, kind: kinds[n] };
      }),
    })),
  };
}

/** When the next api call of the uploads may start: 14 a second, under a user's 1 200 a minute (docs/api-keys.md). */
let nextCallAt = 0;
const CALL_SPACING_MS = 70;

/** Checks a photo in, uploads it to its signed URL and confirms it, as the bench user, paced under the user's rate limit. */
async function uploadPhoto(
  stack: Awaited<ReturnType<typeof startStack>>,
  rawApi: (method: string, route: string, body?: unknown) => Promise<any>,
  accessToken: string,
  base: string,
  itemKey: string,
  bytes: Uint8Array,
  contentType: string,
) {
  const api = async (method: string, route: string, body?: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const wait = nextCallAt - Date.now();
      nextCallAt = Math.max(Date.now(), nextCallAt) + CALL_SPACING_MS;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await rawApi(method, route, body);
      } catch (error) {
        if (attempt === 30 || !String(error).includes('answered 429')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  const created = await api('POST', `${base}/attachments`, { item_key: itemKey, content_type: contentType, byte_size: bytes.byteLength });
  const body = new FormData();
  body.append('cacheControl', '3600');
  body.append('', new Blob([bytes as BlobPart], { type: contentType }));
  const upload = await fetch(`${stack.config.apiUrl}/storage/v1/object/upload/sign/evidence/${created.upload.path}?token=${created.upload.token}`, {
    method: 'PUT',
    headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'x-upsert': 'false' },
    body,
  });
  if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  await api('POST', `${base}/attachments/${created.attachment.id}/confirm`);
}

async function benchWorstReport(options: {
  stack: Awaited<ReturnType<typeof startStack>>;
  sql: postgres.Sql;
  api: (method: string, route: string, body?: unknown) => Promise<any>;
  accessToken: string;
  userId: string;
  orgId: string;
  siteId: string;
  publish: (definition: unknown, name: string) => Promise<{ templateId: string; versionId: string }>;
}) {
  const { stack, sql, api, accessToken, userId, orgId, siteId } = options;
  const definition = worstDefinition();
  const items = definition.sections.flatMap((section) => section.items);
  const template = await options.publish(definition, 'The worst report the limits allow');
  const signature = incompressibleSignature();
  console.log(`\nThe worst report: a 500-item inspection, ${WORST.signatures} signatures of 2 MP (${(signature.length / 1000).toFixed(0)} k characters each), ` +
    `${WORST.photoItems * WORST.photosEach} photos, ${WORST.actions} actions…`);
  const [inspection] = await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    const made = await tx`
      insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, started_at, started_by, created_by)
      values (${orgId}, ${siteId}, ${template.templateId}, ${template.versionId}, ${mixedText(120, 'Worst ')}, 'in_progress', now(), ${userId}, ${userId})
      returning id
    `;
    const rows = items.filter((item) => item.kind !== 'photo').map((item, n) => ({
      item_key: item.key,
      value: item.kind === 'signature' ? { signer: mixedText(120, 'Signer '), image: signature } : mixedText(4000, `Answer ${n} `),
      note: mixedText(2000, `Note ${n} `),
    }));
    await tx`
      insert into public.answers (org_id, inspection_id, item_key, value, note, answered_by)
      select ${orgId}, ${made[0].id}, r.item_key, r.value, r.note, ${userId}
      from jsonb_to_recordset(${tx.json(rows as never)}) as r (item_key text, value jsonb, note text)
    `;
    await tx`
      update public.answers set note = ${mixedText(2000, 'Photo note ')}
      where inspection_id = ${made[0].id}
    `;
    await tx`
      insert into public.actions (org_id, site_id, inspection_id, item_key, origin, title, priority, due_at, resolution_note, assignee_id, created_at)
      select ${orgId}, ${siteId}, ${made[0].id}, null, 'manual', ${mixedText(120, 'Action ')}, 'high', now() + interval '3 days',
             ${mixedText(2000, 'Resolved ')}, ${userId}, now() + n * interval '1 millisecond'
      from generate_series(1, ${WORST.actions}) n
    `;
    return made;
  });
  // Photo items' notes, as answers without a value.
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into public.answers (org_id, inspection_id, item_key, value, note, answered_by)
      select ${orgId}, ${inspection.id}, key, null, ${mixedText(2000, 'Photo note ')}, ${userId}
      from unnest(${items.filter((item) => item.kind === 'photo').map((item) => item.key)}::text[]) key
    `;
  });

  const small = new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '..', 'fixtures', 'reports', 'photo.jpg')));
  const bigJpeg = paddedJpeg(10 * 1024 * 1024, true);
  const bigPng = encodePng({ width: 5000, height: 8000, colorType: 2, sample: () => [90, 120, 60], filter: () => 0, level: 9 });
  const photoItems = items.filter((item) => item.kind === 'photo');
  const uploads: Array<[string, Uint8Array, string]> = [];
  for (const [i, item] of photoItems.entries()) {
    for (let p = 0; p < WORST.photosEach; p++) {
      const file: [Uint8Array, string] = i === 0 && p < WORST.bigJpegs
        ? [bigJpeg, 'image/jpeg']
        : i === 1 && p < WORST.bigPngs
        ? [bigPng, 'image/png']
        : [small, 'image/jpeg'];
      uploads.push([item.key, ...file]);
    }
  }
  const base = `orgs/${orgId}/inspections/${inspection.id}`;
  for (let next = 0; next < uploads.length;) {
    await Promise.all(uploads.slice(next, (next += 8)).map(([key, bytes, type]) => uploadPhoto(stack, api, accessToken, base, key, bytes, type)));
  }

  const pid = functionPid(stack.config.dbUrl);
  const pdfUrl = `${stack.config.apiUrl}/functions/v1/api/${base}/report.pdf`;
  await measure(pid, pdfUrl, accessToken, stack.config.anonKey); // warm-up
  const runs: Measured[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await measure(pid, pdfUrl, accessToken, stack.config.anonKey));
  const capped = await cappedFunction(pid);
  const cappedRuns: Array<{ run: Measured; probe: Probe | null }> = [];
  try {
    await measure(capped.pid, `${capped.url}/api/${base}/report.pdf`, accessToken, stack.config.anonKey); // warm-up
    for (let i = 0; i < ROUNDS; i++) {
      const run = await measure(capped.pid, `${capped.url}/api/${base}/report.pdf`, accessToken, stack.config.anonKey);
      cappedRuns.push({ run, probe: await capped.lastProbe() });
    }
  } finally {
    capped.stop();
  }
  // Once more with the garbage collected before each sample: what the report holds.
  const live = await cappedFunction(pid, true);
  let liveRun: { run: Measured; probe: Probe | null };
  try {
    const run = await measure(live.pid, `${live.url}/api/${base}/report.pdf`, accessToken, stack.config.anonKey);
    liveRun = { run, probe: await live.lastProbe() };
  } finally {
    live.stop();
  }
  console.log(`The worst report, ${ROUNDS} rounds (hosted limit: 256 MB)`);
  console.log(
    `  report.pdf: ${runs.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s, ${mb(runs[0].bytes)} MB; ` +
      `function RSS before ${runs.map((r) => r.beforeMb.toFixed(0)).join('/')} MB, peak ${runs.map((r) => r.peakMb.toFixed(0)).join('/')} MB; ` +
      `CPU ${runs.map((r) => r.cpuS.toFixed(1)).join('/')} s`,
  );
  const probes = cappedRuns.map((r) => r.probe).filter((p): p is Probe => p !== null);
  console.log(
    `  with V8's heap capped at ${CAPPED_HEAP_MB} MB: ${cappedRuns.map((r) => (r.run.ms / 1000).toFixed(1)).join(', ')} s; ` +
      `RSS before ${cappedRuns.map((r) => r.run.beforeMb.toFixed(0)).join('/')} MB, peak ${cappedRuns.map((r) => r.run.peakMb.toFixed(0)).join('/')} MB; ` +
      `V8 heap used at most ${probes.map((p) => p.heap_used_mb).join('/')} MB, external (buffers) ${probes.map((p) => p.external_mb).join('/')} MB, ` +
      `together at most ${probes.map((p) => p.heap_and_external_mb).join('/')} MB; CPU ${cappedRuns.map((r) => r.run.cpuS.toFixed(1)).join('/')} s`,
  );
  console.log(
    `  live (garbage collected before each sample, every 250 ms and after each decode): V8 heap at most ${liveRun.probe?.heap_used_mb} MB, ` +
      `external ${liveRun.probe?.external_mb} MB, together ${liveRun.probe?.heap_and_external_mb} MB; RSS peak ${liveRun.run.peakMb.toFixed(0)} MB`,
  );
}

export async function benchReports(): Promise<void> {
  const dir = privateStackFolder('bench-reports-');
  const stack = await startStack({ dataDir: path.join(dir, 'data'), ports: await freeStackPorts(), fast: true, scheduler: false, log: () => {} });
  const sql = postgres(stack.config.dbUrl, { max: 4, prepare: false, onnotice: () => {} });
  try {
    const { accessToken, claims } = await signUpBenchUser(stack, 'bench-reports');
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${stack.config.apiUrl}/functions/v1/api/${route}`, {
        method,
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data = await response.json();
      if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(data)}`);
      return data;
    };
    const org = await api('POST', 'orgs', { name: 'Bench reports' });
    const sites = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api('POST', `orgs/${org.id}/sites`, { name: `Site ${i} — Café Ñandú`, timezone: i % 2 ? 'America/Los_Angeles' : 'Europe/Madrid', latitude: 40 + i / 10, longitude: -3 - i / 10 })),
    );
    const small = { sections: [{ key: 'main', title: 'Main', items: [{ key: 'floor', kind: 'pass_fail', label: 'Floor clean', help: null, required: true, weight: 1 }] }] };
    const answersDefinition = {
      sections: [{
        key: 'main',
        title: 'Main',
        items: Array.from({ length: ANSWERS_EACH }, (_, i) => ({ key: `q${i}`, kind: i % 2 ? 'text' : 'pass_fail', label: `Question ${i + 1}`, help: null, required: false, weight: 1 })),
      }],
    };
    const publish = async (definition: unknown, name: string) => {
      const [template] = await sql`insert into public.templates (org_id, name, definition, created_by) values (${org.id}, ${name}, ${sql.json(definition as never)}, ${claims.sub}) returning id`;
      const [version] = await sql`
        insert into public.template_versions (org_id, template_id, version, name, definition, published_by)
        values (${org.id}, ${template.id}, 1, ${name}, ${sql.json(definition as never)}, ${claims.sub}) returning id
      `;
      return { templateId: template.id as string, versionId: version.id as string };
    };
    await benchWorstReport({ stack, sql, api, accessToken, userId: claims.sub, orgId: org.id, siteId: sites[0].id, publish });
    if (process.env.BENCH_REPORTS === 'worst') return;
    const smallTemplate = await publish(small, 'Daily check');
    const answersTemplate = await publish(answersDefinition, 'Forty questions');

    // 100 000 inspections over ten sites, in every state, written without their triggers (fast);
    // the first site holds SMALL_EXPORT of them.
    console.log(`\nReports: seeding ${INSPECTIONS.toLocaleString('en')} inspections…`);
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.inspections (
          org_id, site_id, template_id, template_version_id, title, assignee_id, due_at, status, score, max_score, failed_count,
          started_at, started_by, start_latitude, start_longitude, start_accuracy_m, start_distance_m, start_outside_geofence,
          submitted_at, submitted_by, reviewed_at, reviewed_by, external_ref, created_by, created_at, updated_at
        )
        select ${org.id}, (${sql.array(sites.map((s) => s.id))}::uuid[])[case when n <= ${SMALL_EXPORT} then 1 else 2 + n % 9 end],
               ${smallTemplate.templateId}, ${smallTemplate.versionId},
               'Daily check ' || n || ' — Café Ñandú', ${claims.sub}, now() + (n % 40 - 20) * interval '1 day',
               (array['scheduled','in_progress','submitted','approved','changes_requested','canceled'])[1 + n % 6]::public.inspection_status,
               n % 5, 4, n % 3, now() - interval '2 days', ${claims.sub}, 40.1, -3.1, 10, n % 300, n % 300 > 200,
               now() - interval '1 day', ${claims.sub}, case when n % 6 = 3 then now() end, case when n % 6 = 3 then ${claims.sub}::uuid end,
               'ERP-' || n, ${claims.sub}, now() - n * interval '1 second', now()
        from generate_series(1, ${INSPECTIONS}) n
      `;
      // Answers for answers.csv: ANSWERED_INSPECTIONS inspections of forty questions each.
      await tx`
        with made as (
          insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, created_by, created_at)
          select ${org.id}, ${sites[1].id}, ${answersTemplate.templateId}, ${answersTemplate.versionId}, 'Forty questions ' || n, 'in_progress', ${claims.sub},
                 now() - interval '1 year' - n * interval '1 second'
          from generate_series(1, ${ANSWERED_INSPECTIONS}) n
          returning id
        )
        insert into public.answers (org_id, inspection_id, item_key, value, note, failed, answered_by, answered_at)
        select ${org.id}, made.id, 'q' || q, case when q % 2 = 1 then to_jsonb('Seen by Zoë, all good; "quoted", ok'::text) else '"pass"'::jsonb end,
               case when q % 5 = 0 then 'Checked twice' end, case when q % 2 = 0 then false end, ${claims.sub}, now()
        from made, generate_series(0, ${ANSWERS_EACH - 1}) q
      `;
    });
    await sql`analyze public.inspections`;
    await sql`analyze public.answers`;

    const pid = functionPid(stack.config.dbUrl);
    console.log(`The api function's RSS before any report: ${(status(pid).rssKb / 1024).toFixed(0)} MB`);
    const base = `${stack.config.apiUrl}/functions/v1/api/orgs/${org.id}/reports`;
    const exportOf = (route: string) => measure(pid, `${base}/${route}`, accessToken, stack.config.anonKey);
    await exportOf(`inspections.csv?site_id=${sites[0].id}`); // warm-up
    const all: Measured[] = [];
    const tenth: Measured[] = [];
    const answers: Measured[] = [];
    // BENCH_REPORTS=pdf skips the CSV rounds (the seeding stays: the PDF's site is among it).
    for (let i = 0; i < (process.env.BENCH_REPORTS === 'pdf' ? 0 : ROUNDS); i++) {
      tenth.push(await exportOf(`inspections.csv?site_id=${sites[0].id}`));
      all.push(await exportOf('inspections.csv'));
      answers.push(await exportOf(`answers.csv?q=Forty%20questions`));
    }
    const total = INSPECTIONS + ANSWERED_INSPECTIONS;
    if (all.length > 0) {
      if (all[0].lines !== total + 1) throw new Error(`inspections.csv had ${all[0].lines - 1} records, not ${total}`);
      if (answers[0].lines < ANSWERED_INSPECTIONS * ANSWERS_EACH + 1) throw new Error(`answers.csv had ${answers[0].lines - 1} records`);
      console.log(`CSV exports through the api function, read to the end, ${ROUNDS} rounds (budget: 100 000 inspections in ≤ 10 s, memory flat)`);
      line(`inspections.csv, ${total.toLocaleString('en')} rows`, all, total);
      line(`inspections.csv, ${SMALL_EXPORT.toLocaleString('en')} rows (one site)`, tenth, SMALL_EXPORT);
      line(`answers.csv, ${(answers[0].lines - 1).toLocaleString('en')} rows`, answers, answers[0].lines - 1);
    }

    // 3. The PDF of a 500-item inspection with 50 photos.
    const big = await publish(bigDefinition(), 'Full site audit — 500 items');
    const definition = bigDefinition();
    const items = definition.sections.flatMap((s) => s.items);
    const [inspection] = await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      const made = await tx`
        insert into public.inspections (org_id, site_id, template_id, template_version_id, title, status, started_at, started_by, start_distance_m,
                                        start_outside_geofence, score, max_score, failed_count, created_by)
        values (${org.id}, ${sites[0].id}, ${big.templateId}, ${big.versionId}, 'Full site audit — Café Ñandú — 東京', 'in_progress', now(), ${claims.sub}, 42, false, 400, 480, 60, ${claims.sub})
        returning id
      `;
      const rows = items.filter((item) => item.kind !== 'photo').map((item, n) => {
        const value = valueFor(item, n);
        const failed = item.kind === 'pass_fail' ? value === 'fail' : item.kind === 'yes_no' ? value === 'no' : item.kind === 'number' ? (value as number) < 0 || (value as number) > 5 : item.kind === 'single_choice' ? value === 'Poor' : null;
        return { org_id: org.id, inspection_id: made[0].id, item_key: item.key, value: JSON.stringify(value), note: n % 9 === 0 ? 'Needs a second look next week.' : null, failed, answered_by: claims.sub };
      });
      await tx`
        insert into public.answers (org_id, inspection_id, item_key, value, note, failed, answered_by)
        select org_id, inspection_id, item_key, value::jsonb, note, failed, answered_by
        from jsonb_to_recordset(${tx.json(rows as never)}) as r (org_id uuid, inspection_id uuid, item_key text, value text, note text, failed boolean, answered_by uuid)
      `;
      await tx`
        insert into public.actions (org_id, site_id, inspection_id, item_key, origin, title, priority, due_at, assignee_id)
        select a.org_id, ${sites[0].id}, a.inspection_id, a.item_key, 'submit', 'Fix: ' || a.item_key, 'high', now() + interval '3 days', ${claims.sub}
        from public.answers a where a.inspection_id = ${made[0].id} and a.failed
      `;
      return made;
    });
    const photo = paddedJpeg(PHOTO_BYTES);
    const photoItems = items.filter((item) => item.kind === 'photo');
    console.log(`Uploading ${PDF_PHOTOS} photos of ${mb(photo.byteLength)} MB through the attachments routes…`);
    for (let n = 0; n < PDF_PHOTOS; n++) {
      const itemKey = photoItems[n % photoItems.length].key;
      const created = await api('POST', `orgs/${org.id}/inspections/${inspection.id}/attachments`, { item_key: itemKey, content_type: 'image/jpeg', byte_size: photo.byteLength });
      const body = new FormData();
      body.append('cacheControl', '3600');
      body.append('', new Blob([photo as BlobPart], { type: 'image/jpeg' }));
      const upload = await fetch(`${stack.config.apiUrl}/storage/v1/object/upload/sign/evidence/${created.upload.path}?token=${created.upload.token}`, {
        method: 'PUT',
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${accessToken}`, 'x-upsert': 'false' },
        body,
      });
      if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
      await api('POST', `orgs/${org.id}/inspections/${inspection.id}/attachments/${created.attachment.id}/confirm`);
    }
    const pdfUrl = `${stack.config.apiUrl}/functions/v1/api/orgs/${org.id}/inspections/${inspection.id}/report.pdf`;
    await measure(pid, pdfUrl, accessToken, stack.config.anonKey); // warm-up: fonts read, code compiled
    const pdfs: Measured[] = [];
    for (let i = 0; i < ROUNDS; i++) pdfs.push(await measure(pid, pdfUrl, accessToken, stack.config.anonKey));
    // The same downloads from a copy of the function whose V8 heap is capped as hosted caps memory.
    const capped = await cappedFunction(pid);
    const cappedRuns: Array<{ what: string; run: Measured; probe: Probe | null }> = [];
    try {
      const viaCapped = async (what: string, route: string) => {
        const run = await measure(capped.pid, `${capped.url}/api/orgs/${org.id}/${route}`, accessToken, stack.config.anonKey);
        cappedRuns.push({ what, run, probe: await capped.lastProbe() });
      };
      await viaCapped('warm-up', `inspections/${inspection.id}/report.pdf`);
      for (let i = 0; i < ROUNDS; i++) {
        await viaCapped('report.pdf', `inspections/${inspection.id}/report.pdf`);
        if (process.env.BENCH_REPORTS !== 'pdf') {
          await viaCapped('inspections.csv', 'reports/inspections.csv');
          await viaCapped('inspections.csv (10 000 rows)', `reports/inspections.csv?site_id=${sites[0].id}`);
        }
      }
    } finally {
      capped.stop();
    }
    console.log(`The PDF of a ${PDF_ITEMS}-item inspection with ${PDF_PHOTOS} photos (${mb(photo.byteLength * PDF_PHOTOS)} MB of JPEG), ${ROUNDS} rounds (hosted limit: 256 MB)`);
    const ms = median(pdfs.map((r) => r.ms));
    console.log(
      `  report.pdf: median ${(ms / 1000).toFixed(2)} s (${pdfs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')}), ${mb(pdfs[0].bytes)} MB; ` +
        `function RSS before ${pdfs.map((r) => r.beforeMb.toFixed(0)).join('/')} MB, peak ${pdfs.map((r) => r.peakMb.toFixed(0)).join('/')} MB; ` +
        `CPU ${pdfs.map((r) => r.cpuS.toFixed(2)).join('/')} s`,
    );
    console.log(`The api function with V8's heap capped at ${CAPPED_HEAP_MB} MB (its own process, straight to its port), ${ROUNDS} rounds each`);
    for (const what of ['report.pdf', 'inspections.csv', 'inspections.csv (10 000 rows)']) {
      const entries = cappedRuns.filter((r) => r.what === what);
      const runs = entries.map((r) => r.run);
      if (runs.length === 0) continue;
      const probes = entries.map((r) => r.probe).filter((p): p is Probe => p !== null);
      console.log(
        `  ${what}: ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')} s, ${mb(runs[0].bytes)} MB; ` +
          `RSS before ${runs.map((r) => r.beforeMb.toFixed(0)).join('/')} MB, peak ${runs.map((r) => r.peakMb.toFixed(0)).join('/')} MB; ` +
          `V8 heap used at most ${probes.map((p) => p.heap_used_mb).join('/')} MB, external (buffers) ${probes.map((p) => p.external_mb).join('/')} MB; ` +
          `CPU ${runs.map((r) => r.cpuS.toFixed(2)).join('/')} s`,
      );
    }
  } finally {
    await sql.end();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
