export { WorkflowAgent, WorkflowRun, type WorkflowAgentOptions, type WorkflowOutput, type PartOptions } from './workflow-agent.js';
export { SequentialAgent, type SequentialAgentOptions } from './sequential-agent.js';
export { ParallelAgent, type ParallelAgentOptions } from './parallel-agent.js';
export { LoopAgent, DEFAULT_MAX_ITERATIONS, type LoopAgentOptions, type LoopConditionContext } from './loop-agent.js';
export { exitLoop, EXIT_LOOP_TOOL } from './exit-loop.js';
export { Orchestrator, type OrchestratorOptions, type OrchestratorTask, type TaskInputContext } from './orchestrator.js';
export { Pipeline, type PipelineOptions, type PipelineStage, type StageContext } from './pipeline.js';
export { Router, type RouterOptions, type Route, type RouteContext, type RouterClassifier } from './router.js';
export { checkTaskGraph, type TaskGraphIssue } from './task-graph.js';
