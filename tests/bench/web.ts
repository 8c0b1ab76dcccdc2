// The web app's weight and speed (issue 12, part 6), measured on the production build against a
// private stack with the demo data, in Debian's Chromium:
//   - initial JS: the gzip size of every script the browser fetches until the page shows its
//     content (sign-in, the dashboard, the run page of a 500-item inspection), against a budget;
//     and the analytics page's, with its own part: what it adds to the dashboard's (its charts);
//   - Lighthouse performance of the same pages (its default mobile settings), with what each metric
//     costs the score (FIELDCHECK_BENCH_TRACE=1 adds the audits behind it: the LCP element and its
//     phases, long tasks, CPU time per script, render-blocking and unused code);
//   - the run page of 500 items: time until its first item can be answered, and the input delay
//     of typing into an answer (Event Timing, the basis of INP).
// Lighthouse's score moves by several points with the load of this shared machine, so a change is
// measured beside its baseline in one run: `npm run bench -- web --baseline=<git rev> --runs=5`
// builds both, runs each page's Lighthouse, the usable time and the typing alternately on each
// build, and prints the medians and their ratios.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freePort } from '../../stack/os.ts';
import { projectRoot } from '../../stack/config.ts';
import { buildWebApp, serveWebApp } from '../../stack/web.ts';
import { CHROMIUM_PATH, launchBrowser } from '../support/browser.ts';
import { freeStackPorts, privateStackFolder } from '../support/private-stack.ts';

