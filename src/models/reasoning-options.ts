import type { ReasoningSettings } from '../types/model.js';

const BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 24_576 } as const;

function effortFor(r: ReasoningSettings): 'minimal' | 'low' | 'medium' | 'high' {
  if (r.effort) return r.effort;
  const b = r.budgetTokens ?? 8192;
  return b <= 1024 ? 'minimal' : b <= 4096 ? 'low' : b <= 16_384 ? 'medium' : 'high';
}

/**
 * Maps Corvid's reasoning settings to each provider's options:
 * OpenAI `reasoningEffort` (+ summaries so reasoning is visible), Anthropic `thinking.budgetTokens`,
 * Gemini `thinkingConfig`, OpenAI-compatible servers `reasoningEffort` (sent as `reasoning_effort`).
 * Ollama's `/v1` turns `reasoning_effort` into its `think` option and accepts only `low`, `medium`
 * and `high` (and `none`), so `minimal` is sent to it as `low`.
 */
export function reasoningProviderOptions(provider: string, r: ReasoningSettings): Record<string, Record<string, unknown>> {
  const family = provider.split('.')[0];
  switch (family) {
    case 'openai':
      return { openai: { reasoningEffort: effortFor(r), reasoningSummary: 'auto' } };
    case 'anthropic':
      return { anthropic: { thinking: { type: 'enabled', budgetTokens: r.budgetTokens ?? BUDGETS[effortFor(r)] } } };
    case 'google':
      return { google: { thinkingConfig: { thinkingBudget: r.budgetTokens ?? BUDGETS[effortFor(r)], includeThoughts: true } } };
    case 'ollama': {
      const effort = effortFor(r) === 'minimal' ? 'low' : effortFor(r);
      return { ollama: { reasoningEffort: effort }, openaiCompatible: { reasoningEffort: effort } };
    }
    case 'openai-compatible':
      // The SDK reads `openaiCompatible`; its older `openai-compatible` key draws a deprecation warning on every call.
      return { openaiCompatible: { reasoningEffort: effortFor(r) } };
    default:
      return { [family]: { reasoningEffort: effortFor(r) }, openaiCompatible: { reasoningEffort: effortFor(r) } };
  }
}

/**
 * The options of an openai-compatible model under the key its SDK reads (`openaiCompatible`): a
 * config's `openai-compatible:` key (the provider's name) is moved there, since the SDK warns on
 * every call that it is deprecated. Other providers' options are returned as they are.
 */
export function canonicalProviderOptions(
  provider: string,
  options: Record<string, Record<string, unknown>> | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (provider.split('.')[0] !== 'openai-compatible' || options?.['openai-compatible'] === undefined) return options;
  const { 'openai-compatible': legacy, ...rest } = options;
  return { ...rest, openaiCompatible: { ...legacy, ...rest.openaiCompatible } };
}

/** Merges provider option maps one level deep (later wins). */
export function mergeProviderOptions(
  ...maps: Array<Record<string, Record<string, unknown>> | undefined>
): Record<string, Record<string, unknown>> | undefined {
  let out: Record<string, Record<string, unknown>> | undefined;
  for (const m of maps) {
    if (!m) continue;
    out ??= {};
    for (const [k, v] of Object.entries(m)) out[k] = { ...out[k], ...v };
  }
  return out;
}
