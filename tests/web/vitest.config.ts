import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the web client's own logic (the outbox, the offline cache): in Node, with
// fake-indexeddb standing in for the browser's IndexedDB, no stack needed.
export default defineConfig({
  resolve: {
    // The web app's aliases (web/vite.config.ts): @schemas/… and @/… (web/src/…).
    alias: {
      '@schemas': fileURLToPath(new URL('../../supabase/functions/_shared/schemas', import.meta.url)),
      '@': fileURLToPath(new URL('../../web/src', import.meta.url)),
    },
  },
  test: {
    include: ['tests/web/**/*.test.ts'],
    setupFiles: ['fake-indexeddb/auto'],
    testTimeout: 10_000,
  },
});
