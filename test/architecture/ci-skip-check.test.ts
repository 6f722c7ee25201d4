/**
 * CI cannot pass by skipping: scripts/check-test-report.mjs fails a CI run whose vitest report has a
 * skipped test that test/ci-allowed-skips.json does not list, and .ci/run fails when a tool the
 * suites need cannot be installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts/check-test-report.mjs');
const allowed = JSON.parse(readFileSync(join(root, 'test/ci-allowed-skips.json'), 'utf8')) as Array<{ test: string; reason: string }>;

/** A vitest JSON report with one passed test and the given skipped ones (`file > suite > name`). */
function report(skipped: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-report-'));
  const results = skipped.map((name) => {
    const [file, ...titles] = name.split(' > ');
    return {
      name: join(root, file!),
      status: 'passed',
      assertionResults: [{ ancestorTitles: titles.slice(0, -1), title: titles.at(-1), status: 'skipped' }],
    };
  });
  results.push({
    name: join(root, 'test/a.test.ts'),
    status: 'passed',
    assertionResults: [{ ancestorTitles: [], title: 'works', status: 'passed' }],
  });
  const path = join(dir, 'report.json');
  writeFileSync(path, JSON.stringify({ numPassedTests: 1, numFailedTests: 0, success: true, testResults: results }));
  return path;
}

function check(path: string, ci: boolean): { status: number | null; stdout: string } {
  const env = { ...process.env, CI: ci ? 'true' : '' };
  const r = spawnSync(process.execPath, [script, path], { encoding: 'utf8', cwd: root, env });
  return { status: r.status, stdout: r.stdout };
}

describe('the CI skip check', () => {
  const sandboxSkip = 'test/tools/shell/escape.test.ts > shell tool escapes: inside the bubblewrap sandbox > reads nothing outside';

  it('fails a CI run with a skipped test, naming it and what to do', () => {
    const r = check(report([sandboxSkip]), true);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('tests: 1 passed, 0 failed, 1 skipped');
    expect(r.stdout).toContain(`skipped: ${sandboxSkip}`);
    expect(r.stdout).toMatch(/1 test\(s\) skipped in CI/);
  });

  it('lets the same run pass outside CI, still listing the skip', () => {
    const r = check(report([sandboxSkip]), false);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`skipped: ${sandboxSkip}`);
  });

  it('allows in CI only the skips listed with a reason, and prints the reason', () => {
    expect(allowed.every((a) => a.reason.length > 20)).toBe(true);
    const r = check(report([allowed[0]!.test]), true);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`allowed: ${allowed[0]!.reason}`);
  });

  it('.ci/run fails when a tool cannot be installed, type-checks, and runs the skip check', () => {
    const run = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(run).not.toMatch(/warning: could not install/);
    expect(run).toMatch(/could not install \$2[^\n]*exit 1/);
    expect(run).toMatch(/npm run typecheck \|\| status=1/);
    expect(run).toMatch(/node scripts\/check-test-report\.mjs "\$results" \|\| status=1/);
  });
});
