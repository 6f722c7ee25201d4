import { formatChange } from '../evals/baseline-diff.js';
import type { CaseResult, EvalResults } from '../evals/eval-results.js';
import { gateText } from '../evals/junit-report.js';
import type { Colors } from './colors.js';

/** One line per case: its id and each scorer's mean with the runs that passed. */
export function caseLine(c: CaseResult, colors: Colors): string {
  const ok = c.scores.every((s) => s.passes === s.runs.length);
  const mark = ok ? colors.green('✓') : colors.red('✗');
  const scores = c.scores.map((s) => `${s.scorer} ${s.mean.toFixed(2)} (${s.passes}/${s.runs.length})`).join('  ');
  const failed = c.errors.filter((e) => e !== null);
  const error = failed.length > 0 ? colors.red(`  error: ${failed[0]}`) : '';
  return `  ${mark} ${c.id}  ${colors.dim(scores)}${error}`;
}

/** The gates, the changes against the baseline, and the verdict. */
export function summaryText(r: EvalResults, colors: Colors): string {
  const lines = ['Gates:'];
  for (const g of r.gates) lines.push(`  ${g.pass ? colors.green('✓') : colors.red('✗')} ${g.scorer}  ${gateText(g, r.k)}`);
  if (r.baseline !== undefined) {
    const moved = r.baseline.changes.filter((c) => c.change !== 'unchanged');
    lines.push(`Changes against ${r.baseline.file}:${moved.length === 0 ? ' none' : ''}`);
    for (const c of moved) {
      const color = c.change === 'regressed' ? colors.red : c.change === 'improved' ? colors.green : colors.dim;
      lines.push(`  ${color(c.change.padEnd(9))} ${c.case} · ${c.scorer}  ${formatChange(c)}`);
    }
  }
  const failed = r.gates.filter((g) => !g.pass).length;
  lines.push(r.pass ? colors.green(`Passed: ${r.gates.length} gate(s)`) : colors.red(`Failed: ${failed} of ${r.gates.length} gate(s)`));
  return `${lines.join('\n')}\n`;
}
