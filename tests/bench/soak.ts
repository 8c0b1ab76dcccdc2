// The soak (issue 24): memory over time, not throughput. A stack of its own, started the way a
// developer starts it — `stack:start` (the stack alone) or, with --npm-start, the command behind
// `npm start` (today the stack and the web app's server in one Node process) — takes the load of
// one person using the app: reads, answer saves, photo uploads and realtime subscriptions, with a
// page load every few minutes (a new client that restores the stored session — a password sign-in
// on every tenth —, fresh channels, and with --npm-start the web app's files). Every --sample seconds the resident memory of each of its processes is read from /proc:
// the stack's Node process, each Deno function process, Postgres (its backends summed, as RSS
// and as PSS, which counts shared buffers once), so a grower shows as a rising line.
//
//   npm run bench -- soak                          60 minutes, the stack alone
//   npm run bench -- soak --minutes=10 --npm-start what `npm start` runs, for 10 minutes
//   options: --minutes=N (60), --sample=S seconds (30), --rate=R actions per second (1),
//            --reload=M minutes between page reloads (5), --out=<file> (the samples as JSON),
//            --heap-snapshots (the stack's Node writes a V8 heap snapshot after the warm-up and at
//            the end, kept in .stack/soak-heap-*, to compare in Chrome DevTools' Memory tab)
//
// Loopback only. The machine is shared: the default rate is a person's, about 1.2 requests a
// second. Ctrl-C stops the soak's stack too.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { freePort } from '../../stack/os.ts';
import { freeStackPorts, privateStackFolder, runStackCli, stackCliEnv } from '../support/private-stack.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'soak-password-1';
const PAGE_SIZE = 4096;
// A password sign-in on one page load in this many (the others restore the stored session):
// within Auth's 30 sign-ins per 5 minutes per address even at many actions a second.
const SIGN_IN_EVERY = 10;

export interface SoakOptions {
  minutes: number;
  sampleSeconds: number;
  /** Run what `npm start` runs (stack/cli.ts start --web) instead of `stack:start`. */
  npmStart: boolean;
  /** Mean user actions per second. */
  rate: number;
  reloadMinutes: number;
  out?: string;
  heapSnapshots: boolean;
}

export function soakOptionsFrom(args: string[]): SoakOptions {
  const value = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => (value(name) === undefined ? fallback : Number(value(name)));
  return {
    minutes: number('minutes', 60),
    sampleSeconds: number('sample', 30),
    npmStart: args.includes('--npm-start'),
    rate: number('rate', 1),
    reloadMinutes: number('reload', 5),
    out: value('out'),
    heapSnapshots: args.includes('--heap-snapshots'),
  };
}

// ---------------------------------------------------------------------------------------------
// Memory of a process tree, from /proc (Linux).

interface ProcessInfo {
  pid: number;
  parent: number;
  command: string;
  rssKb: number;
}

function readProcesses(): Map<number, ProcessInfo> {
  const all = new Map<number, ProcessInfo>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // Field 24 of stat (index 21 after the command) is the resident set in pages.
      all.set(Number(entry), { pid: Number(entry), parent: Number(fields[1]), command, rssKb: (Number(fields[21]) * PAGE_SIZE) / 1024 });
    } catch {
      // The process ended while we looked.
    }
  }
  return all;
}

