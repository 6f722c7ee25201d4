/** Plain helpers of the trace view: which spans show, how a cost reads. */
import type { TraceSpan } from './api-types.js';

/** `$0.0012`; below a hundredth of a cent `<$0.0001`. */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined) return undefined;
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** The spans to show: those whose ancestors are all expanded. */
export function visibleSpans(spans: readonly TraceSpan[], collapsed: ReadonlySet<string>): TraceSpan[] {
  const hidden = new Set<string>();
  const out: TraceSpan[] = [];
  for (const s of spans) {
    if (s.parentId !== undefined && (hidden.has(s.parentId) || collapsed.has(s.parentId))) {
      hidden.add(s.id);
      continue;
    }
    out.push(s);
  }
  return out;
}
