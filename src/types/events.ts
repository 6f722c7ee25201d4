import type { GuardrailMode, GuardrailStage } from './guardrail.js';
import type { ChunkLocation } from './knowledge.js';
import type { FinishReason, InputRequest } from './result.js';
import type { Usage } from './usage.js';

/** Fields every event carries. */
export interface EventBase {
  /** The run that produced the event; nested agent runs have their own id. */
  runId: string;
  /** Name of the agent that produced the event. */
  agent: string;
  /** Agent path from the top-level run, e.g. `['coordinator', 'researcher']`. */
  path: readonly string[];
}

/** A serialisable error, as carried by `error` events. */
export interface EventError {
  name: string;
  code: string;
  message: string;
}

/** The kind of workflow agent that emitted a `task_start` / `task_end`. */
export type WorkflowKind = 'sequential' | 'parallel' | 'loop' | 'orchestrator' | 'pipeline' | 'router';

/** How a workflow part ended. `skipped`: never started (a dependency failed, or the run stopped first). */
export type TaskStatus = 'completed' | 'failed' | 'aborted' | 'skipped';

/** One passage found by a retrieval, as a `retrieval` event reports it. */
export interface RetrievalHit {
  /** How to cite it: `path/file.md:12-30`, `URL#Heading`, `file.pdf p.3`. */
  citation: string;
  location: ChunkLocation;
  /** Higher is better: BM25, cosine, RRF or a reranker's score, depending on the search. */
  score: number;
  /** The start of the passage's text (about 200 characters, on one line). */
  excerpt: string;
}

/** Milliseconds spent in the parts of a retrieval; a part that did not run is absent. */
export interface RetrievalTimings {
  /** Query rewriting by a chat model (`rewrite`). */
  rewriteMs?: number;
  /** Embedding the query (or queries). */
  embedMs?: number;
  /** The store's keyword / vector searches and their fusion. */
  searchMs: number;
  /** Reranking the candidates (`rerank`). */
  rerankMs?: number;
  totalMs: number;
}

/**
 * Everything a run reports, in order. For a top-level run:
 * `run_start`, then per step `step_start`, deltas, `tool_call`s, `tool_result`s, `step_end`;
 * then `answer` (success) or `error`; always `run_end` last. A durable run that needs a human's
 * approval emits `approval_required` (one per call) and ends with `run_end` status `paused`;
 * `agent.resume()` continues it with `run_start` (`resumed: true`) and the same `runId`.
 * A run whose model called `ask_user` ends its turn after that step: `answer` carries the
 * question, and `run_end` (status `completed`) carries it under `needsInput`.
 * Nested agent runs (agent tools, handoff targets, workflow parts) emit the same events with a
 * longer `path`, but no `answer`: only the top-level run reports the final answer.
 * Workflow agents emit `task_start` / `task_end` around each part they run, routers a `route`,
 * and an agent handing the conversation over a `handoff`. A `warning` reports what a provider
 * ignored or changed in a request (an unsupported setting), once per distinct warning per run.
 * A `retrieval` reports a search of a knowledge base: by a search tool (`via: 'tool'`, between
 * its `tool_call` and `tool_result`) or for the instructions before a turn's first model call
 * (`via: 'inject'`, before the first `step_start`).
 * A `guardrail` reports each check of an agent's guardrails (input, tool call, output), before
 * `run_end`; a blocking one that fails is followed by `error` (`guardrail_tripped`).
 */
