import type { EvalResults } from './eval-results.js';

/**
 * JUnit XML as CI systems read it: one `<testsuite>` per eval suite, one `<testcase>` per case and
 * scorer (failed when a run did not pass, or the case's mean is below the scorer's threshold),
 * and one per gate.
 */
export function junitReport(r: EvalResults): string {
  const testcases: string[] = [];
  let failures = 0;
  for (const c of r.cases) {
    c.scores.forEach((s, j) => {
      const gate = r.gates[j];
      const failed = s.passes < s.runs.length || s.mean < (gate?.threshold ?? 1) - 1e-9;
      const name = `${c.id} · ${s.scorer}`;
      if (!failed) {
        testcases.push(`    <testcase classname="${esc(r.suite)}" name="${esc(name)}"/>`);
        return;
      }
      failures++;
      const reasons = s.runs
        .map((run, i) => `run ${i + 1}: ${run.pass ? 'pass' : 'fail'} ${run.score.toFixed(2)}${run.reason ? ` ${run.reason}` : ''}`)
        .join('\n');
      const message = `${s.passes}/${s.runs.length} runs passed, mean ${s.mean.toFixed(2)}`;
      testcases.push(
        `    <testcase classname="${esc(r.suite)}" name="${esc(name)}">\n      <failure message="${esc(message)}">${esc(reasons)}</failure>\n    </testcase>`,
      );
    });
  }
  for (const g of r.gates) {
    const name = `gate · ${g.scorer}`;
    if (g.pass) testcases.push(`    <testcase classname="${esc(r.suite)}" name="${esc(name)}"/>`);
    else {
      failures++;
      testcases.push(
        `    <testcase classname="${esc(r.suite)}" name="${esc(name)}">\n      <failure message="${esc(gateText(g))}"/>\n    </testcase>`,
      );
    }
  }
  const time = (r.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="corvid eval" tests="${testcases.length}" failures="${failures}" time="${time}">`,
    `  <testsuite name="${esc(r.suite)}" tests="${testcases.length}" failures="${failures}" errors="0" skipped="0" time="${time}" timestamp="${esc(r.startedAt)}">`,
    ...testcases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A gate as one line: `mean 0.67 < 0.80`, `2/3 cases passed all 3 runs`. */
export function gateText(g: EvalResults['gates'][number], k?: number): string {
  const parts = [`mean ${g.mean.toFixed(2)} ${g.mean >= g.threshold - 1e-9 ? '≥' : '<'} ${g.threshold.toFixed(2)}`];
  if (g.allK) parts.push(`all_k: ${g.casesPassingAllK} case(s) passed every run${k !== undefined ? ` of ${k}` : ''}`);
  return parts.join(', ');
}

// XML 1.0 forbids most control characters even escaped.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

function esc(s: string): string {
  return s
    .replace(INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