/** Issue 12: initial JS ≤ 150 KB gzipped on these pages; Lighthouse ≥ 95, CLS ≤ 0.1; typing ≤ 100 ms; usable ≤ 1 s. */
export const WEB_BUDGETS = { initialJsKb: 150, lighthouse: 95, cls: 0.1, inputDelayMs: 100, usableMs: 1000 };
const DEMO_INSPECTOR = 'inspector@demo.fieldcheck.test';
const DEMO_PASSWORD = 'fieldcheck-demo-1';
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A template of 50 sections × 10 items and an inspection of it in progress, assigned to the demo inspector. */
async function bigInspection(dbUrl: string): Promise<{ slug: string; id: string }> {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  try {
    const kinds = ['pass_fail', 'yes_no', 'number', 'text', 'single_choice'];
    const sections = Array.from({ length: 50 }, (_, s) => ({
      key: `s${s}`,
      title: `Area ${s + 1}`,
      items: Array.from({ length: 10 }, (_, i) => {
        const kind = kinds[i % kinds.length];
        const base = { key: `s${s}-i${i}`, kind, label: `Check ${s + 1}.${i + 1}`, help: null, required: false, weight: 1 };
        if (kind === 'yes_no') return { ...base, fail_on: 'no' };
        if (kind === 'number') return { ...base, min: 0, max: 10, unit: '°C' };
        if (kind === 'single_choice') return { ...base, options: ['Good', 'Fair', 'Poor'], failing_options: ['Poor'] };
        return base;
      }),
    }));
    const [org] = await sql`select id, slug from public.organizations where slug = 'harbor-foods'`;
    const [inspector] = await sql`select id from auth.users where email = ${DEMO_INSPECTOR}`;
    const [site] = await sql`select id from public.sites where org_id = ${org.id} and archived_at is null limit 1`;
    const [template] = await sql`
      insert into public.templates (org_id, name, definition) values (${org.id}, 'Warehouse walk, 500 items', ${sql.json({ sections })}) returning id
    `;
    await sql`insert into public.template_versions (template_id) values (${template.id})`;
    const [inspection] = await sql`
      insert into public.inspections (org_id, site_id, template_id, assignee_id, title)
      values (${org.id}, ${site.id}, ${template.id}, ${inspector.id}, 'Warehouse walk, 500 items') returning id
    `;
    await sql.begin(async (tx) => {
      await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: inspector.id, role: 'authenticated' })}, true)`;
      await tx`update public.inspections set status = 'in_progress' where id = ${inspection.id}`;
    });
    return { slug: org.slug, id: inspection.id };
  } finally {
    await sql.end();
  }
}

/** The signed-in demo inspector's browser state (its session in localStorage), made through the sign-in form. */
async function signedInState(browser: Browser, webUrl: string) {
  const context = await browser.newContext({ ...PHONE, baseURL: webUrl });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill(DEMO_INSPECTOR);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/o\//);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Gzip size in KB of every script of the web origin `page` fetched while `load` ran. */
async function scriptKb(page: Page, distDir: string, load: () => Promise<void>): Promise<{ kb: number; files: number; scripts: Set<string> }> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) scripts.add(url.pathname);
  });
  await load();
  let bytes = 0;
  for (const script of scripts) bytes += gzipSync(readFileSync(path.join(distDir, script)), { level: 9 }).length;
  return { kb: bytes / 1024, files: scripts.size, scripts };
}

/** Gzip KB of `scripts` that are not among `besides`: what a page adds to another's. */
function extraKb(distDir: string, scripts: Set<string>, besides: Set<string>): { kb: number; files: number } {
  const extra = [...scripts].filter((script) => !besides.has(script));
  const bytes = extra.reduce((sum, script) => sum + gzipSync(readFileSync(path.join(distDir, script)), { level: 9 }).length, 0);
  return { kb: bytes / 1024, files: extra.length };
}

/** Lighthouse's performance metrics, each with its weight in the score (Lighthouse 13, mobile). */
const LIGHTHOUSE_METRICS = [
  { id: 'first-contentful-paint', name: 'FCP' },
  { id: 'speed-index', name: 'SI' },
  { id: 'largest-contentful-paint', name: 'LCP' },
  { id: 'total-blocking-time', name: 'TBT' },
  { id: 'cumulative-layout-shift', name: 'CLS' },
] as const;
type MetricName = (typeof LIGHTHOUSE_METRICS)[number]['name'];

interface MetricFigure {
  /** ms, or unitless for CLS. */
  value: number;
  /** Lighthouse's score of the value, 0–1. */
  score: number;
  /** Its weight in the performance score (the weights add up to 100). */
  weight: number;
}

/** One Lighthouse run: the performance score is Σ weight × score, so 100 − score is what the metrics lose. */
interface LighthouseRun {
  score: number;
  metrics: Record<MetricName, MetricFigure>;
  /** Lighthouse's measure of the machine's speed at that moment (its BenchmarkIndex): lower when busy. */
  benchmarkIndex: number | null;
}

interface PageFigures {
  name: string;
  initialJsKb: number;
  scripts: number;
  /** A page that is not a first load of its own (analytics): the JS it adds to the dashboard's first load. */
  ownJs?: { kb: number; files: number };
  /** The median Lighthouse score of the runs (null when Lighthouse did not run). */
  lighthouse: number | null;
  cls: number | null;
  lcpMs: number | null;
  runs: LighthouseRun[];
}

interface LighthouseTable<T> {
  headings?: Array<{ key: string }>;
  items?: T[];
}
const itemsOf = <T>(details: unknown): T[] => (details as LighthouseTable<T> | undefined)?.items ?? [];

/**
 * What Lighthouse's audits say costs the page (FIELDCHECK_BENCH_TRACE=1): the LCP element and its
 * phases, the long tasks and the script they are attributed to, CPU time per script and per kind of
 * work, render-blocking resources and unused JavaScript. The profile behind a score.
 */
function printLighthouseProfile(label: string, lhr: import('lighthouse').Result): void {
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/assets\//, '');
  const audits = lhr.audits;
  const lcpParts = itemsOf<{ type?: string; items?: Array<{ label: string; duration: number }>; nodeLabel?: string; snippet?: string }>(audits['lcp-breakdown-insight']?.details);
  const phases = lcpParts.find((part) => part.type === 'table')?.items?.map((phase) => `${phase.label} ${Math.round(phase.duration)} ms`).join(', ') ?? 'n/a';
  const element = lcpParts.find((part) => part.type === 'node');
  const longTasks = itemsOf<{ url: string; startTime: number; duration: number }>(audits['long-tasks']?.details)
    .sort((a, b) => a.startTime - b.startTime)
    .map((task) => `${Math.round(task.startTime)}+${Math.round(task.duration)} ${short(task.url)}`);
  const bootup = itemsOf<{ url: string; total: number; scripting: number; scriptParseCompile: number }>(audits['bootup-time']?.details)
    .map((row) => `${short(row.url)} ${Math.round(row.total)} (eval ${Math.round(row.scripting)}, parse ${Math.round(row.scriptParseCompile)})`);
  const work = itemsOf<{ groupLabel: string; duration: number }>(audits['mainthread-work-breakdown']?.details).map((row) => `${row.groupLabel} ${Math.round(row.duration)}`);
  const blocking = itemsOf<{ url: string; wastedMs?: number }>(audits['render-blocking-insight']?.details).map((row) => `${short(row.url)} ${Math.round(row.wastedMs ?? 0)} ms`);
  const unused = itemsOf<{ url: string; wastedBytes: number; totalBytes: number }>(audits['unused-javascript']?.details).map(
    (row) => `${short(row.url)} ${(row.wastedBytes / 1024).toFixed(1)} of ${(row.totalBytes / 1024).toFixed(1)} KB`,
  );
  const requests = itemsOf<{ url: string }>(audits['network-requests']?.details).length;
  const shifts = itemsOf<{ score: number; node?: { snippet?: string; nodeLabel?: string } }>(audits['layout-shifts']?.details).map(
    (row) => `${row.score.toFixed(3)} ${row.node?.snippet ?? 'n/a'} "${(row.node?.nodeLabel ?? '').slice(0, 40)}"`,
  );
  console.log(`    ${label} profile (Lighthouse's simulation: 4× slower CPU, 150 ms RTT, 1.6 Mbps; times in ms):`);
  console.log(`      LCP element: ${element?.snippet ?? 'n/a'} "${(element?.nodeLabel ?? '').slice(0, 60)}"; phases: ${phases}`);
  console.log(`      long tasks (start+duration, attributed to): ${longTasks.join(', ') || 'none'}`);
  console.log(`      main-thread work: ${work.join(', ')}`);
  console.log(`      CPU time per script: ${bootup.join('; ') || 'n/a'}`);
  console.log(`      layout shifts (score, element): ${shifts.join('; ') || 'none'}`);
  console.log(`      render-blocking: ${blocking.join(', ') || 'none'}; unused JS: ${unused.join(', ') || 'none'}; ${requests} requests`);
}

