import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the web client's own logic (the outbox, the offline cache): in Node, with
// fake-indexeddb standing in for the browser's IndexedDB, no stack needed.
export default defineConfig({
  resolve: {
    alias: { '@schemas': fileURLToPath(new URL('../../supabase/functions/_shared/schemas', import.meta.url)) },
  },
  test: {
    include: ['tests/web/**/*.test.ts'],
    setupFiles: ['fake-indexeddb/auto'],
    testTimeout: 10_000,
  },
});
