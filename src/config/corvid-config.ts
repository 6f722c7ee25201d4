import type { McpServerConfig } from '../mcp/mcp-server-config.js';
import type { ModelConfig, ModelSettings, ToolMode } from '../types/model.js';
import type { ScheduleConfig } from '../types/schedule.js';
import type { CodeConfig } from './code-config-schema.js';
import type { GuardrailsFileEntry, ScoringFileEntry } from './guardrails-schema.js';
import type { EmbedderConfig, KnowledgeBaseConfig } from './knowledge-schema.js';
import type { ToolKindEntry } from './tool-kinds/index.js';

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

/**
 * One entry of `tools:`: a module exporting Corvid tools, or a built-in tool family
 * (`type: files`, …) kept as written (snake_case); `TOOL_KINDS` turns it into tools.
 */
export type ToolEntryConfig = ToolModuleConfig | ToolKindEntry;

/** Agent types: `llm` (a model with tools) and the workflow agents. */
export type AgentType = 'llm' | 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router' | 'remote';

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
export interface AgentConfig extends ModelSettings {
  name: string;
  /** Absent for `llm` agents. */
  type?: AgentType;
  description?: string;
  /** Model reference: a name from `models` or an inline `provider:model` id. */
  model?: string;
  instructions?: string;
  /** Tool references: registered tool names, tool-module ids, or `module.tool`. */
  tools: string[];
  /** Knowledge bases (names from `knowledge`) the agent uses; absent when none. */
  knowledge?: string[];
  /**
   * How the agent uses `knowledge` when the file says (`knowledge: { bases, … }`); absent: a search
   * tool only. `tool: false`: no search tool; `inject`: passages put into the instructions of each turn.
   */
  knowledgeUse?: { tool: boolean; inject?: { budgetTokens?: number; topK?: number } };
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
  toolConcurrency?: number;
  toolErrors?: 'return' | 'throw';
  toolTimeoutMs?: number;
  /** `require_approval`: tool name → prompt text for the approver (`true`: the default prompt). */
  requireApproval?: Record<string, string | true>;
  /** `guardrails:` as written (built-in scorer references). */
  guardrails?: GuardrailsFileEntry;
  /** `scoring:` as written. */
  scoring?: ScoringFileEntry;
  context?: AgentContextConfig;
  /** Who may reach the agent over HTTP (`corvid serve`): `public` (default), `internal` (a valid token always needed), `private` (404 over HTTP; sub-agent only). */
  visibility?: AgentVisibility;
  /** remote: the A2A agent-card URL, server base URL or JSON-RPC endpoint. */
  url?: string;
  /** remote: HTTP headers sent with every request (`${VAR}`s interpolated). */
  headers?: Record<string, string>;
  /** remote: time allowed for one call, in ms. */
  timeoutMs?: number;
  /** How the agent card advertises the agent (`a2a:`). */
  a2a?: AgentA2AConfig;
}

/** `a2a:` of an agent after normalisation. */
export interface AgentA2AConfig {
  version?: string;
  skills?: Array<{ id: string; name?: string; description?: string; tags?: string[]; examples?: string[] }>;
}

/** Agent `visibility` over HTTP. */
export type AgentVisibility = 'public' | 'internal' | 'private';

/** `server.auth.jwt` after normalisation. */
export interface JwtAuthConfig {
  jwksUrl: string;
  issuer?: string;
  audience?: string | string[];
  /** Default RS256 and ES256. */
  algorithms?: string[];
  /** Claim naming the user. Default `sub`. */
  userClaim?: string;
}

