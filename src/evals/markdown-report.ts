import { formatChange } from './baseline-diff.js';
import type { EvalResults } from './eval-results.js';
import { gateText } from './junit-report.js';

/** A Markdown report: the gates, each case's scores, and the changes against the baseline. */
export function markdownReport(r: EvalResults): string {
  const lines: string[] = [];
  lines.push(`# Eval: ${r.suite}`, '');
  lines.push(
    `Agent \`${r.agent}\` · ${r.cases.length} case(s) × k = ${r.k} · ${r.pass ? '**passed**' : '**failed**'} · ${r.startedAt}`,
    '',
  );
  lines.push('## Gates', '', '| scorer | mean | threshold | all k | result |', '|---|---|---|---|---|');
  for (const g of r.gates) {
    const allK = g.allK ? `${g.casesPassingAllK}/${r.cases.length}` : '–';
    lines.push(
      `| ${cell(g.scorer)} | ${g.mean.toFixed(2)} | ${g.threshold.toFixed(2)} | ${allK} | ${g.pass ? 'pass' : `**fail** (${cell(gateText(g, r.k))})`} |`,
    );
  }
  lines.push('', '## Cases', '');
  const scorers = r.gates.map((g) => g.scorer);
  lines.push(`| case | ${scorers.map(cell).join(' | ')} |`, `|---|${scorers.map(() => '---').join('|')}|`);
  for (const c of r.cases) {
    const cells = c.scores.map((s) => `${s.mean.toFixed(2)} (${s.passes}/${s.runs.length})`);
    lines.push(`| ${cell(c.id)} | ${cells.join(' | ')} |`);
  }
  const failing = r.cases.flatMap((c) =>
    c.scores.flatMap((s) =>
      s.runs.flatMap((run, i) => (run.pass ? [] : [`- \`${c.id}\` · ${s.scorer} · run ${i + 1}: ${run.reason ?? 'failed'}`])),
    ),
  );
  if (failing.length > 0) lines.push('', '### Failed runs', '', ...failing.map((l) => l.replace(/\n/g, ' ')));
  if (r.baseline !== undefined) {
    lines.push('', '## Changes against the baseline', '', `Baseline: \`${r.baseline.file}\``, '');
    const moved = r.baseline.changes.filter((c) => c.change !== 'unchanged');
    if (moved.length === 0) lines.push('No score changed.');
    else {
      lines.push('| case | scorer | change | score |', '|---|---|---|---|');
      for (const c of moved) lines.push(`| ${cell(c.case)} | ${cell(c.scorer)} | ${c.change} | ${formatChange(c)} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
