/** The JSON shapes of the API answers the Studio reads (see docs/server.md and the OpenAPI document). */
import type { AgentEvent, Usage } from './event-tree.js';

export interface WhoAmI {
  authenticated: boolean;
  authRequired: boolean;
  subject?: string;
  scopes?: string[];
}

export type AgentKind = 'llm' | 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router' | 'remote';

export interface AgentInfo {
  name: string;
  description?: string;
  kind: AgentKind;
  visibility: 'public' | 'internal' | 'private';
  default: boolean;
}

export interface AgentTool {
  name: string;
  description?: string;
  source: 'builtin' | 'module' | 'mcp' | 'agent' | 'knowledge' | 'code';
  needsApproval?: boolean;
}

export interface AgentStructure {
  handoffs?: string[];
  subAgents?: string[];
  /** Agents it calls as tools (`ask_<agent>`). */
  agentTools?: string[];
  tasks?: Array<{ name: string; agent: string; dependsOn: string[] }>;
}

export interface AgentDetail extends AgentInfo {
  model?: string;
  /** The system prompt, when the server shows it to this caller. */
  instructions?: string;
  tools?: AgentTool[];
  structure?: AgentStructure;
}

export interface SessionSummary {
  id: string;
  agent: string;
  activeAgent?: string;
  userId?: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** The start of its first user message. */
  preview?: string;
}

export interface MessagePart {
  type: string;
  text?: string;
  toolName?: string;
  toolCallId?: string;
  input?: unknown;
  output?: unknown;
}

export interface SessionMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | MessagePart[];
  agent?: string;
  /** The run that wrote the message (stored sessions). */
  runId?: string;
  /** The partial answer of a run that was stopped. */
  interrupted?: boolean;
}

export interface SessionDetail extends SessionSummary {
  usage: Usage;
  messages: SessionMessage[];
}

export interface PendingApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input?: unknown;
  prompt: string;
}

export interface Approval extends PendingApproval {
  runId: string;
  sessionId?: string;
  status: 'pending' | 'approved' | 'denied';
  reason?: string;
  createdAt: string;
  answeredAt?: string;
}

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** The status of a run of the trace and events views: a background run's (`queued`) or a stored run's. */
export type RunViewStatus = RunStatus | 'queued';

export interface RunInfo {
  runId: string;
  sessionId?: string;
  agent: string;
  status: RunStatus;
  /** The start of the run's input. */
  input?: string;
  checkpoints: number;
  createdAt: string;
  updatedAt: string;
  pendingApprovals?: PendingApproval[];
}

export interface TimelineTool {
  toolCallId: string;
  toolName: string;
  startedAt: string;
  /** Up to now for a tool still running or waiting for an approval. */
  durationMs: number;
  status: 'running' | 'pending' | 'ok' | 'error';
}

export interface TimelineStep {
  step: number;
  agent: string;
  depth: number;
  startedAt: string;
  durationMs: number;
  usage: Usage;
  tools: TimelineTool[];
}

export interface RunTimeline {
  runId: string;
  agent: string;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  /** False for runs stored before step timings were recorded (`steps` is empty). */
  recorded: boolean;
  steps: TimelineStep[];
}

/** A memory; `id` is its key, unique per user and agent. */
export interface Memory {
  id: string;
  userId?: string;
  agent: string;
  text: string;
  category?: string;
  importance: number;
  /** Relevance, on search hits. */
  score?: number;
  tags?: string[];
  createdAt: string;
  updatedAt: string;
}

export interface KnowledgeBase {
  name: string;
  sources: Array<{ type: string; [key: string]: unknown }>;
  embedder?: string;
  stats: { documents: number; chunks: number; dimensions?: number; model?: string; updatedAt?: string };
  /** False until the first `corvid ingest`. */
  indexed: boolean;
}

/** Where a chunk is in its document. */
export interface ChunkLocation {
  uri?: string;
  /** First and last line, 1-based. */
  lines?: [number, number];
  /** Heading path, outermost first. */
  headings?: string[];
  page?: number;
}

export interface KnowledgeHit {
  score: number;
  source: string;
  location: ChunkLocation;
  text: string;
  citation: string;
}

export interface KnowledgeSearchResult {
  hits: KnowledgeHit[];
  timings: { totalMs: number };
}

export interface McpTool {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

export interface McpCallResult {
  content: Array<{ type: string; text?: string; [key: string]: unknown }>;
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export interface McpServer {
  name: string;
  transport: string;
  status: 'connected' | 'error' | 'idle';
  error?: string;
  tools: McpTool[];
}

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  default?: unknown;
}

/** A model of the server's config (`GET /api/v1/models`). */
export interface ConfiguredModel {
  name: string;
  provider: string;
  model: string;
}

export type TraceSpanKind = 'agent' | 'step' | 'model' | 'tool' | 'task';

/** One span of a run's trace. */
export interface TraceSpan {
  id: string;
  parentId?: string;
  kind: TraceSpanKind;
  name: string;
  agent: string;
  depth: number;
  startedAt: string;
  durationMs: number;
  status: 'ok' | 'error' | 'running' | 'pending';
  input?: unknown;
  output?: unknown;
  usage?: Usage;
  model?: string;
  costUsd?: number;
}

/** `GET /api/v1/runs/{id}/trace`. */
export interface RunTrace {
  runId: string;
  agent: string;
  status: RunViewStatus;
  source: 'events' | 'checkpoints';
  startedAt: string;
  durationMs: number;
  usage: Usage;
  costUsd?: number;
  spans: TraceSpan[];
}

/** `GET /api/v1/runs/{id}/events`. */
export interface RunEvents {
  runId: string;
  agent: string;
  status: RunViewStatus;
  source: 'events' | 'checkpoints';
  events: Array<{ seq: number; at: string; type: string; data: AgentEvent }>;
  nextAfter?: number;
}

/** A completed chat turn (`POST /api/v1/agents/{name}/chat`, JSON). */
export interface ChatAnswer {
  status: string;
  answer: string;
  sessionId: string;
  runId?: string;
  agent: string;
  usage: Usage;
  steps: number;
  durationMs: number;
}

/** A scorer's gate over an eval run. */
export interface EvalGate {
  scorer: string;
  threshold: number;
  mean: number;
  allK: boolean;
  casesPassingAllK: number;
  pass: boolean;
}

/** A saved eval run in `GET /api/v1/evals`. */
export interface EvalRunSummary {
  id: string;
  suite: string;
  agent: string;
  startedAt: string;
  durationMs: number;
  k: number;
  cases: number;
  pass: boolean;
  gates: EvalGate[];
}

/** One case of an eval run: per run its answer or error, per scorer its verdicts. */
export interface EvalCaseResult {
  id: string;
  input: string;
  outputs: string[];
  errors: Array<string | null>;
  scores: Array<{ scorer: string; runs: Array<{ score: number; pass: boolean; reason?: string }>; mean: number; passes: number }>;
}

/** How a case's mean score for a scorer moved since the previous run. */
export interface EvalChange {
  case: string;
  scorer: string;
  before?: number;
  after?: number;
  change: 'improved' | 'regressed' | 'unchanged' | 'new' | 'removed';
}

/** `GET /api/v1/evals/{id}`. */
export interface EvalRunDetail {
  id: string;
  results: Omit<EvalRunSummary, 'id' | 'cases'> & { cases: EvalCaseResult[] };
  previous?: { id: string; startedAt: string };
  changes?: EvalChange[];
}
