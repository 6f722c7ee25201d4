import type { Usage } from '../types/usage.js';

/** A model's price in US dollars per million tokens, and its context window in tokens. */
export interface ModelFacts {
  /** $ per 1M input tokens. */
  input?: number;
  /** $ per 1M output tokens. */
  output?: number;
  /** Context window in tokens. */
  contextWindow: number;
}

/** Context window assumed for models not in the table. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * Well-known models by id prefix (the longest matching prefix wins). Prices are list prices per
 * 1M tokens; models not listed show tokens only.
 */
const TABLE: ReadonlyArray<[prefix: string, facts: ModelFacts]> = [
  ['gpt-4.1-nano', { input: 0.1, output: 0.4, contextWindow: 1_047_576 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6, contextWindow: 1_047_576 }],
  ['gpt-4.1', { input: 2, output: 8, contextWindow: 1_047_576 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6, contextWindow: 128_000 }],
  ['gpt-4o', { input: 2.5, output: 10, contextWindow: 128_000 }],
  ['gpt-5-nano', { input: 0.05, output: 0.4, contextWindow: 400_000 }],
  ['gpt-5-mini', { input: 0.25, output: 2, contextWindow: 400_000 }],
  ['gpt-5', { input: 1.25, output: 10, contextWindow: 400_000 }],
  ['o4-mini', { input: 1.1, output: 4.4, contextWindow: 200_000 }],
  ['o3', { input: 2, output: 8, contextWindow: 200_000 }],
  ['claude-opus-4', { input: 15, output: 75, contextWindow: 200_000 }],
  ['claude-sonnet-4', { input: 3, output: 15, contextWindow: 200_000 }],
  ['claude-3-7-sonnet', { input: 3, output: 15, contextWindow: 200_000 }],
  ['claude-haiku-4-5', { input: 1, output: 5, contextWindow: 200_000 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4, contextWindow: 200_000 }],
  ['gemini-2.5-pro', { input: 1.25, output: 10, contextWindow: 1_048_576 }],
  ['gemini-2.5-flash-lite', { input: 0.1, output: 0.4, contextWindow: 1_048_576 }],
  ['gemini-2.5-flash', { input: 0.3, output: 2.5, contextWindow: 1_048_576 }],
];

/** What is known of a model (`provider:model` or a bare model id): price and context window. */
export function modelFacts(model: string): ModelFacts {
  const id = model.includes(':') ? model.slice(model.indexOf(':') + 1) : model;
  let best: ModelFacts | undefined;
  let bestLength = 0;
  for (const [prefix, facts] of TABLE) {
    if (id.startsWith(prefix) && prefix.length > bestLength) {
      best = facts;
      bestLength = prefix.length;
    }
  }
  return best ?? { contextWindow: DEFAULT_CONTEXT_WINDOW };
}

/** The cost of `usage` on `model` in US dollars, or `undefined` when its prices are not known. */
export function costOf(model: string, usage: Usage): number | undefined {
  const facts = modelFacts(model);
  if (facts.input === undefined || facts.output === undefined) return undefined;
  return (usage.inputTokens * facts.input + usage.outputTokens * facts.output) / 1_000_000;
}
