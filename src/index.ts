/**
 * Corvid — agents that loop over a model and typed tools, on any provider, with one event stream.
 * Heavy subsystems (provider packages, config loading, the CLI) load lazily.
 */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import './models/install-model-resolver.js';
import './durable/install-durable-runner.js';
export { RemoteAgent, type RemoteAgentOptions } from './a2a/client/remote-agent.js';
export { RemoteAgentError } from './a2a/client/remote-agent-error.js';
export { type ToolArtifact, toolArtifact, type ToolArtifactPart } from './a2a/tool-artifact.js';
export * from './agents/index.js';
export { Agent, type AgentOptions, type ContextOptions, type HandoffTarget, type InstructionsContext } from './core/agent.js';
export type { AgentToolOptions } from './core/agent-tool.js';
export { agentToolName } from './core/agent-tool.js';
export type { QuestionTool } from './core/asks-user.js';
export { estimateTokens } from './core/context-budget.js';
export { Conversation, type ConversationOptions } from './core/conversation.js';
export { transferToolName } from './core/handoff.js';
export type { RunOptions } from './core/run-options.js';
export type { RunStream } from './core/run-stream.js';
export { DEFAULT_MAX_DEPTH, type RunLimits } from './core/run-tree.js';
export { type AgentKind, findAgent, type Runnable } from './core/runnable.js';
export { tool, type ToolDefinition, toolSpec } from './core/tool.js';
export { isUserScoped, USER_SCOPED, userScoped } from './core/user-scoped.js';
export type { ResumeOptions } from './durable/resume-run.js';
export type { CompletedCall, InFlightStep, RunStateV1 } from './durable/run-state-v1.js';
export { agentForRun, interruptedRuns, type RunsRuntime } from './durable/runtime-runs.js';
export * from './errors/index.js';
export { Cassette, type CassetteMode, cassetteModeFromEnv, type CassetteOptions, openCassette } from './models/cassette/cassette.js';
export type { CassetteEntry, CassetteFileV1, RecordedResponse } from './models/cassette/cassette-file.js';
export { withCassette } from './models/cassette/with-cassette.js';
export { detectDefaultModel } from './models/default-model.js';
export { parseToolCallsFromText, type ToolCallTextOptions } from './models/json-tool-calls.js';
export { jsonToolModel } from './models/json-tool-model.js';
export { parseModelId } from './models/parse-model-id.js';
export { isLanguageModel, resolveModel } from './models/resolve-model.js';
export type { ResolvedModel } from './models/resolved-model.js';
export { ASK_USER_TOOL, askUser, type AskUserArgs, askUserTool, type AskUserToolOptions } from './tools/ask-user.js';
export {
  builtinTools,
  createMemoryTools,
  getMemories,
  type GetMemoriesOutput,
  MEMORY_TOOL_NAMES,
  type MemoryToolOptions,
  memoryTools,
  type MemoryView,
  saveMemory,
  type SaveMemoryOutput,
  searchConversations,
  type SearchConversationsOutput,
  searchMemories,
  type SearchMemoriesOutput,
} from './tools/memory/index.js';
export type * from './types/context-provider.js';
export type {
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  CheckpointOptions,
  SessionRef,
  StoreSource,
} from './types/durable-options.js';
export * from './types/events.js';
export type * from './types/guardrail.js';
export * from './types/message.js';
export type * from './types/model.js';
export type * from './types/result.js';
export { KeyValueState, RunState, type RunStateInit } from './types/run-state.js';
export type { RunSubmitter, SubmitOptions } from './types/run-submission.js';
export type * from './types/scorer.js';
export type * from './types/tool.js';
export { addUsage, emptyUsage, type Usage } from './types/usage.js';
