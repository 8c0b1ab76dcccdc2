import { defineConfig } from 'vitest/config';

// The emulated Supabase's own tests (stack/: Auth, Storage, Realtime, the functions gateway, the
// CLI and its faults) against the running stack, apart from the product's API tests (tests/api).
export default defineConfig({
  test: {
    include: ['tests/stack/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add contention with the stack under test.
    maxWorkers: 2,
  },
});
