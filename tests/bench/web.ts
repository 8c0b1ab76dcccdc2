// The web app's weight and speed (issue 12, part 6), measured on the production build against a
// private stack with the demo data, in Debian's Chromium:
//   - initial JS: the gzip size of every script the browser fetches until the page shows its
//     content (sign-in, the dashboard, the run page of a 500-item inspection), against a budget;
//   - Lighthouse performance and CLS of the same pages (its default mobile settings);
//   - the run page of 500 items: time until its first item can be answered, and the input delay
//     of typing into an answer (Event Timing, the basis of INP).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import postgres from 'postgres';
import { startStack } from '../../stack/server.ts';
import { freePort } from '../../stack/os.ts';
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
async function scriptKb(page: Page, distDir: string, load: () => Promise<void>): Promise<{ kb: number; files: number }> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) scripts.add(url.pathname);
  });
  await load();
  let bytes = 0;
  for (const script of scripts) bytes += gzipSync(readFileSync(path.join(distDir, script)), { level: 9 }).length;
  return { kb: bytes / 1024, files: scripts.size };
}

interface PageFigures {
  name: string;
  initialJsKb: number;
  scripts: number;
  lighthouse: number | null;
  cls: number | null;
  lcpMs: number | null;
}

/** Lighthouse (performance only, its default mobile emulation and throttling) of `url`, signed in when `localStorage` is given. */
async function lighthouseOf(url: string, origin: string, localStorage: Array<{ name: string; value: string }> | null) {
  const chromeLauncher = await import('chrome-launcher');
  const { default: lighthouse } = await import('lighthouse');
  const puppeteer = await import('puppeteer-core');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    if (localStorage) {
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
    if (process.env.FIELDCHECK_BENCH_TRACE) {
      const metric = (id: string) => `${id} ${Math.round(lhr.audits[id]?.numericValue ?? NaN)}${lhr.audits[id]?.numericUnit === 'unitless' ? '' : ' ms'} (score ${lhr.audits[id]?.score ?? 'n/a'})`;
      const lcpElement = JSON.stringify((lhr.audits['largest-contentful-paint-element']?.details as { items?: unknown[] } | undefined)?.items?.[0] ?? null).slice(0, 400);
      const longTasks = ((lhr.audits['long-tasks']?.details as { items?: Array<{ url: string; startTime: number; duration: number }> } | undefined)?.items ?? [])
        .map((task) => `${Math.round(task.startTime)}+${Math.round(task.duration)} ms ${task.url.replace(/^.*\/assets\//, '')}`)
        .join(', ');
      console.log(`    long tasks (simulated): ${longTasks}`);
      console.log(`  Lighthouse ${url}: ${['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift'].map(metric).join('; ')}\n    LCP element: ${lcpElement}`);
    }
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      cls: lhr.audits['cumulative-layout-shift'].numericValue ?? null,
      lcp: lhr.audits['largest-contentful-paint'].numericValue ?? null,
    };
  } finally {
    chrome.kill();
  }
}

export interface WebFigures {
  pages: PageFigures[];
  usableMs: number;
  inputDelayP98Ms: number;
  inputDelayMaxMs: number;
}

