import type { Reporter, TestModule } from 'vitest/node';

/**
 * Lists every skipped test at the end of a run, file and name, so a skip never goes unnoticed.
 * Each guard prints its reason when its file loads (e.g. `[storage] postgres suites skipped:
 * CORVID_TEST_POSTGRES_URL is not set`). In CI, `scripts/check-test-report.mjs` fails the run
 * on any skip not listed in `test/ci-allowed-skips.json`.
 */
export default class SkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) skipped.push(`  ${module.relativeModuleId} > ${test.fullName}`);
    }
    if (skipped.length === 0) return;
    console.log(
      `\n${skipped.length} skipped test${skipped.length === 1 ? '' : 's'} (the reasons are printed above, where their files loaded):`,
    );
    console.log(skipped.join('\n'));
  }
}
