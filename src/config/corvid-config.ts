import type { ModelConfig, ReasoningSettings, ToolChoice, ToolMode } from '../types/model.js';
import type { McpServerConfig } from '../mcp/mcp-server-config.js';

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
  /** Limits of agents that set none. */
  limits?: LimitsConfig;
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

/** Agent types: `llm` (a model with tools) and the workflow agents. */
export type AgentType = 'llm' | 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router';

/** `limits:` after normalisation. */
export interface LimitsConfig {
  maxDepth?: number;
  maxTotalSteps?: number;
  maxTotalTokens?: number;
  maxDurationMs?: number;
}

/** One orchestrator task after normalisation. */
export interface TaskConfig {
  id: string;
  agent: string;
  input?: string;
  dependsOn: string[];
}

/** One pipeline stage after normalisation. */
export interface StageConfig {
  name: string;
  agent: string;
  input?: string;
}

/** One router route after normalisation. */
export interface RouteConfig {
  name: string;
  agent: string;
  description?: string;
  keywords?: string[];
  patterns?: string[];
  priority?: number;
}

/** A loop's `until:` after normalisation. */
export interface UntilConfig {
  state?: string;
  equals?: string | number | boolean;
  output?: string;
  matches?: string;
}

/** One agent after normalisation (camelCase). References are kept as written. */
export interface AgentConfig {
  name: string;
  /** Absent for `llm` agents. */
  type?: AgentType;
  description?: string;
  /** Model reference: a name from `models` or an inline `provider:model` id. */
  model?: string;
  instructions?: string;
  /** Tool references: registered tool names, tool-module ids, or `module.tool`. */
  tools: string[];
  /** Names of other agents, exposed as `ask_<name>` tools. */
  agentTools: string[];
  /** Those of `agentTools` that keep a persistent sub-conversation. */
  persistentAgentTools?: string[];
  /** llm: handoff targets (`transfer_to_<name>`); sequential / parallel / loop: the agents they run. */
  subAgents?: string[];
  /** Session-state key the final answer is also saved under. */
  outputKey?: string;
  limits?: LimitsConfig;
  /** parallel */
  maxConcurrency?: number;
  /** parallel, orchestrator */
  failFast?: boolean;
  /** loop */
  maxIterations?: number;
  until?: UntilConfig;
  onMaxIterations?: 'stop' | 'error';
  /** orchestrator */
  tasks?: TaskConfig[];
  maxParallel?: number;
  /** pipeline */
  stages?: StageConfig[];
  /** router */
  routes?: RouteConfig[];
  defaultRoute?: string;
  classifier?: { model?: string; instructions?: string };
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
  /** MCP servers by id (`mcp_servers`); absent when the file declares none. */
  mcpServers?: Record<string, McpServerConfig>;
  /** Named agents, in file order. */
  agents: Record<string, AgentConfig>;
}
