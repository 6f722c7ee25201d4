import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: two files at once on a loaded 2-core machine make a child-process test several times slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files wait on child processes, sockets and browsers: two run at once even on a 2-core machine
    // (vitest's default there is one at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Lists skipped tests at the end of every run (CI fails on them: scripts/check-test-report.mjs).
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