/**
 * Lighthouse (performance only, its default mobile emulation and throttling) of `url`, signed in
 * when `localStorage` is given, each time in a new browser profile.
 */
async function lighthouseOf(url: string, origin: string, localStorage: Array<{ name: string; value: string }> | null, profileLabel: string | null): Promise<LighthouseRun> {
  const chromeLauncher = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const puppeteer = await import('puppeteer-core');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    if (localStorage) {
      // The session is put in place from the sign-in page, as a user signs in before opening any
      // other page: Lighthouse keeps the browser's cache when it keeps storage, so the signed-in
      // page is measured as its first visit after signing in — the code sign-in loaded is in the
      // HTTP cache (revalidated: `vite preview` answers no-cache with ETags), the page's own is not,
      // and there is no service worker yet.
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const page = await browser.newPage();
      await page.goto(`${origin}/sign-in`);
      await page.evaluate((entries) => {
        for (const { name, value } of entries) window.localStorage.setItem(name, value);
      }, localStorage);
      await page.close();
      await browser.disconnect();
    }
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], disableStorageReset: localStorage !== null, logLevel: 'error' });
    const lhr = result!.lhr;
    const weights = new Map(lhr.categories.performance.auditRefs.map((ref) => [ref.id, ref.weight]));
    const metrics = Object.fromEntries(
      LIGHTHOUSE_METRICS.map(({ id, name }) => [name, { value: lhr.audits[id]?.numericValue ?? NaN, score: lhr.audits[id]?.score ?? 0, weight: weights.get(id) ?? 0 }]),
    ) as Record<MetricName, MetricFigure>;
    if (profileLabel) printLighthouseProfile(profileLabel, lhr);
    return { score: Math.round((lhr.categories.performance.score ?? 0) * 100), metrics, benchmarkIndex: lhr.environment?.benchmarkIndex ?? null };
  } finally {
    chrome.kill();
  }
}

