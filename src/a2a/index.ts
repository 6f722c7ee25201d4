/**
 * Corvid over A2A: serve agents to other agents (`createA2ARoutes`), call remote A2A agents
 * (`RemoteAgent`). Loads `@a2a-js/sdk` only when imported.
 */
export { type A2AConnection, connectA2A, type ConnectA2AOptions } from './client/connect-a2a.js';
export { RemoteAgent, type RemoteAgentOptions } from './client/remote-agent.js';
export { RemoteAgentError } from './client/remote-agent-error.js';
export { type A2ARoutesOptions, type A2AVisibility, createA2ARoutes } from './server/a2a-routes.js';
export type { A2ARuntime } from './server/a2a-runtime.js';
export { type A2ASkill, type AgentCardInput, agentUrls, buildAgentCard, legacyAgentCardJson } from './server/agent-card.js';
export { callerOf } from './server/call-owner.js';
export {
  type A2ARunObserver,
  type A2ARunStart,
  type A2ATaskHook,
  type A2ATaskStart,
  CorvidAgentExecutor,
  type CorvidAgentExecutorOptions,
  type TaskRunStart,
} from './server/execution/corvid-agent-executor.js';
export { BusSink, type TaskSink } from './server/execution/task-sink.js';
export { type A2ALogger, GuardedPushSender, type GuardedPushSenderOptions } from './server/push/guarded-push-sender.js';
export { LOOPBACK_HOSTS, pushUrlProblem } from './server/push/push-url-policy.js';
export { StorePushNotificationStore } from './server/push/store-push-notification-store.js';
export { type CancelMarks, StoreCancelMarks } from './server/store/cancel-marks.js';
export { BoundedMemoryTaskStore, StoreTaskStore } from './server/store/store-task-store.js';
export { artifactFromToolOutput, type ToolArtifact, toolArtifact, type ToolArtifactPart } from './tool-artifact.js';