export async function benchWeb(): Promise<WebFigures> {
  const dir = privateStackFolder('bench-web-');
  const webPort = await freePort();
  const webUrl = `http://localhost:${webPort}`;
  const stack = await startStack({
    dataDir: path.join(dir, 'data'),
    ports: await freeStackPorts(),
    fast: true,
    siteUrl: webUrl,
    extraRedirectUrls: [`${webUrl}/**`],
    log: () => {},
  });
  const distDir = path.join(dir, 'web-dist');
  // Served as `npm start` serves it (stack/web.ts).
  await buildWebApp({ apiUrl: stack.config.apiUrl, publishableKey: stack.status.PUBLISHABLE_KEY, outDir: distDir, force: true });
  const web = await serveWebApp({ outDir: distDir, port: webPort });
  const browser = await launchBrowser();
  try {
    const big = await bigInspection(stack.config.dbUrl);
    const state = await signedInState(browser, webUrl);
    const session = state.origins.find((origin) => origin.origin === webUrl)?.localStorage ?? [];
    const pages = [
      { name: 'sign-in', path: '/sign-in', signedIn: false, ready: (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true }).waitFor() },
      { name: 'dashboard', path: `/o/${big.slug}`, signedIn: true, ready: (page: Page) => page.getByRole('link', { name: /My open actions/ }).waitFor() },
      {
        name: 'run page (500 items)',
        path: `/o/${big.slug}/inspections/${big.id}`,
        signedIn: true,
        ready: (page: Page) => page.getByRole('group', { name: 'Check 1.1', exact: true }).waitFor(),
      },
    ];
    const figures: PageFigures[] = [];
    for (const target of pages) {
      // A first visit: a new profile, no cache, no service worker yet.
      const context = await browser.newContext({ ...PHONE, baseURL: webUrl, storageState: target.signedIn ? state : undefined, serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const js = await scriptKb(page, distDir, async () => {
        await page.goto(target.path);
        await target.ready(page);
      });
      await context.close();
      // FIELDCHECK_BENCH_NO_LIGHTHOUSE=1 skips Lighthouse while profiling the rest.
      const lh = process.env.FIELDCHECK_BENCH_NO_LIGHTHOUSE ? null : await lighthouseOf(`${webUrl}${target.path}`, webUrl, target.signedIn ? session : null).catch((error) => {
        console.log(`  Lighthouse could not measure ${target.name}: ${(error as Error).message}`);
        return null;
      });
      figures.push({ name: target.name, initialJsKb: js.kb, scripts: js.files, lighthouse: lh?.score ?? null, cls: lh?.cls ?? null, lcpMs: lh?.lcp ?? null });
    }

    // The 500-item run page: usable (its first item answerable), then typing into an answer.
    const context = await browser.newContext({ ...PHONE, baseURL: webUrl, storageState: state });
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
    if (process.env.FIELDCHECK_BENCH_TRACE) {
      page.on('response', async (response) => {
        if (!response.url().includes('/functions/v1/')) return;
        const body = await response.body().catch(() => Buffer.alloc(0));
        const headers = await response.allHeaders();
        console.log(`  api ${new URL(response.url()).pathname}: ${(body.length / 1024).toFixed(1)} KB, content-encoding ${headers['content-encoding'] ?? 'none'}`);
      });
    }
    const started = Date.now();
    await page.goto(`/o/${big.slug}/inspections/${big.id}`);
    await page.getByRole('group', { name: 'Check 1.1', exact: true }).getByRole('button', { name: 'Pass', exact: true }).waitFor({ state: 'visible' });
    const usableMs = Date.now() - started;
    // FIELDCHECK_BENCH_TRACE=1 prints what the browser did until then (the profile behind the figure).
    if (process.env.FIELDCHECK_BENCH_TRACE) {
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
    return { pages: figures, usableMs, inputDelayP98Ms: p98, inputDelayMaxMs: delays.at(-1) ?? 0 };
  } finally {
    await browser.close();
    await web.close();
    await stack.stop();
  }
}

/** Prints the figures against the budgets. */
export function printWebFigures(figures: WebFigures): void {
  const b = WEB_BUDGETS;
  console.log(`\nWeb app (production build, 390 px, first visit; budgets: JS ≤ ${b.initialJsKb} KB gz, Lighthouse ≥ ${b.lighthouse}, CLS ≤ ${b.cls})`);
  for (const p of figures.pages) {
    console.log(
      `  ${p.name.padEnd(22)} JS ${p.initialJsKb.toFixed(0)} KB gz in ${p.scripts} scripts (${(p.initialJsKb / b.initialJsKb).toFixed(2)}× budget); ` +
        `Lighthouse ${p.lighthouse ?? 'n/a'}, CLS ${p.cls?.toFixed(3) ?? 'n/a'}, LCP ${p.lcpMs ? (p.lcpMs / 1000).toFixed(1) + ' s' : 'n/a'}`,
    );
  }
  console.log(`  run page of 500 items: usable in ${figures.usableMs} ms (${(figures.usableMs / b.usableMs).toFixed(2)}× budget)`);
  console.log(`  typing into an answer: input delay p98 ${figures.inputDelayP98Ms.toFixed(0)} ms, max ${figures.inputDelayMaxMs.toFixed(0)} ms (budget ${b.inputDelayMs} ms)`);
}
