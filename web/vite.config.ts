// Vite config for the Fieldcheck web client; run from the repository root with
// `vite --config web/vite.config.ts` (dev) or `vite build --config web/vite.config.ts`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const webDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The API reference (/api-docs, Scalar) is megabytes of code the app never needs offline: its
 * chunks are left out of the service worker's precache. This plugin finds them: everything the
 * build reaches only through the api-docs screen. Its file names are read by `manifestTransforms`.
 */
const apiDocsOnlyFiles = new Set<string>();
function findApiDocsOnlyChunks(): Plugin {
  return {
    name: 'fieldcheck-api-docs-only-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      apiDocsOnlyFiles.clear();
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const isApiDocs = (file: string) => byFile.get(file)?.facadeModuleId?.endsWith('/routes/api-docs.tsx') ?? false;
      const reached = new Set<string>();
      const stack = chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
      while (stack.length > 0) {
        const file = stack.pop()!;
        if (reached.has(file) || isApiDocs(file)) continue;
        reached.add(file);
        const chunk = byFile.get(file);
        if (chunk) stack.push(...chunk.imports, ...chunk.dynamicImports);
      }
      for (const chunk of chunks) {
        if (reached.has(chunk.fileName)) continue;
        apiDocsOnlyFiles.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) apiDocsOnlyFiles.add(css);
      }
    },
  };
}
/**
 * `npm run dev` serves the app on the same origin as `npm start` (localhost:5173), where the built
 * app's service worker may be installed: it would keep answering every page with the old build.
 * The dev server answers the worker's update check with a worker that removes itself and reloads
 * the open pages once, so the dev server's own code runs from then on.
 */
