import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Lists skipped tests at the end of every run (CI fails on them: scripts/check-test-report.mjs).
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