/** Proportional set size (kB): shared pages (Postgres's shared buffers) divided among their users. */
function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface MemorySample {
  /** Seconds since the load began. */
  t: number;
  /** MB */
  node: number;
  /** MB per function, by name. */
  functions: Record<string, number>;
  postgresRss: number;
  postgresPss: number;
  postgresProcesses: number;
  /** Whatever else descends from the stack's process (none expected), MB. */
  other: number;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** The memory of `stackPid` and everything under it, by kind. */
export function sampleMemory(stackPid: number, t: number): MemorySample {
  const all = readProcesses();
  const descends = (info: ProcessInfo) => {
    for (let current = info.parent, hops = 0; current > 1 && hops < 10; current = all.get(current)?.parent ?? 0, hops++) {
      if (current === stackPid) return true;
    }
    return false;
  };
  const sample: MemorySample = { t, node: mb(all.get(stackPid)?.rssKb ?? 0), functions: {}, postgresRss: 0, postgresPss: 0, postgresProcesses: 0, other: 0 };
  let pgRss = 0;
  let pgPss = 0;
  let other = 0;
  for (const info of all.values()) {
    if (!descends(info)) continue;
    const fn = /supabase\/functions\/([^/\s]+)\/index\.ts|fixtures\/functions\/([^/\s]+)\/index\.ts/.exec(info.command);
    if (/\bdeno\b/.test(info.command) && fn) {
      const name = fn[1] ?? fn[2];
      sample.functions[name] = (sample.functions[name] ?? 0) + mb(info.rssKb);
    } else if (/\bpostgres\b/.test(info.command)) {
      pgRss += info.rssKb;
      pgPss += pssKb(info.pid);
      sample.postgresProcesses++;
    } else {
      other += info.rssKb;
    }
  }
  sample.postgresRss = mb(pgRss);
  sample.postgresPss = mb(pgPss);
  sample.other = mb(other);
  return sample;
}

// ---------------------------------------------------------------------------------------------
// The stack under soak, in a process of its own so that its memory is its own.

interface SoakStack {
  pid: number;
  status: Record<string, string>;
  webUrl?: string;
  stop(): Promise<void>;
}

async function startSoakStack(dir: string, options: SoakOptions): Promise<SoakStack> {
  const ports = await freeStackPorts();
  const env: Record<string, string> = { ...stackCliEnv(dir, ports) };
  if (options.heapSnapshots) env.NODE_OPTIONS = `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;
  const statusFile = path.join(dir, 'status.json');
  if (!options.npmStart) {
    const started = runStackCli(env, ['start', '--background'], 300_000);
    if (started.code !== 0) throw new Error(`stack:start failed:\n${started.out}`);
    const status = JSON.parse(readFileSync(statusFile, 'utf8'));
    return {
      pid: status.pid,
      status,
      async stop() {
        runStackCli(env, ['stop']);
      },
    };
  }
  const webPort = await freePort();
  const logFd = openSync(path.join(dir, 'npm-start.log'), 'a');
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'stack', 'cli.ts'), 'start', '--web'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(webPort) },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const deadline = Date.now() + 300_000;
  while (!existsSync(statusFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`npm start did not come up:\n${readFileSync(path.join(dir, 'npm-start.log'), 'utf8').slice(-3000)}`);
    }
    await sleep(200);
  }
  // The status file is written before the web app listens: wait for its port too.
  const webUrl = `http://localhost:${webPort}`;
  while ((await fetch(webUrl).catch(() => undefined))?.ok !== true) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the web app of npm start did not answer');
    await sleep(500);
  }
  const status = JSON.parse(readFileSync(statusFile, 'utf8'));
  return {
    pid: child.pid!,
    status,
    webUrl,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One person's use of the app.

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A JPEG the api's checks accept (its frame header says 1024 × 768), padded to `bytes` as a phone photo is big. */
function photo(bytes: number): Uint8Array {
  const head = [
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    0xff, 0xc0, 0x00, 0x11, 0x08, 0x03, 0x00, 0x04, 0x00, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
  ];
  const out = new Uint8Array(bytes);
  out.set(head);
  for (let i = head.length; i < bytes - 2; i++) out[i] = (i * 31) & 0x7f;
  out.set([0xff, 0xd9], bytes - 2);
  return out;
}

const TEMPLATE = {
  sections: [{
    key: 'main',
    title: 'Kitchen',
    items: [
      { key: 'floor', kind: 'pass_fail', label: 'Floor clean', help: null, required: false, weight: 2 },
      { key: 'locked', kind: 'yes_no', label: 'Fridge locked', help: null, required: false, weight: 1, fail_on: 'no' },
      { key: 'temp', kind: 'number', label: 'Fridge temperature', help: null, required: false, weight: 3, min: 0, max: 5, unit: '°C' },
      { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
      { key: 'photo', kind: 'photo', label: 'Photo of the kitchen', help: null, required: false, weight: 0, max_photos: 5 },
    ],
  }],
};

interface Tally {
  requests: number;
  signIns: number;
  failures: Map<string, number>;
  realtimeEvents: number;
  joins: number;
  reloads: number;
  photos: number;
  webFiles: number;
}

class Person {
  client: SupabaseClient | undefined;
  channels: RealtimeChannel[] = [];
  orgId = '';
  siteId = '';
  templateId = '';
  inspectionId = '';
  versions = new Map<string, number>();
  hmr: WebSocket | undefined;
  readonly webCache = new Map<string, string>();
  /** The browser's storage: a page load finds the session there, as the app's supabase-js does. */
  readonly storage = new Map<string, string>();
  readonly status: Record<string, string>;
  readonly email: string;
  readonly tally: Tally;
  readonly webUrl: string | undefined;

  constructor(status: Record<string, string>, email: string, tally: Tally, webUrl: string | undefined) {
    this.status = status;
    this.email = email;
    this.tally = tally;
    this.webUrl = webUrl;
  }

  private newClient(): SupabaseClient {
    return createClient(this.status.API_URL, this.status.ANON_KEY, {
      auth: {
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: false,
        storage: {
          getItem: (key) => this.storage.get(key) ?? null,
          setItem: (key, value) => void this.storage.set(key, value),
          removeItem: (key) => void this.storage.delete(key),
        },
      },
    });
  }

  fail(what: string, detail?: unknown): void {
    this.tally.failures.set(what, (this.tally.failures.get(what) ?? 0) + 1);
    if (this.tally.failures.get(what) === 1) console.log(`  (first failure of ${what}: ${String(detail).slice(0, 300)})`);
  }

  async api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: unknown): Promise<any> {
    this.tally.requests++;
    const { data, error, response } = await this.client!.functions.invoke(`api/${route}`, { method, body: body as never });
    if (error) {
      const status = response?.status ?? 0;
      this.fail(`${method} ${route.replace(/[0-9a-f-]{36}/g, ':id')} → ${status}`, error.message);
      return undefined;
    }
    return data;
  }

  async signUp(): Promise<void> {
    this.client = this.newClient();
    const { error } = await this.client.auth.signUp({ email: this.email, password: PASSWORD });
    if (error) throw new Error(`sign-up failed: ${error.message}`);
    const org = await this.api('POST', 'orgs', { name: 'Soak kitchens' });
    this.orgId = org.id;
    this.siteId = (await this.api('POST', `orgs/${this.orgId}/sites`, { name: 'Soak kitchen' })).id;
    this.templateId = (await this.api('POST', `orgs/${this.orgId}/templates`, { name: 'Soak audit', definition: TEMPLATE })).id;
    await this.api('POST', `orgs/${this.orgId}/templates/${this.templateId}/publish`);
    await this.newInspection();
  }

  async newInspection(): Promise<void> {
    const inspection = await this.api('POST', `orgs/${this.orgId}/inspections`, { site_id: this.siteId, template_id: this.templateId });
    if (!inspection) return;
    await this.api('POST', `orgs/${this.orgId}/inspections/${inspection.id}/start`, { latitude: null, longitude: null, accuracy_m: null });
    this.inspectionId = inspection.id;
    this.versions.clear();
  }

  /**
   * A page load: a fresh client takes the session from storage (refreshing it when it has
   * expired), joins the organization's and the inspection's topics and tracks its presence.
   * Every SIGN_IN_EVERY-th load signs in with the password instead, as after signing out.
   */
  async reload(): Promise<void> {
    this.tally.reloads++;
    const previous = this.client;
    if (previous) {
      await previous.removeAllChannels();
      previous.realtime.disconnect();
      await previous.auth.stopAutoRefresh();
    }
    this.hmr?.close();
    this.client = this.newClient();
    const { data } = await this.client.auth.getSession();
    if (!data.session || this.tally.reloads % SIGN_IN_EVERY === 0) {
      this.tally.requests++;
      const { error } = await this.client.auth.signInWithPassword({ email: this.email, password: PASSWORD });
      if (error) return this.fail('sign-in', error.message);
      this.tally.signIns++;
    }
    await this.client.auth.startAutoRefresh();
    await this.client.realtime.setAuth();
    this.channels = [];
    for (const topic of [`org:${this.orgId}`, `inspection:${this.inspectionId}`]) {
      const channel = this.client.channel(topic, { config: { private: true, presence: { key: `${this.email}:${this.tally.reloads}` } } });
      channel.on('broadcast', { event: '*' }, () => this.tally.realtimeEvents++);
      channel.on('presence', { event: 'sync' }, () => {});
      const joined = await new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve('TIMED_OUT'), 10_000);
        channel.subscribe((state) => {
          if (state === 'SUBSCRIBED' || state === 'CHANNEL_ERROR' || state === 'TIMED_OUT') {
            clearTimeout(timer);
            resolve(state);
          }
        });
      });
      if (joined !== 'SUBSCRIBED') this.fail(`join ${topic.split(':')[0]}`, joined);
      else {
        this.tally.joins++;
        await channel.track({ page: topic.split(':')[0], at: new Date().toISOString() });
      }
      this.channels.push(channel);
    }
    if (this.webUrl) await this.loadWebApp();
  }

  /**
   * The web app's files as a browser fetches them on a page load: the page, then every module it
   * imports, with If-None-Match like a browser's cache. On Vite's dev server that is hundreds of
   * source modules and the HMR socket; on a built app a few bundles.
   */
  async loadWebApp(): Promise<void> {
    const origin = new URL(this.webUrl!).origin;
    const queue = [`${origin}/inspections/${this.inspectionId}`];
    const seen = new Set<string>();
    while (queue.length > 0 && seen.size < 3000) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const cached = this.webCache.get(url);
      let text: string;
      try {
        const response = await fetch(url, { headers: cached ? { 'if-none-match': cached.split('\n', 1)[0] } : {} });
        this.tally.webFiles++;
        if (response.status === 304 && cached) {
          text = cached.slice(cached.indexOf('\n') + 1);
        } else if (response.ok) {
          text = await response.text();
          const etag = response.headers.get('etag');
          if (etag) this.webCache.set(url, `${etag}\n${text}`);
        } else {
          this.fail(`web ${response.status}`, url);
          continue;
        }
      } catch (error) {
        this.fail('web fetch', (error as Error).message);
        continue;
      }
      if (url.endsWith('/@vite/client')) this.openHmrSocket(origin, text);
      const specifiers = [
        // Statements at the start of a line only: not the examples in a library's doc comments.
        ...text.matchAll(/^\s*(?:import|export)\s*(?:[\w*{}\s,$]*\s*from\s*)?["']([^"']+)["']/gm),
        ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
        ...text.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g),
      ].map((m) => m[1]);
      for (const specifier of specifiers) {
        if (!/^(\/|\.\.?\/)/.test(specifier) || specifier.startsWith('//')) continue;
        // A relative name without an extension is an example in a library's comment, not an import
        // (the server writes every import it serves as a full path).
        if (/^\.\.?\//.test(specifier) && !/\.[a-z]+(\?|$)/i.test(specifier.split('/').pop()!)) continue;
        const next = new URL(specifier, url);
        if (next.origin === origin && !seen.has(next.href)) queue.push(next.href);
      }
    }
  }

  /** The dev server's HMR socket, which a browser keeps open as long as the page. */
  openHmrSocket(origin: string, clientCode: string): void {
    const token = /wsToken\s*=\s*["']([^"']+)["']/.exec(clientCode)?.[1];
    const url = new URL(origin.replace(/^http/, 'ws'));
    if (token) url.searchParams.set('token', token);
    try {
      this.hmr = new WebSocket(url, 'vite-hmr');
      this.hmr.addEventListener('error', () => {});
    } catch {
      // No HMR on a built app.
    }
  }

  /** One thing the person does, picked as a person's day goes: mostly reading and answering. */
  async act(n: number): Promise<void> {
    const org = `orgs/${this.orgId}`;
    const roll = Math.random();
    if (roll < 0.45) {
      const reads = [
        'me',
        'orgs',
        `${org}/dashboard`,
        `${org}/inspections?limit=25`,
        `${org}/inspections/${this.inspectionId}`,
        `${org}/sites?limit=50`,
        `${org}/actions?limit=25`,
        `${org}/activity?limit=20`,
      ];
      await this.api('GET', reads[n % reads.length]);
    } else if (roll < 0.9) {
      const items = [
        { item_key: 'floor', value: n % 3 === 0 ? 'fail' : 'pass' },
        { item_key: 'locked', value: n % 2 === 0 ? 'yes' : 'no' },
        { item_key: 'temp', value: n % 6 },
        { item_key: 'remarks', value: `Checked at visit ${n}: ${'the walk-in is tidy '.repeat(1 + (n % 5))}` },
      ];
      const batch = items.filter((_, i) => (n + i) % 3 !== 0).map((a) => ({ ...a, note: null, base_version: this.versions.get(a.item_key) ?? null }));
      const saved = await this.api('PUT', `${org}/inspections/${this.inspectionId}/answers`, { answers: batch });
      for (const answer of saved?.answers ?? []) this.versions.set(answer.item_key, answer.version);
      // A stale version (the server's autosave raced ours) is refreshed from the inspection, as the app does.
      if (!saved) {
        const detail = await this.api('GET', `${org}/inspections/${this.inspectionId}`);
        for (const answer of detail?.answers ?? []) this.versions.set(answer.item_key, answer.version);
      }
    } else if (roll < 0.97) {
      await this.photo();
    } else {
      // Finishing one inspection and starting the next.
      await this.newInspection();
      await this.reload();
    }
  }

  /** Check a photo in, upload it to its signed URL, confirm, view it, delete it (the item keeps at most 5). */
  async photo(): Promise<void> {
    const path = `orgs/${this.orgId}/inspections/${this.inspectionId}/attachments`;
    const bytes = photo(150_000 + Math.floor(Math.random() * 250_000));
    const created = await this.api('POST', path, { item_key: 'photo', content_type: 'image/jpeg', byte_size: bytes.length });
    if (!created) return;
    this.tally.requests++;
    const upload = await this.client!.storage.from('evidence').uploadToSignedUrl(created.upload.path, created.upload.token, bytes, { contentType: 'image/jpeg' });
    if (upload.error) return this.fail('photo upload', upload.error.message);
    if (!(await this.api('POST', `${path}/${created.attachment.id}/confirm`))) return;
    const signed = await this.api('GET', `${path}/${created.attachment.id}/url`);
    if (signed) {
      this.tally.requests++;
      const download = await fetch(signed.url);
      if (!download.ok) this.fail(`photo download ${download.status}`);
      await download.arrayBuffer();
    }
    await this.api('DELETE', `${path}/${created.attachment.id}`);
    this.tally.photos++;
  }

  async leave(): Promise<void> {
    this.hmr?.close();
    if (!this.client) return;
    await this.client.removeAllChannels();
    this.client.realtime.disconnect();
    await this.client.auth.stopAutoRefresh();
  }
}