function removeServiceWorkerInDev(): Plugin {
  const selfRemovingWorker = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    await self.registration.unregister();
    for (const name of await caches.keys()) await caches.delete(name);
    for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url);
  })());
});
`;
  return {
    name: 'fieldcheck-remove-service-worker-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_request, response) => {
        response.setHeader('Content-Type', 'text/javascript');
        response.setHeader('Cache-Control', 'no-store');
        response.end(selfRemovingWorker);
      });
    },
  };
}

/**
 * React Router 7 names its development build for every export condition, production builds included
 * (remix-run/react-router#14102, open): its dev-only checks and warnings then run in the app users
 * get. Its production build is the same code with them off; a build of the app takes that one.
 */
function reactRouterProductionBuild(): Plugin {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist', 'production');
  const files: Record<string, string> = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };
  return {
    name: 'fieldcheck-react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source in files ? path.join(dist, files[source]) : null;
    },
  };
}

/**
 * Which modules share a chunk, so that a first load is a few files rather than dozens (docs/
 * offline.md, "Weight"). Left to itself, the bundler gave every set of screens that shares a module
 * a chunk of its own: the entry came as 13 files (most under 2 KB) and the run page's screen as 20
 * more, each a request — at Lighthouse's mobile settings each wave of requests costs a round trip —
 * and each a `<link rel="modulepreload">` added while the entry runs (a third of its main-thread
 * time in the profile).
 *   - app-shell: everything the entry loads statically, in one chunk beside it (and react's), with
 *     the few small modules the run page's screen shares with sign-in's or the dashboard's (inspection
 *     states, date formats, the outbox's store…: some hundred bytes, fewer files on all three);
 *   - run-page-shared: what else the run page's screen shares with other screens, unless a module
 *     needs what sign-in or the dashboard loads — their first loads carry none of it.
 * Every other module goes where the bundler puts it.
 */
const moduleOf = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const entryModule = moduleOf('./src/main.tsx');
const runPageModule = moduleOf('./src/app/routes/inspection-detail.tsx');
const otherFirstLoadModules = [moduleOf('./src/app/routes/sign-in.tsx'), moduleOf('./src/app/routes/org-dashboard.tsx')];
type ModuleGraph = { getModuleInfo(id: string): { importedIds: string[]; importers: string[]; dynamicImporters: string[] } | null };
// lucide's index names every icon, so an icon seems reached by any module that uses one: icons are
// not placed by name here; each comes along as a dependency of the code that really uses it.
const lucideIcon = /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;

/** The modules `from` reaches through static imports: the code that loads with it. */
function staticClosure(graph: ModuleGraph, ...from: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

const closuresOf = new WeakMap<ModuleGraph, { shell: Set<string>; runPage: Set<string>; otherFirstLoads: Set<string> }>();
function firstLoadChunk(id: string, graph: ModuleGraph): string | null {
  let closures = closuresOf.get(graph);
  if (!closures) {
    const runPage = staticClosure(graph, runPageModule);
    const otherFirstLoads = staticClosure(graph, ...otherFirstLoadModules);
    const shell = staticClosure(graph, entryModule);
    for (const module of runPage) if (otherFirstLoads.has(module) && module !== runPageModule) shell.add(module);
    closures = { shell, runPage, otherFirstLoads };
    closuresOf.set(graph, closures);
  }
  if (lucideIcon.test(id)) return null;
  if (closures.shell.has(id)) return id === entryModule ? null : 'app-shell';
  if (!closures.runPage.has(id) || closures.otherFirstLoads.has(id) || id === runPageModule) return null;
  // Code only the run page's screen uses stays in its chunk.
  const info = graph.getModuleInfo(id);
  const shared = [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])].some((importer) => !closures!.runPage.has(importer));
  if (!shared) return null;
  // A group brings its modules' dependencies along: a module that needs what sign-in or the
  // dashboard loads would bring them this whole chunk.
  for (const dependency of staticClosure(graph, id)) {
    if (closures.otherFirstLoads.has(dependency) && !closures.shell.has(dependency)) return null;
  }
  return 'run-page-shared';
}

// The data a visit keeps on the device is forgotten when the build changes (its shape may have):
// stack/web.ts sets the build's id from its sources; any other build gets the time it was made.
process.env.VITE_BUILD_ID ??= new Date().toISOString();

const schemasDir = fileURLToPath(new URL('../supabase/functions/_shared/schemas', import.meta.url));
// `@/…` is web/src/…: an import says where its module lives in the app, not how many folders up it is.
const srcDir = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  root: webDir,
  plugins: [
    react(),
    reactRouterProductionBuild(),
    findApiDocsOnlyChunks(),
    removeServiceWorkerInDev(),
    // The installable app shell (issue 12, docs/offline.md): a manifest, and a service worker that
    // precaches the built app so a page opened before going offline reloads offline. It asks the
    // user before switching to a new version (registerType 'prompt', web/src/app/update-prompt.tsx).
    // `npm start` serves this build (stack/web.ts); `npm run dev` runs without it.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/apple-touch-icon.png'],
      manifest: {
        name: 'Fieldcheck',
        short_name: 'Fieldcheck',
        description: 'Site inspections with checklists, photo evidence and corrective actions, online or off.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f5f7f6',
        theme_color: '#1f6f5c',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        // Not the API reference's chunks (above): it is read online.
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => !apiDocsOnlyFiles.has(entry.url)), warnings: [] })],
        // Every route of the app is index.html; the api, auth and storage are on the project's origin.
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        // The first worker takes charge of the page that installed it, at once: otherwise that first
        // visit's later requests (a screen's or a component's lazily loaded code) bypass the
        // precache, and going offline before a reload leaves them unreachable (issue 23). A later
        // worker still waits for the user's "Reload" (registerType 'prompt').
        clientsClaim: true,
        runtimeCaching: [
          {
            // Photo thumbnails: signed download URLs of evidence, kept for a day so an inspection
            // opened before going offline still shows its photos.
            urlPattern: ({ url }) => url.pathname.includes('/storage/v1/object/sign/evidence/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'evidence-thumbnails',
              expiration: { maxEntries: 300, maxAgeSeconds: 24 * 60 * 60 },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  resolve: {
    alias: { '@schemas': schemasDir, '@': srcDir },
    // Deno may install its own zod under supabase/functions: bundle one copy only.
    dedupe: ['zod', 'react', 'react-dom'],
  },
  server: {
    // Loopback only: the dev server is for this machine (HOST=0.0.0.0 to try it from a phone on the
    // same network). Browsers reach it as http://localhost and http://127.0.0.1 alike.
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
  },
  preview: {
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 4173),
    strictPort: true,
  },
  build: {
    outDir: 'dist',
    // The API reference (Scalar, /api-docs only, never precached) ships chunks of up to ~1.6 MB.
    chunkSizeWarningLimit: 2000,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than app code: separate chunks stay cached across deploys.
        // Other libraries go with the screens that use them (the accordion, the QR code, zod's
        // forms), so the first load carries only what every screen needs; the first loads' small
        // shared pieces are merged rather than fetched one by one (firstLoadChunk, above).
        codeSplitting: {
          minSize: 8 * 1024,
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'supabase', test: /node_modules[\\/]@supabase[\\/]/ },
            { name: firstLoadChunk, debugName: 'first-load chunks' },
          ],
        },
      },
    },
  },
});
