/**
 * Corvid — agents that loop over a model and typed tools, on any provider, with one event stream.
 * Heavy subsystems (provider packages, config loading, the CLI) load lazily.
 */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import './models/install-model-resolver.js';
import './durable/install-durable-runner.js';
export { Agent, type AgentOptions, type ContextOptions, type InstructionsContext, type HandoffTarget } from './core/agent.js';
export { Conversation, type ConversationOptions } from './core/conversation.js';
export { findAgent, type Runnable, type AgentKind } from './core/runnable.js';
export { RunState, KeyValueState, type RunStateInit } from './core/run-state.js';
export { DEFAULT_MAX_DEPTH, type RunLimits } from './core/run-tree.js';
export { transferToolName } from './core/handoff.js';
export { agentToolName } from './core/agent-tool.js';
export * from './agents/index.js';
export { RemoteAgent, type RemoteAgentOptions } from './a2a/client/remote-agent.js';
export { RemoteAgentError } from './a2a/client/remote-agent-error.js';
export { toolArtifact, type ToolArtifact, type ToolArtifactPart } from './a2a/tool-artifact.js';
export { tool, toolSpec, type ToolDefinition } from './core/tool.js';
export {
  memoryTools,
  builtinTools,
  createMemoryTools,
  type MemoryToolOptions,
  saveMemory,
  getMemories,
  searchMemories,
  searchConversations,
  MEMORY_TOOL_NAMES,
  type MemoryView,
  type SaveMemoryOutput,
  type GetMemoriesOutput,
  type SearchMemoriesOutput,
  type SearchConversationsOutput,
} from './tools/index.js';
export { askUserTool, askUser, ASK_USER_TOOL, type AskUserArgs, type AskUserToolOptions } from './tools/ask-user.js';
export type { QuestionTool } from './core/asks-user.js';
export type { AgentToolOptions } from './core/agent-tool.js';
export type { RunOptions } from './core/run-options.js';
export type { RunStream } from './core/run-stream.js';
export type { SessionRef, StoreSource, CheckpointOptions, ApprovalRequest, ApprovalDecision, ApprovalHandler } from './durable/durable-types.js';
export type { ResumeOptions } from './durable/resume-run.js';
export { agentForRun, interruptedRuns, type RunsRuntime } from './durable/runtime-runs.js';
export type { RunStateV1, InFlightStep, CompletedCall } from './durable/run-state-v1.js';
export { estimateTokens } from './core/context-budget.js';
export { resolveModel, isLanguageModel } from './models/resolve-model.js';
export { parseModelId } from './models/parse-model-id.js';
export { detectDefaultModel } from './models/default-model.js';
export type { ResolvedModel } from './models/resolved-model.js';
export * from './errors/index.js';
export * from './types/events.js';
export * from './types/message.js';
export type * from './types/model.js';
export type * from './types/result.js';
export type * from './types/tool.js';
export { emptyUsage, addUsage, type Usage } from './types/usage.js';
export { jsonToolModel } from './models/json-tool-model.js';
export { parseToolCallsFromText, type ToolCallTextOptions } from './models/json-tool-calls.js';