/** A web app build served for the bench: the working tree's, or the baseline's (--baseline=<rev>). */
interface ServedBuild {
  label: string;
  url: string;
  distDir: string;
  close(): Promise<void>;
}

/**
 * Builds the web app as it was at git revision `rev` (its web/ and the shared schemas, with this
 * tree's node_modules), so a change can be measured beside its baseline in one run, on one stack.
 */
async function buildBaselineWebApp(rev: string, dir: string, apiUrl: string, publishableKey: string): Promise<string> {
  const tree = path.join(dir, 'baseline-tree');
  mkdirSync(tree, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', rev, 'web', 'supabase/functions/_shared/schemas'], { cwd: projectRoot, maxBuffer: 512 * 1024 * 1024 });
  if (archive.status !== 0) throw new Error(`git archive ${rev}: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(tree, 'node_modules'));
  const outDir = path.join(dir, 'baseline-dist');
  process.env.VITE_SUPABASE_URL = apiUrl;
  process.env.VITE_SUPABASE_PUBLISHABLE_KEY = publishableKey;
  process.env.VITE_BUILD_ID = `baseline-${rev}`;
  const { build } = await import('vite');
  await build({ configFile: path.join(tree, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

export interface WebBenchOptions {
  /** A git revision to build and measure beside the working tree, in the same run (ratios). */
  baseline?: string;
  /** Lighthouse runs and usable-time runs per page and build; their median is reported. */
  runs?: number;
  /** Only the pages whose name starts with one of these (sign-in, dashboard, run, analytics; analytics' own JS needs dashboard too). */
  pages?: string[];
}

export interface BuildFigures {
  label: string;
  pages: PageFigures[];
  /** Median of the runs: the 500-item run page until its first item can be answered. */
  usableMs: number;
  usableRuns: number[];
  /** Median of the runs' p98 input delay while typing into an answer there, and the largest delay of all runs. */
  inputDelayP98Ms: number;
  inputDelayMaxMs: number;
  inputDelayP98Runs: number[];
}

export interface WebFigures extends BuildFigures {
  /** With --baseline: the same figures of the baseline build, measured alternately with this one. */
  baseline?: BuildFigures;
  runs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function benchWeb(options: WebBenchOptions = {}): Promise<WebFigures> {
  const runs = Math.max(1, options.runs ?? 1);
  const dir = privateStackFolder('bench-web-');
  const ports = [await freePort(), await freePort()];
  const stack = await startStack({
    dataDir: path.join(dir, 'data'),
    ports: await freeStackPorts(),
    fast: true,
    siteUrl: `http://localhost:${ports[0]}`,
    extraRedirectUrls: ports.map((port) => `http://localhost:${port}/**`),
    log: () => {},
  });
  const builds: ServedBuild[] = [];
  const browser = await launchBrowser();
  try {
    // Served as `npm start` serves it (stack/web.ts).
    const distDir = path.join(dir, 'web-dist');
    await buildWebApp({ apiUrl: stack.config.apiUrl, publishableKey: stack.status.PUBLISHABLE_KEY, outDir: distDir, force: true });
    const current = await serveWebApp({ outDir: distDir, port: ports[0] });
    builds.push({ label: 'this tree', url: `http://localhost:${ports[0]}`, distDir, close: current.close });
    if (options.baseline) {
      const baselineDist = await buildBaselineWebApp(options.baseline, dir, stack.config.apiUrl, stack.status.PUBLISHABLE_KEY);
      const served = await serveWebApp({ outDir: baselineDist, port: ports[1] });
      builds.push({ label: `baseline ${options.baseline}`, url: `http://localhost:${ports[1]}`, distDir: baselineDist, close: served.close });
    }
    const big = await bigInspection(stack.config.dbUrl);
    // One sign-in; the same session (supabase-js's localStorage entries) is put on each build's origin.
    const state = await signedInState(browser, builds[0].url);
    const session = state.origins.find((origin) => origin.origin === builds[0].url)?.localStorage ?? [];
    const stateOn = (url: string) => ({ cookies: [], origins: [{ origin: url, localStorage: session }] });
    const pages = [
      { name: 'sign-in', path: '/sign-in', signedIn: false, ready: (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true }).waitFor() },
      { name: 'dashboard', path: `/o/${big.slug}`, signedIn: true, ready: (page: Page) => page.getByRole('link', { name: /My open actions/ }).waitFor() },
      {
        name: 'run page (500 items)',
        path: `/o/${big.slug}/inspections/${big.id}`,
        signedIn: true,
        ready: (page: Page) => page.getByRole('group', { name: 'Check 1.1', exact: true }).waitFor(),
      },
      // Issue 28: its charts load with it, never before it; its own JS is what it adds to the dashboard's.
      {
        name: 'analytics',
        path: `/o/${big.slug}/analytics`,
        signedIn: true,
        ready: (page: Page) => page.getByRole('table', { name: 'Average score by period' }).waitFor(),
        ownBeyond: 'dashboard',
      },
    ];
    const runPath = pages[2].path;
    const measured = options.pages?.length ? pages.filter((page) => options.pages!.some((prefix) => page.name.startsWith(prefix))) : pages;
    // Builds alternate within each round (A B, then B A), so a machine that gets busier or quieter
    // during the run weighs on both alike.
    const order = (round: number) => (round % 2 === 0 ? builds : [...builds].reverse());

    const figures = new Map<ServedBuild, PageFigures[]>(builds.map((build) => [build, []]));
    // Each build's scripts of each page's first load, for a page's own JS beside another's.
    const loadedScripts = new Map<string, Set<string>>();
    for (const target of measured) {
      const byBuild = new Map<ServedBuild, PageFigures>();
      for (const build of builds) {
        // The weight: a first visit, a new profile, no cache, no service worker yet.
        const context = await browser.newContext({ ...PHONE, baseURL: build.url, storageState: target.signedIn ? stateOn(build.url) : undefined, serviceWorkers: 'block' });
        const page = await context.newPage();
        page.setDefaultTimeout(30_000);
        const js = await scriptKb(page, build.distDir, async () => {
          await page.goto(target.path);
          await target.ready(page);
        });
        await context.close();
        loadedScripts.set(`${build.label}/${target.name}`, js.scripts);
        const besides = 'ownBeyond' in target ? loadedScripts.get(`${build.label}/${target.ownBeyond}`) : undefined;
        byBuild.set(build, {
          name: target.name,
          initialJsKb: js.kb,
          scripts: js.files,
          ...(besides ? { ownJs: extraKb(build.distDir, js.scripts, besides) } : {}),
          lighthouse: null,
          cls: null,
          lcpMs: null,
          runs: [],
        });
      }
      // FIELDCHECK_BENCH_NO_LIGHTHOUSE=1 skips Lighthouse while profiling the rest.
      for (let round = 0; round < runs && !process.env.FIELDCHECK_BENCH_NO_LIGHTHOUSE; round++) {
        for (const build of order(round)) {
          const profileLabel = process.env.FIELDCHECK_BENCH_TRACE && round < 2 ? `${target.name}, ${build.label}` : null;
          const run = await lighthouseOf(`${build.url}${target.path}`, build.url, target.signedIn ? session : null, profileLabel).catch((error) => {
            console.log(`  Lighthouse could not measure ${target.name} (${build.label}): ${(error as Error).message}`);
            return null;
          });
          if (run) byBuild.get(build)!.runs.push(run);
        }
      }
      for (const build of builds) {
        const page = byBuild.get(build)!;
        if (page.runs.length > 0) {
          page.lighthouse = median(page.runs.map((run) => run.score));
          page.cls = median(page.runs.map((run) => run.metrics.CLS.value));
          page.lcpMs = median(page.runs.map((run) => run.metrics.LCP.value));
        }
        figures.get(build)!.push(page);
      }
    }

    // The 500-item run page: usable (its first item answerable), then typing into an answer,
    // alternately on each build (the timeline under FIELDCHECK_BENCH_TRACE for this tree's first run).
    const typed = new Map<ServedBuild, Array<{ usableMs: number; inputDelayP98Ms: number; inputDelayMaxMs: number }>>(builds.map((build) => [build, []]));
    for (let round = 0; round < runs; round++) {
      for (const build of order(round)) {
        const trace = Boolean(process.env.FIELDCHECK_BENCH_TRACE) && round === 0 && build === builds[0];
        typed.get(build)!.push(await typingOnRunPage(browser, build.url, stateOn(build.url), runPath, trace));
      }
    }
    const summary = (build: ServedBuild) => {
      const results = typed.get(build)!;
      return {
        usableMs: median(results.map((result) => result.usableMs)),
        usableRuns: results.map((result) => result.usableMs),
        inputDelayP98Ms: median(results.map((result) => result.inputDelayP98Ms)),
        inputDelayMaxMs: Math.max(...results.map((result) => result.inputDelayMaxMs)),
        inputDelayP98Runs: results.map((result) => result.inputDelayP98Ms),
      };
    };
    const [mine, baseline] = builds;
    return {
      label: mine.label,
      pages: figures.get(mine)!,
      runs,
      ...summary(mine),
      ...(baseline ? { baseline: { label: baseline.label, pages: figures.get(baseline)!, ...summary(baseline) } } : {}),
    };
  } finally {
    await browser.close();
    for (const build of builds) await build.close();
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Typing into an answer of the 500-item run page: the Event Timing durations (the basis of INP). */
async function typingOnRunPage(browser: Browser, webUrl: string, storageState: BrowserContextOptions['storageState'], runPath: string, trace: boolean) {
  const context = await browser.newContext({ ...PHONE, baseURL: webUrl, storageState });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.addInitScript(() => {
    const entries: number[] = [];
    (window as unknown as { fieldcheckInputDelays: number[] }).fieldcheckInputDelays = entries;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) entries.push(entry.duration);
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    const longTasks: Array<{ at: number; ms: number }> = [];
    (window as unknown as { fieldcheckLongTasks: typeof longTasks }).fieldcheckLongTasks = longTasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ at: entry.startTime, ms: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  if (trace) {
    page.on('response', async (response) => {
      if (!response.url().includes('/functions/v1/')) return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      const headers = await response.allHeaders();
      console.log(`  api ${new URL(response.url()).pathname}: ${(body.length / 1024).toFixed(1)} KB, content-encoding ${headers['content-encoding'] ?? 'none'}`);
    });
  }
  const started = Date.now();
  await page.goto(runPath);
  await page.getByRole('group', { name: 'Check 1.1', exact: true }).getByRole('button', { name: 'Pass', exact: true }).waitFor({ state: 'visible' });
  const usableMs = Date.now() - started;
  // FIELDCHECK_BENCH_TRACE=1 prints what the browser did until then (the profile behind the figure).
  if (trace) {
    const timeline = await page.evaluate(() => {
      const rows: string[] = [];
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      rows.push(`document ${navigation.responseEnd.toFixed(0)} ms, DOMContentLoaded ${navigation.domContentLoadedEventEnd.toFixed(0)} ms, load ${navigation.loadEventEnd.toFixed(0)} ms`);
      for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
        const url = new URL(entry.name);
        if (url.pathname.startsWith('/assets/') && entry.initiatorType !== 'script' && entry.initiatorType !== 'link') continue;
        rows.push(`${entry.startTime.toFixed(0).padStart(5)}–${entry.responseEnd.toFixed(0).padStart(5)} ms ${entry.initiatorType.padEnd(14)} ${(entry.encodedBodySize / 1024).toFixed(1)}/${(entry.decodedBodySize / 1024).toFixed(1)} KB ${url.pathname}${url.search}`);
      }
      for (const task of (window as unknown as { fieldcheckLongTasks: Array<{ at: number; ms: number }> }).fieldcheckLongTasks) {
        rows.push(`long task at ${task.at.toFixed(0)} ms for ${task.ms.toFixed(0)} ms`);
      }
      return rows;
    });
    console.log(`  usable after ${usableMs} ms; the browser's timeline:\n    ${timeline.join('\n    ')}`);
  }
  const field = page.getByLabel('Check 1.4', { exact: true });
  await field.click();
  await page.keyboard.type('Door seal worn on the left side, engineer called', { delay: 60 });
  await page.getByRole('group', { name: 'Check 1.1', exact: true }).getByRole('button', { name: 'Fail', exact: true }).click();
  await page.waitForTimeout(500);
  const delays = ((await page.evaluate(() => (window as unknown as { fieldcheckInputDelays: number[] }).fieldcheckInputDelays)) as number[]).sort((a, b) => a - b);
  await context.close();
  const p98 = delays.length ? delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.98))] : 0;
  return { usableMs, inputDelayP98Ms: p98, inputDelayMaxMs: delays.at(-1) ?? 0 };
}

