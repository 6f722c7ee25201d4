#!/usr/bin/env node
// Reads vitest's JSON report (--reporter=json --outputFile=F) and prints the counts as
// "tests: N passed, N failed, N skipped", then each skipped test. In CI (CI=true) a skipped test
// fails the run unless test/ci-allowed-skips.json lists it with the reason it cannot run there:
// a missing tool, database or service must not turn into a green run.
// Usage: node scripts/check-test-report.mjs <report.json>
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node scripts/check-test-report.mjs <vitest-json-report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const allowed = JSON.parse(readFileSync(new URL('../test/ci-allowed-skips.json', import.meta.url), 'utf8'));
const reasonOf = new Map(allowed.map((a) => [a.test, a.reason]));

const skipped = [];
for (const file of report.testResults ?? []) {
  for (const t of file.assertionResults ?? []) {
    if (t.status === 'skipped' || t.status === 'pending' || t.status === 'todo') {
      skipped.push(`${relative(process.cwd(), file.name)} > ${[...(t.ancestorTitles ?? []), t.title].join(' > ')}`);
    }
  }
}
const failedFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);

console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped.length} skipped`);
if (failedFiles.length > 0)
  console.log(`${failedFiles.length} test file(s) failed to load: ${failedFiles.map((f) => relative(process.cwd(), f.name)).join(', ')}`);

const ci = process.env.CI === 'true' || process.env.CI === '1';
const refused = [];
for (const name of skipped) {
  const reason = reasonOf.get(name);
  console.log(`  skipped: ${name}${reason ? `\n    allowed: ${reason}` : ''}`);
  if (reason === undefined) refused.push(name);
}
if (ci && refused.length > 0) {
  console.log(
    `error: ${refused.length} test(s) skipped in CI. A skip means a tool, database or service the suite needs is missing: ` +
      'install it in .ci/run (or, if it truly cannot be had on the CI machine, list the test in test/ci-allowed-skips.json with the reason).',
  );
  process.exit(1);
}
