// The web app as users get it: a production build (service worker, manifest, precached chunks)
// served over HTTP. `npm start` serves it on localhost:5173 and `npm test` serves the very same
// way on a free port, so the offline behaviour a developer tries is the one the browser tests
// prove. `npm run dev` (Vite's dev server, hot reload, no service worker) is the other mode.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './config.ts';

const configFile = path.join(projectRoot, 'web', 'vite.config.ts');
// What a build of the web app is made from; a change to any of these makes the next start rebuild.
const BUILD_INPUTS = ['web', path.join('supabase', 'functions', '_shared', 'schemas'), 'package-lock.json'];
const STAMP_FILE = '.fieldcheck-build';

export interface WebBuildOptions {
  /** Where the app finds the project (baked into the build, as a hosted build would be). */
  apiUrl: string;
  publishableKey: string;
  outDir: string;
  /** Rebuild even when the inputs are unchanged. */
  force?: boolean;
  log?: (message: string) => void;
}

function filesUnder(relative: string): string[] {
  const absolute = path.join(projectRoot, relative);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return [relative];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}dist`) && !entry.parentPath.includes('node_modules'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A fingerprint of everything a build depends on: its sources, the lock file and the baked-in settings. */
export function webBuildFingerprint(options: Pick<WebBuildOptions, 'apiUrl' | 'publishableKey'>): string {
  const hash = createHash('sha256');
  hash.update(`${options.apiUrl}\n${options.publishableKey}\n`);
  for (const file of BUILD_INPUTS.flatMap(filesUnder)) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(path.join(projectRoot, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the web app into `outDir` unless the build there was made from the same inputs. The
 * fingerprint is also the build's id (VITE_BUILD_ID): the data a visit keeps on the device is
 * forgotten when the build changes, since its shape may have.
 */
export async function buildWebApp(options: WebBuildOptions): Promise<{ built: boolean; buildId: string }> {
  const buildId = webBuildFingerprint(options);
  const stamp = path.join(options.outDir, STAMP_FILE);
  if (!options.force && existsSync(stamp) && readFileSync(stamp, 'utf8') === buildId && existsSync(path.join(options.outDir, 'sw.js'))) {
    return { built: false, buildId };
  }
  const started = Date.now();
  process.env.VITE_SUPABASE_URL = options.apiUrl;
  process.env.VITE_SUPABASE_PUBLISHABLE_KEY = options.publishableKey;
  process.env.VITE_BUILD_ID = buildId;
  const { build } = await import('vite');
  await build({ configFile, logLevel: 'warn', build: { outDir: options.outDir, emptyOutDir: true } });
  writeFileSync(stamp, buildId);
  options.log?.(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { built: true, buildId };
}

export interface ServedWebApp {
  url: string;
  close(): Promise<void>;
}

/** Serves a build (every unknown path answers index.html, as a static host set up for a single-page app does). */
export async function serveWebApp({ outDir, port, host }: { outDir: string; port: number; host?: string }): Promise<ServedWebApp> {
  const { preview } = await import('vite');
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { port, strictPort: true, ...(host ? { host } : {}) },
  });
  return {
    url: `http://localhost:${port}`,
    close: () => server.close(),
  };
}
