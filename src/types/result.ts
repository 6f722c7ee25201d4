import type { Message } from './message.js';
import type { Usage } from './usage.js';

/** Why a model step ended (the provider's unified reason). */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** One tool call the model made. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The outcome of one tool call. */
export interface ToolResultRecord {
  toolCallId: string;
  toolName: string;
  /** The tool's return value, or the error message when `isError`. */
  output: unknown;
  isError: boolean;
  durationMs: number;
}

/** One model step: one model call and the tool calls it asked for. */
export interface StepResult {
  step: number;
  text: string;
  reasoning: string;
  toolCalls: ToolCallRecord[];
  toolResults: ToolResultRecord[];
  finishReason: FinishReason;
  usage: Usage;
}

/** What `agent.run()` resolves to. */
export interface RunResult {
  runId: string;
  agent: string;
  /** The final answer. */
  text: string;
  steps: StepResult[];
  /** Token usage summed over the run's steps (nested agent runs included). */
  usage: Usage;
  /** Messages this run added to the conversation (user input, assistant, tool). */
  messages: Message[];
  finishReason: FinishReason;
  durationMs: number;
}
