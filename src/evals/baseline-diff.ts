import type { BaselineChange, EvalResults } from './eval-results.js';

/** Score changes smaller than this count as unchanged. */
const EPSILON = 1e-6;

/** Per case and scorer, how the mean score moved from `baseline` to `current` (cases or scorers added or gone included). */
export function diffBaseline(current: EvalResults, baseline: EvalResults): BaselineChange[] {
  const before = means(baseline);
  const after = means(current);
  const out: BaselineChange[] = [];
  for (const [key, a] of after) {
    const [c, scorer] = key.split('\u0000') as [string, string];
    const b = before.get(key);
    if (b === undefined) out.push({ case: c, scorer, after: a, change: 'new' });
    else
      out.push({
        case: c,
        scorer,
        before: b,
        after: a,
        change: a > b + EPSILON ? 'improved' : a < b - EPSILON ? 'regressed' : 'unchanged',
      });
  }
  for (const [key, b] of before) {
    if (after.has(key)) continue;
    const [c, scorer] = key.split('\u0000') as [string, string];
    out.push({ case: c, scorer, before: b, change: 'removed' });
  }
  return out;
}

function means(r: EvalResults): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of r.cases) for (const s of c.scores) m.set(`${c.id}\u0000${s.scorer}`, s.mean);
  return m;
}

/** `0.50 → 0.80 (+0.30)`, `new 1.00`, `removed (was 0.50)`. */
export function formatChange(c: BaselineChange): string {
  const f = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(2));
  switch (c.change) {
    case 'new':
      return `new ${f(c.after)}`;
    case 'removed':
      return `removed (was ${f(c.before)})`;
    default: {
      const d = (c.after ?? 0) - (c.before ?? 0);
      return `${f(c.before)} → ${f(c.after)} (${d >= 0 ? '+' : ''}${d.toFixed(2)})`;
    }
  }
}
