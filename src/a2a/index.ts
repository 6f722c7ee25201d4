/**
 * Corvid over A2A: serve agents to other agents (`createA2ARoutes`), call remote A2A agents
 * (`RemoteAgent`). Loads `@a2a-js/sdk` only when imported.
 */
export { createA2ARoutes, type A2ARoutesOptions, type A2AVisibility } from './server/a2a-routes.js';
export type { A2ARuntime } from './server/a2a-runtime.js';
export { buildAgentCard, legacyAgentCardJson, agentUrls, type A2ASkill, type AgentCardInput } from './server/agent-card.js';
export { CorvidAgentExecutor, type CorvidAgentExecutorOptions, type A2ATaskHook, type A2ATaskStart, type A2ARunObserver, type A2ARunStart, type TaskRunStart } from './server/execution/corvid-agent-executor.js';
export { BusSink, type TaskSink } from './server/execution/task-sink.js';
export { StoreTaskStore, BoundedMemoryTaskStore } from './server/store/store-task-store.js';
export { StorePushNotificationStore } from './server/push/store-push-notification-store.js';
export { StoreCancelMarks, type CancelMarks } from './server/store/cancel-marks.js';
export { RemoteAgent, type RemoteAgentOptions } from './client/remote-agent.js';
export { RemoteAgentError } from './client/remote-agent-error.js';
export { connectA2A, type A2AConnection, type ConnectA2AOptions } from './client/connect-a2a.js';
export { GuardedPushSender, type GuardedPushSenderOptions, type A2ALogger } from './server/push/guarded-push-sender.js';
export { LOOPBACK_HOSTS, pushUrlProblem } from './server/push/push-url-policy.js';
export { callerOf } from './server/call-owner.js';
export { toolArtifact, artifactFromToolOutput, type ToolArtifact, type ToolArtifactPart } from './tool-artifact.js';
