import type { LanguageModelV3, LanguageModelV3ToolChoice } from '@ai-sdk/provider';

/** Reasoning / thinking settings: an effort level, a token budget, or both. */
export interface ReasoningSettings {
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  budgetTokens?: number;
}

/** Retry policy for transient provider failures (429, 5xx, network errors, timeouts). */
export interface RetrySettings {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff delay. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap for one delay (also caps Retry-After). Default 30 s. */
  maxDelayMs?: number;
}

/** How a model receives tools: natively, or described in the prompt with JSON calls parsed from text. */
export type ToolMode = 'native' | 'json';

/**
 * The model settings an agent, a run (`RunOptions`) and a config entry may set. A run's override
 * its agent's, which override the model's own (`temperature`, `maxTokens`, `topP`, `reasoning`).
 */
export interface ModelSettings {
  /** Model calls allowed per run before MaxStepsExceededError. Default 10. */
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  /**
   * `auto` (default), `none`, `required` or `{ tool: name }`. A forced choice (`required`, `{ tool }`)
   * applies to the first step of a run only, so the model can answer after the tool results.
   */
  toolChoice?: ToolChoice;
}

/** A model described by settings; resolved lazily so unused provider packages are never loaded. */
export interface ModelConfig {
  /** `openai`, `anthropic`, `google` (alias `gemini`), `ollama`, `openai-compatible` (alias `compatible`). */
  provider: string;
  model: string;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  /** OpenAI only: `responses` (default) or `chat` (Chat Completions). */
  api?: 'responses' | 'chat';
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolMode?: ToolMode;
  retry?: RetrySettings;
  /** Per-request timeout. Default 120 s. */
  timeoutMs?: number;
  /**
   * Streaming calls: how long the response may take to start (its headers) before the call is
   * aborted and retried. Default 60 s (Ollama: the per-request timeout, as it may load the model first).
   */
  firstByteTimeoutMs?: number;
  /** Passed through to the provider (`providerOptions[provider]`). */
  providerOptions?: Record<string, Record<string, unknown>>;
  /**
   * The model's context window in tokens, for budgets that must fit it (`corvid code` compacts its session before
   * 80 % of it). Default: known for the major hosted models, else 128,000.
   */
  contextWindow?: number;
  /**
   * Record and replay the model's calls (`openCassette({ path, mode })` from `corvid`). The provider's
   * model is created at the first call the cassette does not answer, so a replay needs no API key.
   */
  cassette?: ModelCassette;
}

/** What a model config needs of a cassette (`Cassette` in `corvid` implements it). */
export interface ModelCassette {
  /** The model recording to / replaying from the cassette; `name` is part of each request's key. */
  wrap(model: LanguageModelV3, name?: string): LanguageModelV3;
  /** Masks a secret (the model's API key) in what the cassette writes. */
  addSecret(secret: string | undefined): void;
}

/** A model: `'provider:model'`, a config object, or any AI SDK `LanguageModelV3`. */
export type ModelInput = string | ModelConfig | LanguageModelV3;

/** Tool choice for one run. */
export type ToolChoice = 'auto' | 'none' | 'required' | { tool: string };

/** Converts Corvid's tool choice to the provider spec's. */
export function toProviderToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.tool };
}
