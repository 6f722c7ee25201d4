import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';

import type { ContextProvider } from '../types/context-provider.js';
import type { ScoringOptions } from '../types/guardrail.js';
import type { ModelSettings } from '../types/model.js';
import type { Tool } from '../types/tool.js';
import type { ContextBudget } from './context-budget.js';
import type { PreparedGuardrails } from './run-guardrails.js';
import type { Runnable } from './runnable.js';

/** The agent-level settings a run needs (prepared once per agent, reused by every run). */
export interface PreparedAgent extends ModelSettings {
  name: string;
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: LanguageModelV3FunctionTool[];
  maxSteps: number;
  toolConcurrency: number;
  toolErrors: 'return' | 'throw';
  toolTimeoutMs?: number;
  context?: ContextBudget;
  /** `transfer_to_<name>` tool name → the agent it hands over to. */
  handoffs?: ReadonlyMap<string, Runnable>;
  /** Sections added to the instructions at the start of each turn. */
  contextProviders?: readonly ContextProvider[];
  /** Session-state key the final answer is also saved under. */
  outputKey?: string;
  /** Input, tool-call and output guardrails. */
  guardrails?: PreparedGuardrails;
  /** Sampled live scoring of finished top-level runs. */
  scoring?: ScoringOptions;
}
