import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ReasoningSettings, RetrySettings, ToolMode } from '../types/model.js';

/** A model ready for the loop: the provider-spec model plus the settings Corvid applies around it. */
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
}

/** Default retry policy. */
export const DEFAULT_RETRY: Required<RetrySettings> = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 30_000 };