/** `server:` after normalisation (`corvid serve`). Defaults are applied by the server. */
export interface ServerConfig {
  host?: string;
  port?: number;
  baseUrl?: string;
  cors?: { origins: string[] };
  auth?: {
    jwt?: JwtAuthConfig;
    apiKeys?: Array<{ name: string; hash: string; scopes?: string[] }>;
    publicPaths?: string[];
  };
  rateLimit?: { requestsPerMinute?: number; tokensPerHour?: number; by?: 'user' | 'key' | 'ip'; shared?: boolean };
  maxBodyBytes?: number;
  /** File paths as written (relative to the config file). */
  tls?: { cert: string; key: string };
  telemetry?: { otlpEndpoint?: string; serviceName?: string };
  logging?: { level?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
  streams?: { onDisconnect?: 'continue' | 'stop' };
  /** A2A options: hosts push notifications may be delivered to (default loopback only). */
  a2a?: { pushAllowedHosts?: string[] };
  /** Serve the Studio (web UI) at `/studio`. Default true. */
  studio?: boolean;
}

/** When run checkpoints are written (`storage.checkpoints.strategy`). */
export type CheckpointStrategy = 'event' | 'interval' | 'hybrid';

/** `storage.checkpoints:` after normalisation. */
export interface CheckpointConfig {
  /** `event`: before each model call and after each model response with tools; `interval`: those at most every `intervalMs`; `hybrid`: responses always, the rest by interval. Tool results are always checkpointed. Default `event`. */
  strategy: CheckpointStrategy;
  /** Interval for `interval` / `hybrid`. Default 5000 ms. */
  intervalMs: number;
  /** Checkpoints older than this are removed; absent: kept until their run ends. */
  ttlMs?: number;
}

/** `storage:` after normalisation. */
export interface StorageConfig {
  /** Inferred from `url` when the file sets none, else `sqlite`. */
  driver: 'sqlite' | 'postgres' | 'mysql' | 'memory';
  /** Connection URL (postgres / mysql), `${VAR}`s interpolated. */
  url?: string;
  /** SQLite file, relative to the runtime's working directory. Default `./.corvid/corvid.db`. */
  path?: string;
  /** Postgres schema. */
  schema?: string;
  /** Postgres / MySQL pool size. */
  poolSize?: number;
  /** SQLite: how long to wait for another process's lock. */
  busyTimeoutMs?: number;
  /** Name of an entry of `embedders`: memory search is then hybrid (keyword + vector). */
  embedder?: string;
  checkpoints: CheckpointConfig;
  /** `auto`: interrupted runs are resumed at start-up; `manual`: with `corvid runs resume`. Default `manual`. */
  resume: 'manual' | 'auto';
}

/** A resource of `mcp.resources`: fixed `text`, or a `file` (relative to the config file). */
export interface McpResourceConfig {
  uri: string;
  title?: string;
  description?: string;
  mimeType?: string;
  text?: string;
  file?: string;
}

/** A prompt of `mcp.prompts`: `template` with `{argument}` placeholders. */
export interface McpPromptConfig {
  title?: string;
  description?: string;
  arguments: Record<string, { description?: string; required: boolean }>;
  template: string;
}

/** `mcp:` — what is served over MCP besides tools and agents. */
export interface McpContentConfig {
  name?: string;
  instructions?: string;
  resources: Record<string, McpResourceConfig>;
  prompts: Record<string, McpPromptConfig>;
  /** Modules exporting `resources` / `prompts` (builder API), relative to the config file. */
  modules: string[];
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
  /** Tool modules and built-in tool families (`type: files`, …) by id. */
  toolModules: Record<string, ToolEntryConfig>;
  /** MCP servers by id (`mcp_servers`); absent when the file declares none. */
  mcpServers?: Record<string, McpServerConfig>;
  /** `mcp:` — resources and prompts served over MCP; absent when the file has none. */
  mcp?: McpContentConfig;
  /** `embedders:` by name; absent when the file declares none. */
  embedders?: Record<string, EmbedderConfig>;
  /** `knowledge:` by name; absent when the file declares none. */
  knowledge?: Record<string, KnowledgeBaseConfig>;
  /** Named agents, in file order. */
  agents: Record<string, AgentConfig>;
  /** `server:`; absent when the file has none. */
  server?: ServerConfig;
  /** `code:`: settings of `corvid code` (the command prefixes it runs without asking, hooks). */
  code?: CodeConfig;
  /** `storage:`; absent when the file has none (the runtime then uses SQLite at `./.corvid/corvid.db`). */
  storage?: StorageConfig;
  /** `cassette:`; absent when the file has none. */
  cassette?: CassetteConfig;
  /** `queue:`; absent when the file has none (background runs then use the embedded queue). */
  queue?: QueueConfig;
  /** `schedules:` by name; absent when the file has none. */
  schedules?: Record<string, ScheduleConfig>;
}

/** One `schedules:` entry after normalisation. */
export type { ScheduleConfig };

/** `cassette:` after normalisation (see `CassetteOptions` of `openCassette`). */
export interface CassetteConfig {
  path: string;
  mode?: 'live' | 'record' | 'replay' | 'auto';
  liveTools?: boolean | string[];
}

/** `queue:` after normalisation. */
export interface QueueConfig {
  backend: 'embedded' | 'postgres' | 'redis';
  /** postgres (default: the storage url) or redis URL, `${VAR}`s interpolated. */
  url?: string;
  /** Runs one worker executes at once. Default 4. */
  concurrency: number;
  /** redis: the key prefix. Default `corvid`. */
  prefix?: string;
  /** postgres: the schema of the queue's tables. Default `<storage schema>_queue`, else `corvid_queue`. */
  schema?: string;
  /** postgres, redis: seconds before a run whose worker died (went silent) is offered to another worker. Default 30. */
  visibilityTimeoutS?: number;
  /** redis: seconds a finished run's event stream is kept. Default 7 days. */
  eventsTtlS?: number;
}
