import type { JSONSchema7 } from '@ai-sdk/provider';

/**
 * A tool the caller of a run executes itself (e.g. a function an OpenAI-API client sends with its
 * request): offered to the model next to the agent's tools, never run by Corvid. When the model
 * calls one, the run's turn ends after that step with the calls in `RunResult.clientToolCalls`;
 * the caller runs them and continues the conversation with a `tool` message carrying the results.
 */
export interface ClientTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: JSONSchema7;
}
