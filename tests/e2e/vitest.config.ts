import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One browser flow at a time keeps timings steady on two cores.
    fileParallelism: false,
    // expect.poll waits up to 1 s by default: a screen's data after sign-in can take longer on a
    // loaded machine (a list of site groups polled for 1 s read "All sites" alone, once), and a
    // condition that never comes still fails, only later.
    expect: { poll: { timeout: 10_000 } },
  },
});
