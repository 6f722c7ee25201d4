export { EXIT_LOOP_TOOL, exitLoop } from './exit-loop.js';
export { DEFAULT_MAX_ITERATIONS, LoopAgent, type LoopAgentOptions, type LoopConditionContext } from './loop-agent.js';
export { Orchestrator, type OrchestratorOptions, type OrchestratorTask, type TaskInputContext } from './orchestrator.js';
export { ParallelAgent, type ParallelAgentOptions } from './parallel-agent.js';
export { Pipeline, type PipelineOptions, type PipelineStage, type StageContext } from './pipeline.js';
export { type Route, type RouteContext, Router, type RouterClassifier, type RouterOptions } from './router.js';
export { SequentialAgent, type SequentialAgentOptions } from './sequential-agent.js';
export { checkTaskGraph, type TaskGraphIssue } from './task-graph.js';
export { type PartOptions, WorkflowAgent, type WorkflowAgentOptions, type WorkflowOutput, WorkflowRun } from './workflow-agent.js';