export type AgentEvent =
  | (EventBase & {
      type: 'run_start';
      input: string;
      /** Set when a durable run continues from its last checkpoint (`agent.resume()`): same `runId`, events continue. */
      resumed?: boolean;
    })
  | (EventBase & { type: 'step_start'; step: number; maxSteps: number })
  | (EventBase & { type: 'text_delta'; step: number; delta: string })
  | (EventBase & { type: 'reasoning_delta'; step: number; delta: string })
  | (EventBase & { type: 'tool_call'; step: number; toolCallId: string; toolName: string; input: unknown })
  | (EventBase & {
      type: 'tool_result';
      step: number;
      toolCallId: string;
      toolName: string;
      output: unknown;
      isError: boolean;
      durationMs: number;
    })
  | (EventBase & { type: 'step_end'; step: number; text: string; reasoning: string; finishReason: FinishReason; usage: Usage })
  | (EventBase & { type: 'retry'; step: number; attempt: number; delayMs: number; error: EventError })
  | (EventBase & {
      type: 'warning';
      step: number;
      /** The model the warning is about, as `provider:model`. */
      model: string;
      /** `unsupported`: a setting the model does not support was left out; `compatibility`: a feature runs in a compatibility mode; `other`. */
      kind: 'unsupported' | 'compatibility' | 'other';
      /** The setting or feature concerned (`temperature`, `reasoningEffort` …), when there is one. */
      feature?: string;
      /** What happened, e.g. `temperature is not supported for reasoning models`. */
      message: string;
    })
  | (EventBase & {
      type: 'context_compacted';
      /** What was done: `window` also when a `summarize` budget's summary model failed (see `summaryError`). */
      strategy: 'window' | 'summarize';
      removedMessages: number;
      tokensBefore: number;
      tokensAfter: number;
      /** Why the summary model failed, when the turns were dropped instead of summarised. */
      summaryError?: string;
    })
  | (EventBase & { type: 'handoff'; from: string; to: string; toolCallId: string })
  | (EventBase & {
      type: 'task_start';
      workflow: WorkflowKind;
      /** Task id (orchestrator), stage name (pipeline), route name (router), else the sub-agent's name. */
      task: string;
      /** The agent that runs it. */
      target: string;
      /** Loop agents: the iteration, from 1. */
      iteration?: number;
      /** Orchestrator tasks: the tasks whose results it receives. */
      dependsOn?: readonly string[];
    })
  | (EventBase & {
      type: 'task_end';
      workflow: WorkflowKind;
      task: string;
      target: string;
      status: TaskStatus;
      durationMs: number;
      iteration?: number;
      error?: EventError;
    })
  | (EventBase & {
      type: 'route';
      /** The route chosen. */
      route: string;
      target: string;
      matchedBy: 'keyword' | 'pattern' | 'predicate' | 'classifier' | 'default';
    })
  | (EventBase & {
      type: 'mcp_notification';
      /** Id of the MCP server (from `mcp_servers`) that sent it. */
      server: string;
      /** `progress` of a running tool call, or a `log` message of the server. */
      kind: 'progress' | 'log';
      /** The tool call it belongs to (progress; logs that arrive while a call of the server runs). */
      toolCallId?: string;
      toolName?: string;
      progress?: number;
      total?: number;
      /** Progress message, or the log message as text. */
      message?: string;
      /** Log level (`debug` … `emergency`). */
      level?: string;
      logger?: string;
    })
  | (EventBase & {
      type: 'retrieval';
      /** `tool`: a search tool the model called; `inject`: passages put into the instructions for the turn. */
      via: 'tool' | 'inject';
      /** The search tool call (`via: 'tool'`). */
      toolCallId?: string;
      /** The knowledge base searched. */
      knowledge: string;
      query: string;
      /** `keyword`, `vector` or `hybrid`. */
      mode: string;
      /** What was found, best first (for `inject`: the passages that fit the budget). */
      hits: RetrievalHit[];
      timings: RetrievalTimings;
    })
  | (EventBase & {
      type: 'approval_required';
      /** Id of the stored approval: answer it with `store.approvals.answer(id, …)`, then `agent.resume(runId)`. */
      approvalId: string;
      toolCallId: string;
      toolName: string;
      input: unknown;
      /** Text for the approver (the tool's `requireApproval` prompt, placeholders filled). */
      prompt: string;
    })
  | (EventBase & {
      type: 'guardrail';
      /** `input`: before the turn's first model call; `tool_call`: before a tool runs; `output`: on the final answer. */
      stage: GuardrailStage;
      /** The guardrail's scorer name. */
      guardrail: string;
      /** `block`: a failure stops the run (an `error` with code `guardrail_tripped` follows); `check`: reported only. */
      mode: GuardrailMode;
      passed: boolean;
      score: number;
      reason?: string;
      /** Tool-call guardrails: the call checked. */
      toolCallId?: string;
      toolName?: string;
    })
  | (EventBase & { type: 'answer'; text: string })
  | (EventBase & { type: 'error'; error: EventError })
  | (EventBase & {
      type: 'run_end';
      /** `paused`: the run waits for approvals (after `approval_required` events) and resumes later. */
      status: 'completed' | 'failed' | 'aborted' | 'paused';
      steps: number;
      usage: Usage;
      durationMs: number;
      /** Set when the turn ended with a question for the user (`ask_user`); the status is `completed`. */
      needsInput?: InputRequest;
    });

/** The `type` of every event. */
export type AgentEventType = AgentEvent['type'];

/** Every event type, in documentation order. */
export const AGENT_EVENT_TYPES: readonly AgentEventType[] = [
  'run_start',
  'step_start',
  'text_delta',
  'reasoning_delta',
  'tool_call',
  'tool_result',
  'step_end',
  'retry',
  'warning',
  'context_compacted',
  'handoff',
  'task_start',
  'task_end',
  'route',
  'mcp_notification',
  'retrieval',
  'approval_required',
  'guardrail',
  'answer',
  'error',
  'run_end',
];

/** Narrows an event to one type. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Receives events as they happen. */
export type EventSink = (event: AgentEvent) => void;

/** Helper for exhaustive switches over event types. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