// ---------------------------------------------------------------------------------------------

function table(samples: MemorySample[], minutes: number): string {
  const functionNames = [...new Set(samples.flatMap((s) => Object.keys(s.functions)))].sort();
  const header = ['min', 'stack node', ...functionNames.map((n) => `deno ${n}`), 'postgres RSS (sum)', 'postgres PSS', 'backends'];
  const rows: string[][] = [];
  const step = minutes >= 30 ? 10 : minutes >= 10 ? 2 : 1;
  for (let m = 0; m <= minutes; m += step) {
    // The sample nearest to the minute mark.
    const at = samples.reduce((best, s) => (Math.abs(s.t - m * 60) < Math.abs(best.t - m * 60) ? s : best));
    rows.push([
      String(m),
      at.node.toFixed(0),
      ...functionNames.map((n) => (at.functions[n] ?? 0).toFixed(0)),
      at.postgresRss.toFixed(0),
      at.postgresPss.toFixed(0),
      String(at.postgresProcesses),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Growth (MB) over the second half of the run, which must be about nothing once memory has levelled off. */
function secondHalfGrowth(samples: MemorySample[], pick: (s: MemorySample) => number): number {
  const half = samples[Math.floor(samples.length / 2)];
  const last = samples[samples.length - 1];
  // Medians of a few samples at each end, so one garbage collection does not decide it.
  const around = (s: MemorySample) => {
    const i = samples.indexOf(s);
    const values = samples.slice(Math.max(0, i - 2), i + 3).map(pick).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  };
  return around(last) - around(half);
}

export async function benchSoak(options: SoakOptions): Promise<MemorySample[]> {
  const dir = privateStackFolder('soak-');
  const samples: MemorySample[] = [];
  let stack: SoakStack | undefined;
  let person: Person | undefined;
  try {
    console.log(`\nSoak: ${options.minutes} min of one person's load (${options.rate} actions/s, a reload every ${options.reloadMinutes} min) on ${options.npmStart ? 'npm start (stack/cli.ts start --web)' : 'stack:start'}`);
    stack = await startSoakStack(dir, options);
    // The stack runs in a process of its own: an interrupted soak stops it rather than leave it running.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.removeAllListeners(signal);
      process.once(signal, () => {
        void stack!.stop().finally(() => {
          rmSync(dir, { recursive: true, force: true });
          process.exit(signal === 'SIGINT' ? 130 : 143);
        });
      });
    }
    const tally: Tally = { requests: 0, signIns: 0, failures: new Map(), realtimeEvents: 0, joins: 0, reloads: 0, photos: 0, webFiles: 0 };
    person = new Person(stack.status, `soak-${Date.now()}@example.test`, tally, stack.webUrl);
    await person.signUp();
    await person.reload();
    const started = Date.now();
    const elapsed = () => (Date.now() - started) / 1000;
    const take = () => {
      const sample = sampleMemory(stack!.pid, Math.round(elapsed()));
      samples.push(sample);
      if (options.out) writeFileSync(options.out, JSON.stringify({ options, samples }, null, 1));
      const fns = Object.entries(sample.functions).map(([n, v]) => `${n} ${v.toFixed(0)}`).join(', ');
      console.log(
        `  ${(sample.t / 60).toFixed(1).padStart(5)} min  node ${sample.node.toFixed(0)} MB | deno ${fns} MB | postgres ${sample.postgresProcesses} processes, ` +
          `RSS ${sample.postgresRss.toFixed(0)} MB, PSS ${sample.postgresPss.toFixed(0)} MB | ${tally.requests} requests, ${[...tally.failures.values()].reduce((a, b) => a + b, 0)} failed, ${tally.realtimeEvents} realtime events`,
      );
    };
    take();
    const sampler = setInterval(take, options.sampleSeconds * 1000);
    let nextReload = Date.now() + options.reloadMinutes * 60_000;
    let snapshotTaken = !options.heapSnapshots;
    try {
      for (let n = 0; elapsed() < options.minutes * 60; n++) {
        await person.act(n).catch((error) => person!.fail('action', (error as Error).stack));
        if (Date.now() >= nextReload) {
          await person.reload().catch((error) => person!.fail('reload', (error as Error).stack));
          nextReload = Date.now() + options.reloadMinutes * 60_000;
        }
        if (!snapshotTaken && elapsed() > 120) {
          process.kill(stack.pid, 'SIGUSR2');
          snapshotTaken = true;
        }
        // Pauses between actions as a person's are: irregular, averaging 1/rate seconds.
        await sleep(Math.min(10_000, -Math.log(1 - Math.random()) * (1000 / options.rate)));
      }
    } finally {
      clearInterval(sampler);
    }
    take();
    if (options.heapSnapshots) {
      process.kill(stack.pid, 'SIGUSR2');
      await sleep(30_000);
      const kept = path.join(root, '.stack', `soak-heap-${Date.now()}`);
      mkdirSync(kept, { recursive: true });
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'))) {
        writeFileSync(path.join(kept, file), readFileSync(path.join(dir, file)));
      }
      console.log(`  heap snapshots of the stack's Node process: ${path.relative(root, kept)}`);
    }
    console.log(`\nResident memory (MB) of the stack's processes under ${options.minutes} min of load`);
    console.log(table(samples, options.minutes));
    const growth = (pick: (s: MemorySample) => number) => `${secondHalfGrowth(samples, pick) >= 0 ? '+' : ''}${secondHalfGrowth(samples, pick).toFixed(0)} MB`;
    const functionNames = Object.keys(samples[samples.length - 1].functions);
    console.log(
      `Second half's growth: node ${growth((s) => s.node)}, ${functionNames.map((n) => `deno ${n} ${growth((s) => s.functions[n] ?? 0)}`).join(', ')}, ` +
        `postgres PSS ${growth((s) => s.postgresPss)}`,
    );
    const failed = [...tally.failures.entries()].map(([what, count]) => `${what}: ${count}`).join('; ');
    console.log(
      `Load: ${tally.requests} requests (${(tally.requests / (options.minutes * 60)).toFixed(1)}/s), ${tally.photos} photos, ${tally.reloads} page loads (${tally.signIns} with a sign-in), ` +
        `${tally.joins} channel joins, ${tally.realtimeEvents} realtime events received${stack.webUrl ? `, ${tally.webFiles} web files` : ''}; failures: ${failed || 'none'}`,
    );
    return samples;
  } finally {
    await person?.leave().catch(() => {});
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