/** "LCP 2.8 s −4.5" per metric: the median value and the median points it costs the score (weight × (1 − score)). */
function metricLine(page: PageFigures): string {
  return LIGHTHOUSE_METRICS.map(({ name }) => {
    const value = median(page.runs.map((run) => run.metrics[name].value));
    const lost = median(page.runs.map((run) => run.metrics[name].weight * (1 - run.metrics[name].score)));
    const shown = name === 'CLS' ? value.toFixed(3) : name === 'TBT' ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
    return `${name} ${shown} −${lost.toFixed(1)}`;
  }).join(', ');
}

function pageLine(p: PageFigures, b: typeof WEB_BUDGETS): string {
  const scores = p.runs.length > 1 ? ` (runs ${p.runs.map((run) => run.score).join(' ')})` : '';
  const indexes = p.runs.map((run) => run.benchmarkIndex).filter((index): index is number => index !== null);
  const machine = indexes.length ? `, machine ${Math.round(median(indexes))}` : '';
  const own = p.ownJs ? `, of which its own ${p.ownJs.kb.toFixed(2)} KB gz in ${p.ownJs.files} scripts beyond the dashboard's` : '';
  return (
    `JS ${p.initialJsKb.toFixed(2)} KB gz in ${p.scripts} scripts (${(p.initialJsKb / b.initialJsKb).toFixed(2)}× budget)${own}; ` +
    `Lighthouse ${p.lighthouse ?? 'n/a'}${scores}${machine}, CLS ${p.cls?.toFixed(3) ?? 'n/a'}, LCP ${p.lcpMs ? (p.lcpMs / 1000).toFixed(2) + ' s' : 'n/a'}`
  );
}

