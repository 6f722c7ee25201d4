/** A run's timeline as a waterfall: one bar per step (indented by agent depth), tool spans inside it. */
import type { RunTimeline } from './api-types.js';
import { formatMs } from './event-tree.js';
import { UsageText } from './ui.js';

/** Start and length of a span as percentages of the run. */
export function spanPercent(runStart: number, runMs: number, startedAt: string, durationMs: number): { left: number; width: number } {
  const total = Math.max(runMs, 1);
  const left = Math.min(100, Math.max(0, ((Date.parse(startedAt) - runStart) / total) * 100));
  const width = Math.max(0.5, Math.min(100 - left, (durationMs / total) * 100));
  return { left, width };
}

export function RunTimelineView({ timeline }: { timeline: RunTimeline }) {
  const start = Date.parse(timeline.startedAt);
  const ends = timeline.steps.map((s) => Date.parse(s.startedAt) + s.durationMs);
  const end = timeline.endedAt ? Date.parse(timeline.endedAt) : Math.max(start, ...ends);
  const total = end - start;
  if (timeline.recorded === false) return <p class="muted">This run was stored before step timings were recorded.</p>;
  if (timeline.steps.length === 0) return <p class="muted">No steps recorded for this run.</p>;
  return (
    <div class="waterfall" role="table" aria-label={`timeline of ${timeline.runId}, ${formatMs(total)}`}>
      {timeline.steps.map((step) => {
        const bar = spanPercent(start, total, step.startedAt, step.durationMs);
        return (
          <div key={`${step.agent}-${step.step}-${step.startedAt}`} class="waterfall-row" role="row">
            <div class="waterfall-label" role="rowheader" style={{ paddingLeft: `${step.depth}rem` }}>
              {step.agent} · step {step.step}
              <div class="muted small">
                {formatMs(step.durationMs)} <UsageText usage={step.usage} />
              </div>
            </div>
            <div class="waterfall-track" role="cell">
              <div
                class="waterfall-bar"
                style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
                title={`step ${step.step}: ${formatMs(step.durationMs)}`}
              />
              {step.tools.map((tool) => {
                const span = spanPercent(start, total, tool.startedAt, tool.durationMs);
                return (
                  <div
                    key={tool.toolCallId}
                    class={`waterfall-tool tool-${tool.status}`}
                    style={{ left: `${span.left}%`, width: `${span.width}%` }}
                    title={`${tool.toolName}: ${formatMs(tool.durationMs)} (${tool.status})`}
                  >
                    <span class="visually-hidden">
                      {tool.toolName} {formatMs(tool.durationMs)} {tool.status}
                    </span>
                  </div>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}
