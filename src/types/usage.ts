import type { LanguageModelV3Usage } from '@ai-sdk/provider';

/** Token counts. Unknown counts are 0. `cachedInputTokens` and `reasoningTokens` are subsets of input / output. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  totalTokens: number;
}

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 };
}

/** Adds `b` into `a` in place and returns `a`. */
export function addUsage(a: Usage, b: Usage): Usage {
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.reasoningTokens += b.reasoningTokens;
  a.cachedInputTokens += b.cachedInputTokens;
  a.totalTokens += b.totalTokens;
  return a;
}

/** Converts a provider-spec usage record to Corvid's flat one. */
export function fromProviderUsage(u: LanguageModelV3Usage | undefined): Usage {
  if (!u) return emptyUsage();
  const input = u.inputTokens?.total ?? 0;
  const output = u.outputTokens?.total ?? 0;
  return {
    inputTokens: input,
    outputTokens: output,
    reasoningTokens: u.outputTokens?.reasoning ?? 0,
    cachedInputTokens: u.inputTokens?.cacheRead ?? 0,
    totalTokens: input + output,
  };
}
