import type { Scorer } from '../../types/scorer.js';

/** Options of `budget`: limits a run must stay within (any subset). */
export interface BudgetOptions {
  maxTokens?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  maxLatencyMs?: number;
  maxSteps?: number;
  /** Cost in US dollars, from the usage and `pricePerMillion`. */
  maxCostUsd?: number;
  /** Prices per million tokens, for `maxCostUsd`. */
  pricePerMillion?: { input: number; output: number };
  name?: string;
}

/** Scores the share of limits a run stayed within; passes when it stayed within all. */
export function budget(options: BudgetOptions): Scorer {
  if (options.maxCostUsd !== undefined && options.pricePerMillion === undefined)
    throw new TypeError('budget scorer: max_cost_usd needs price_per_million: { input, output }');
  return {
    name: options.name ?? 'budget',
    score(input) {
      const u = input.usage;
      const measured: Array<[string, number | undefined, number | undefined]> = [
        ['tokens', u?.totalTokens, options.maxTokens],
        ['input tokens', u?.inputTokens, options.maxInputTokens],
        ['output tokens', u?.outputTokens, options.maxOutputTokens],
        ['latency ms', input.latencyMs, options.maxLatencyMs],
        ['steps', input.steps, options.maxSteps],
      ];
      if (options.maxCostUsd !== undefined && options.pricePerMillion !== undefined) {
        const p = options.pricePerMillion;
        const cost = u ? (u.inputTokens * p.input + u.outputTokens * p.output) / 1e6 : undefined;
        measured.push(['cost usd', cost, options.maxCostUsd]);
      }
      const checked = measured.filter(([, , limit]) => limit !== undefined);
      const over = checked.filter(([, value, limit]) => value === undefined || value > limit!);
      const details = Object.fromEntries(checked.map(([k, value]) => [k, value === undefined ? null : Math.round(value * 1e6) / 1e6]));
      const pass = over.length === 0;
      const reason = pass
        ? `within budget (${checked.map(([k, v, l]) => `${k} ${fmt(v)} ≤ ${l}`).join(', ') || 'no limits'})`
        : `over budget: ${over.map(([k, v, l]) => `${k} ${v === undefined ? 'unknown' : fmt(v)} > ${l}`).join(', ')}`;
      return { score: checked.length === 0 ? 1 : (checked.length - over.length) / checked.length, pass, reason, details };
    },
  };
}

function fmt(n: number | undefined): string {
  return n === undefined ? '?' : String(Math.round(n * 1e6) / 1e6);
}
