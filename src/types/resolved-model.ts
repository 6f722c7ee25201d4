import type { LanguageModelV3 } from '@ai-sdk/provider';

import type { ReasoningSettings, RetrySettings, ToolMode } from './model.js';

/** A provider failure turned into a Corvid error, with whether it is worth retrying and any server-given delay. */
export interface ClassifiedError {
  /** A `CorvidError` (typed here by its shape: contracts import nothing above them). */
  error: Error & { readonly code: string };
  retryable: boolean;
  retryAfterMs?: number;
}

/** What a failed call attempt was (passed to `ResolvedModel.classifyError`). */
export interface FailedCallInfo {
  /** The per-request timeout (`timeoutMs`) fired. */
  timedOut: boolean;
  /** Attempts made so far, this one included. */
  attempts: number;
}

/**
 * A model ready for the agent loop: the provider-spec model, the settings Corvid applies around
 * it, and the two provider-specific functions the loop calls. The loop (`src/core`) only sees this
 * contract; `resolveModel()` in `src/models` builds it from `'provider:model'`, a config or an AI SDK model.
 */
export interface ResolvedModel {
  model: LanguageModelV3;
  /** Provider family used for reasoning options and error messages (`openai`, `anthropic`, …). */
  provider: string;
  modelId: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolMode: ToolMode;
  retry: Required<RetrySettings>;
  /** Per-request timeout in ms; 0 = none. */
  timeoutMs: number;
  providerOptions?: Record<string, Record<string, unknown>>;
  /** The `providerOptions` of a call: the model's own, plus `reasoning` mapped to this provider's options. */
  callProviderOptions(reasoning: ReasoningSettings | undefined): Record<string, Record<string, unknown>> | undefined;
  /** Turns an error thrown by a call of this model into a typed Corvid error, saying whether to retry. */
  classifyError(err: unknown, info: FailedCallInfo): ClassifiedError;
}
