import type { Usage } from '../types/usage.js';

/** How a tool call of a recorded step ended (`running`: not yet; `pending`: waiting for an approval). */
export type TimelineToolStatus = 'running' | 'pending' | 'ok' | 'error';

/** A tool call of a recorded step (`RunStateV1.timeline`). */
export interface TimelineTool {
  toolCallId: string;
  toolName: string;
  /** ISO time the model asked for it. */
  startedAt: string;
  /** Set once it finished. */
  durationMs?: number;
  status: TimelineToolStatus;
}

/** A model step of a durable run as recorded in its checkpoints: when, how long, tokens, tool spans. */
export interface TimelineStep {
  step: number;
  agent: string;
  /** ISO time of the model call. */
  startedAt: string;
  /** Set once the step ended (its tools finished, or the run paused, handed off or ended). */
  durationMs?: number;
  /** The model call's usage. */
  usage?: Usage;
  tools: TimelineTool[];
}

/** Steps kept in a run's state (the oldest are dropped beyond it). */
const MAX_STEPS = 500;

/**
 * The timings of a durable run's steps and tool calls, kept in its checkpoints
 * (`RunStateV1.timeline`) so that a run's timeline can be shown after it ended, in any process.
 */
export class RunTimeline {
  private readonly steps: TimelineStep[];

  constructor(steps: readonly TimelineStep[] = []) {
    this.steps = steps.map((s) => ({ ...s, tools: s.tools.map((t) => ({ ...t })) }));
  }

  /** A model call of `agent`'s step `step` begins (the previous step ends). */
  stepStarted(step: number, agent: string): void {
    this.end();
    this.steps.push({ step, agent, startedAt: new Date().toISOString(), tools: [] });
    if (this.steps.length > MAX_STEPS) this.steps.splice(0, this.steps.length - MAX_STEPS);
  }

  /** The model answered, asking for `calls` (again for a resumed step: its usage and calls are kept). */
  responded(usage: Usage, calls: ReadonlyArray<{ toolCallId: string; toolName: string }>): void {
    const current = this.steps.at(-1);
    if (current === undefined) return;
    current.usage ??= { ...usage };
    const now = new Date().toISOString();
    for (const c of calls) {
      if (!current.tools.some((t) => t.toolCallId === c.toolCallId))
        current.tools.push({ toolCallId: c.toolCallId, toolName: c.toolName, startedAt: now, status: 'running' });
    }
  }

  /** A tool call finished. */
  toolDone(toolCallId: string, isError: boolean): void {
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const t = this.steps[i]!.tools.find((x) => x.toolCallId === toolCallId);
      if (t === undefined) continue;
      t.status = isError ? 'error' : 'ok';
      t.durationMs = Math.max(0, Date.now() - Date.parse(t.startedAt));
      return;
    }
  }

  /** The run pauses: calls still running wait for approvals. */
  paused(): void {
    for (const t of this.steps.at(-1)?.tools ?? []) if (t.status === 'running') t.status = 'pending';
    this.end();
  }

  /** The current step ends (a handoff, the run's end). */
  end(): void {
    const current = this.steps.at(-1);
    if (current !== undefined && current.durationMs === undefined)
      current.durationMs = Math.max(0, Date.now() - Date.parse(current.startedAt));
  }

  /** A copy for a checkpoint. */
  snapshot(): TimelineStep[] {
    return this.steps.map((s) => ({ ...s, tools: s.tools.map((t) => ({ ...t })) }));
  }
}
