import type { z } from 'zod';

import type { TimelineStep } from '../../durable/run-timeline.js';
import type { Checkpoint, RunRecord } from '../../types/storage/runs.js';
import { emptyUsage } from '../../types/usage.js';
import type { runTimelineSchema } from '../studio/studio-schemas.js';
import type { RunViewStatus } from './run-status.js';

type TimelineView = z.output<typeof runTimelineSchema>;

/** The recorded steps of a checkpoint's state (`RunStateV1.timeline`), if it has them. */
function recordedSteps(state: unknown): TimelineStep[] | undefined {
  const t = (state as { timeline?: unknown } | undefined)?.timeline;
  return Array.isArray(t) ? (t as TimelineStep[]) : undefined;
}

/**
 * A run's timeline from its latest checkpoint: every model step with its start, duration,
 * tokens and tool spans (durations of what is still going are measured up to `now`). Runs stored
 * before timings were recorded have no steps (`recorded: false`).
 */
export function runTimelineView(input: { run: RunRecord; status: RunViewStatus; checkpoint?: Checkpoint; now?: number }): TimelineView {
  const { run, status, checkpoint } = input;
  const now = input.now ?? Date.now();
  const state = checkpoint?.state as { startedAt?: unknown } | undefined;
  const steps = recordedSteps(checkpoint?.state);
  const startedAt = typeof state?.startedAt === 'string' ? state.startedAt : run.createdAt.toISOString();
  const since = (iso: string) => Math.max(0, now - Date.parse(iso));
  const view: TimelineView = {
    runId: run.runId,
    agent: run.agent,
    status,
    startedAt,
    recorded: steps !== undefined,
    steps: (steps ?? []).map((s) => ({
      step: s.step,
      agent: s.agent,
      depth: 0,
      startedAt: s.startedAt,
      durationMs: s.durationMs ?? since(s.startedAt),
      usage: { ...emptyUsage(), ...s.usage },
      tools: s.tools.map((t) => ({
        toolCallId: t.toolCallId,
        toolName: t.toolName,
        startedAt: t.startedAt,
        durationMs: t.durationMs ?? since(t.startedAt),
        status: t.status,
      })),
    })),
  };
  if (status === 'completed' || status === 'failed' || status === 'cancelled') view.endedAt = run.updatedAt.toISOString();
  return view;
}
