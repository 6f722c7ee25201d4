import type { EventSink } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { PendingApproval, RunResult, StepResult } from '../types/result.js';
import type { Usage } from '../types/usage.js';
import type { ParentLink } from './run-options.js';

/** What `pausedResult` needs of the loop that paused. */
export interface PausedRun {
  name: string;
  history: Message[];
  parent: ParentLink | undefined;
  runId: string;
  sink: EventSink | undefined;
  path: readonly string[];
  started: number;
  steps: StepResult[];
  usage: Usage;
  byAgent: Record<string, Usage>;
  historyLength: number;
  paused: PendingApproval[];
  activeAgent: string | undefined;
}

/** The result (and closing `run_end`) of a run that stopped to wait for approvals. */
export function pausedResult(r: PausedRun): RunResult {
  if (r.sink)
    r.sink({
      runId: r.runId,
      agent: r.name,
      path: r.path,
      type: 'run_end',
      status: 'paused',
      steps: r.steps.length,
      usage: r.usage,
      durationMs: performance.now() - r.started,
    });
  if (r.parent?.reportUsage) r.parent.reportUsage(r.usage, r.byAgent);
  const result: RunResult = {
    runId: r.runId,
    agent: r.name,
    text: '',
    steps: r.steps,
    usage: r.usage,
    usageByAgent: r.byAgent,
    messages: r.history.slice(r.historyLength),
    finishReason: 'tool-calls',
    durationMs: performance.now() - r.started,
    status: 'paused',
    pendingApprovals: r.paused,
  };
  if (r.activeAgent !== undefined) result.activeAgent = r.activeAgent;
  return result;
}
