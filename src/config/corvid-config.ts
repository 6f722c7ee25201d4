import type { ModelConfig, ReasoningSettings, ToolChoice, ToolMode } from '../types/model.js';

/** `defaults:` after normalisation. */
export interface ConfigDefaults {
  /** Model reference (a name from `models` or `provider:model`) for agents without one. */
  model?: string;
  /** Agent used when none is named. */
  agent?: string;
  maxSteps?: number;
  /** Temperature of models that set none. */
  temperature?: number;
  /** Tool mode of models that set none. */
  toolMode?: ToolMode;
}

/** `context:` of an agent after normalisation. */
export interface AgentContextConfig {
  maxTokens: number;
  strategy?: 'window' | 'summarize';
  keepRecentMessages?: number;
  /** Model reference (a name from `models` or `provider:model`). */
  summaryModel?: string;
}

/** One entry of `tools:`: a module exporting Corvid tools. */
export interface ToolModuleConfig {
  /** As written: a path relative to the config file, or a package name. */
  module: string;
  /** Only this named export. */
  export?: string;
}

/** One agent after normalisation (camelCase). References are kept as written. */
export interface AgentConfig {
  name: string;
  description?: string;
  /** Model reference: a name from `models` or an inline `provider:model` id. */
  model?: string;
  instructions?: string;
  /** Tool references: registered tool names, tool-module ids, or `module.tool`. */
  tools: string[];
  /** Names of other agents, exposed as `ask_<name>` tools. */
  agentTools: string[];
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  reasoning?: ReasoningSettings;
  toolChoice?: ToolChoice;
  toolConcurrency?: number;
  toolErrors?: 'return' | 'throw';
  toolTimeoutMs?: number;
  context?: AgentContextConfig;
}

/**
 * A validated `corvid.yaml`, normalised: camelCase keys, canonical provider names
 * (`gemini` → `google`, `openai-chat` → `openai` with `api: chat`), `${VAR}`s interpolated,
 * empty `api_key` / `base_url` dropped. Defaults are not merged in; the runtime applies them.
 */
export interface CorvidConfig {
  version: 1;
  defaults: ConfigDefaults;
  /** Named models, ready to pass to `new Agent({ model })` or `resolveModel()`. */
  models: Record<string, ModelConfig>;
  /** Tool modules by id. */
  toolModules: Record<string, ToolModuleConfig>;
  /** Named agents, in file order. */
  agents: Record<string, AgentConfig>;
}
