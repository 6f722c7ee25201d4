import type { TimelineStep } from '../../durable/run-timeline.js';
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/message.js';
import type { Approval, RunStatus } from '../../types/storage/runs.js';
import { addUsage, emptyUsage } from '../../types/usage.js';
import type { TimedEvent } from './run-trace.js';

/** What a run's checkpoints and session say about it (see `eventsFromCheckpoint`). */
export interface CheckpointRun {
  runId: string;
  /** The agent the run started on. */
  agent: string;
  status: RunStatus;
  input: string;
  startedAt: string;
  /** When the run was last written (its end, when it ended). */
  updatedAt: Date;
  /** `RunStateV1.timeline`. */
  steps: readonly TimelineStep[];
  /** The run's messages, oldest first (its session entries, or the checkpoint's own messages). */
  messages: readonly Message[];
  approvals?: readonly Approval[];
}

const partsOf = (m: Message) => (typeof m.content === 'string' ? [] : m.content);

/** A tool result as the model saw it: the value of `{type: 'text' | 'json', value}`. */
function resultValue(output: unknown): unknown {
  const o = output as { type?: string; value?: unknown } | undefined;
  return o && typeof o === 'object' && 'value' in o ? o.value : output;
}

/**
 * The events of a run rebuilt from what its checkpoints record (step and tool timings, tokens)
 * and its messages (text, tool arguments and results), for runs whose events were not logged
 * (chat turns): the same shapes as live events, without deltas and nested agents' inner steps.
 */
export function eventsFromCheckpoint(run: CheckpointRun): TimedEvent[] {
  const out: TimedEvent[] = [];
  const push = (at: number | string | Date, event: AgentEvent) => out.push({ seq: out.length + 1, at: new Date(at), event });
  const base = (agent: string) => ({ runId: run.runId, agent, path: agent === run.agent ? [run.agent] : [run.agent, agent] });
  const assistants = run.messages.filter((m) => m.role === 'assistant');
  const results = new Map<string, unknown>();
  for (const m of run.messages)
    if (m.role === 'tool') for (const p of partsOf(m)) if (p.type === 'tool-result') results.set(p.toolCallId, resultValue(p.output));
  push(run.startedAt, { ...base(run.agent), type: 'run_start', input: run.input });
  const usage = emptyUsage();
  let lastText = '';
  run.steps.forEach((step, i) => {
    const b = base(step.agent);
    const start = Date.parse(step.startedAt);
    push(start, { ...b, type: 'step_start', step: step.step, maxSteps: 0 });
    const message = assistants[i];
    const parts = message ? partsOf(message) : [];
    const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const reasoning = parts.map((p) => (p.type === 'reasoning' ? p.text : '')).join('');
    for (const t of step.tools) {
      const call = parts.find((p) => p.type === 'tool-call' && p.toolCallId === t.toolCallId);
      const input = call?.type === 'tool-call' ? call.input : undefined;
      push(t.startedAt, { ...b, type: 'tool_call', step: step.step, toolCallId: t.toolCallId, toolName: t.toolName, input });
    }
    for (const t of step.tools) {
      if (t.status === 'pending') {
        const a = run.approvals?.find((x) => x.toolCallId === t.toolCallId);
        const approval = {
          approvalId: a?.id ?? '',
          toolCallId: t.toolCallId,
          toolName: t.toolName,
          input: a?.args,
          prompt: a?.prompt ?? '',
        };
        push(t.startedAt, { ...b, type: 'approval_required', ...approval });
      } else if (t.status !== 'running' && t.durationMs !== undefined) {
        const result = { toolCallId: t.toolCallId, toolName: t.toolName, output: results.get(t.toolCallId), isError: t.status === 'error' };
        push(Date.parse(t.startedAt) + t.durationMs, { ...b, type: 'tool_result', step: step.step, ...result, durationMs: t.durationMs });
      }
    }
    if (step.durationMs === undefined || step.tools.some((t) => t.status === 'pending')) return;
    const stepUsage = { ...emptyUsage(), ...step.usage };
    addUsage(usage, stepUsage);
    if (text) lastText = text;
    const finishReason = step.tools.length > 0 ? 'tool-calls' : 'stop';
    push(start + step.durationMs, { ...b, type: 'step_end', step: step.step, text, reasoning, finishReason, usage: stepUsage });
  });
  const end = run.updatedAt.getTime();
  const durationMs = Math.max(0, end - Date.parse(run.startedAt));
  const b = base(run.agent);
  const steps = run.steps.length;
  if (run.status === 'completed') {
    push(end, { ...b, type: 'answer', text: lastText });
    push(end, { ...b, type: 'run_end', status: 'completed', steps, usage, durationMs });
  } else if (run.status === 'failed') {
    push(end, {
      ...b,
      type: 'error',
      error: { name: 'RunFailed', code: 'run_failed', message: 'The run failed (its checkpoints keep no error)' },
    });
    push(end, { ...b, type: 'run_end', status: 'failed', steps, usage, durationMs });
  } else if (run.status === 'paused') {
    push(end, { ...b, type: 'run_end', status: 'paused', steps, usage, durationMs });
  }
  return out;
}
