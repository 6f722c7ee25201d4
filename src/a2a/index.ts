/**
 * Corvid over A2A: serve agents to other agents (`createA2ARoutes`), call remote A2A agents
 * (`RemoteAgent`). Loads `@a2a-js/sdk` only when imported.
 */
export { createA2ARoutes, type A2ARoutesOptions, type A2AVisibility } from './a2a-routes.js';
export { buildAgentCard, legacyAgentCardJson, agentUrls, type A2ASkill, type AgentCardInput } from './agent-card.js';
export { CorvidAgentExecutor, type CorvidAgentExecutorOptions, type A2ATaskHook, type A2ATaskStart, type A2ARunObserver, type A2ARunStart, type TaskRunStart } from './corvid-agent-executor.js';
export { BusSink, type TaskSink } from './task-sink.js';
export { StoreTaskStore, BoundedMemoryTaskStore } from './store-task-store.js';
export { StorePushNotificationStore } from './store-push-notification-store.js';
export { StoreCancelMarks, type CancelMarks } from './cancel-marks.js';
export { RemoteAgent, type RemoteAgentOptions } from './remote-agent.js';
export { RemoteAgentError } from './remote-agent-error.js';
export { connectA2A, type A2AConnection, type ConnectA2AOptions } from './connect-a2a.js';
export { GuardedPushSender, type GuardedPushSenderOptions, type A2ALogger } from './guarded-push-sender.js';
export { LOOPBACK_HOSTS, pushUrlProblem } from './push-url-policy.js';
export { callerOf } from './call-owner.js';
export { toolArtifact, artifactFromToolOutput, type ToolArtifact, type ToolArtifactPart } from './tool-artifact.js';