/** Prints the figures against the budgets (and, with a baseline, beside it as ratios). */
export function printWebFigures(figures: WebFigures): void {
  const b = WEB_BUDGETS;
  const runs = figures.runs > 1 ? `; Lighthouse, usable time and typing: median of ${figures.runs} runs${figures.baseline ? ' per build, the builds alternating' : ''}` : '';
  console.log(`\nWeb app (production build, 390 px, first visit; budgets: JS ≤ ${b.initialJsKb} KB gz, Lighthouse ≥ ${b.lighthouse}, CLS ≤ ${b.cls}${runs})`);
  console.log('  each metric: its median value and the points it costs the score (Lighthouse 13 weights: FCP 10, SI 10, LCP 25, TBT 30, CLS 25);');
  console.log('  "machine": the median of Lighthouse\'s BenchmarkIndex over the runs — the machine\'s speed then (lower = busier; CPU work is measured, then ×4)');
  for (const [index, p] of figures.pages.entries()) {
    console.log(`  ${p.name.padEnd(22)} ${pageLine(p, b)}`);
    if (p.runs.length) console.log(`  ${''.padEnd(22)} ${metricLine(p)}`);
    const before = figures.baseline?.pages[index];
    if (!before) continue;
    console.log(`    ${figures.baseline!.label.padEnd(20)} ${pageLine(before, b)}`);
    if (before.runs.length) console.log(`    ${''.padEnd(20)} ${metricLine(before)}`);
    const ratio = (now: number | null, then: number | null) => (now !== null && then ? `${(now / then).toFixed(2)}×` : 'n/a');
    const metricRatio = (name: MetricName) =>
      before.runs.length && p.runs.length ? ratio(median(p.runs.map((run) => run.metrics[name].value)), median(before.runs.map((run) => run.metrics[name].value))) : 'n/a';
    console.log(
      `    ${'this tree / baseline'.padEnd(20)} JS ${ratio(p.initialJsKb, before.initialJsKb)}, Lighthouse ${ratio(p.lighthouse, before.lighthouse)}, ` +
        `LCP ${metricRatio('LCP')}, TBT ${metricRatio('TBT')}, FCP ${metricRatio('FCP')}, SI ${metricRatio('SI')}`,
    );
  }
  const usableRuns = figures.runs > 1 ? ` (runs ${figures.usableRuns.join(' ')})` : '';
  console.log(`  run page of 500 items: usable in ${figures.usableMs} ms${usableRuns} (${(figures.usableMs / b.usableMs).toFixed(2)}× budget)`);
  if (figures.baseline) {
    console.log(
      `    ${figures.baseline.label}: usable in ${figures.baseline.usableMs} ms (runs ${figures.baseline.usableRuns.join(' ')}); ` +
        `this tree / baseline ${(figures.usableMs / figures.baseline.usableMs).toFixed(2)}×`,
    );
  }
  const typingRuns = figures.runs > 1 ? ` (runs' p98 ${figures.inputDelayP98Runs.map((ms) => ms.toFixed(0)).join(' ')})` : '';
  console.log(`  typing into an answer: input delay p98 ${figures.inputDelayP98Ms.toFixed(0)} ms${typingRuns}, max ${figures.inputDelayMaxMs.toFixed(0)} ms (budget ${b.inputDelayMs} ms)`);
  if (figures.baseline) {
    console.log(
      `    ${figures.baseline.label}: p98 ${figures.baseline.inputDelayP98Ms.toFixed(0)} ms (runs' p98 ${figures.baseline.inputDelayP98Runs.map((ms) => ms.toFixed(0)).join(' ')}), ` +
        `max ${figures.baseline.inputDelayMaxMs.toFixed(0)} ms; this tree / baseline ${(figures.inputDelayP98Ms / figures.baseline.inputDelayP98Ms).toFixed(2)}×`,
    );
  }
}
