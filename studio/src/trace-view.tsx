/**
 * A run's trace as a waterfall: every span (agent runs, their steps, model calls, tool calls, nested agents as
 * their own collapsible steps) as a bar on the run's time axis, with duration, tokens and cost; a span's inputs
 * and outputs open beside the waterfall.
 */
import { useMemo, useState } from 'preact/hooks';

import { api, seg } from './api-client.js';
import type { RunTrace, TraceSpan } from './api-types.js';
import { formatMs } from './event-tree.js';
import { formatCost, visibleSpans } from './trace-spans.js';
import { Badge, LoadView, UsageText, useLoad, ValueView } from './ui.js';

export { formatCost, visibleSpans } from './trace-spans.js';

const KIND_LABEL: Record<TraceSpan['kind'], string> = { agent: 'agent', step: 'step', model: 'model', tool: 'tool', task: 'task' };

export function TraceView({ runId, version }: { runId: string; version?: string }) {
  const loaded = useLoad(() => api<RunTrace>(`/runs/${seg(runId)}/trace`), [runId, version]);
  return (
    <>
      <h2>Trace</h2>
      <LoadView loaded={loaded} what="Run traces">
        {(trace) => <TraceWaterfall trace={trace} />}
      </LoadView>
    </>
  );
}

function TraceWaterfall({ trace }: { trace: RunTrace }) {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | undefined>(trace.spans[0]?.id);
  const parents = useMemo(() => new Set(trace.spans.map((s) => s.parentId).filter((p): p is string => p !== undefined)), [trace]);
  const start = Date.parse(trace.startedAt);
  const total = Math.max(1, ...trace.spans.map((s) => Date.parse(s.startedAt) + s.durationMs - start));
  const rows = visibleSpans(trace.spans, collapsed);
  const chosen = trace.spans.find((s) => s.id === selected);
  const toggle = (id: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  if (trace.spans.length === 0) return <p class="muted">Nothing recorded for this run yet.</p>;
  const cost = formatCost(trace.costUsd);
  return (
    <div class="trace">
      <p class="trace-totals" aria-label="totals">
        <Badge text={trace.status} /> <span>{formatMs(trace.durationMs)}</span> · <UsageText usage={trace.usage} />
        {cost ? <span class="trace-cost"> · {cost}</span> : null} · {trace.spans.length} spans
        {trace.source === 'checkpoints' ? (
          <span class="muted small"> · rebuilt from the run’s checkpoints (no inner steps of nested agents)</span>
        ) : null}
      </p>
      <div class="trace-layout">
        <div class="trace-waterfall">
          <div class="trace-axis" aria-hidden="true">
            {[0, 0.5, 1].map((f) => (
              <span key={f} style={{ left: `${f * 100}%` }}>
                {formatMs(total * f)}
              </span>
            ))}
          </div>
          <ul class="trace-rows" aria-label={`spans of ${trace.runId}`}>
            {rows.map((span) => (
              <TraceRow
                key={span.id}
                span={span}
                bar={barOf(span, start, total)}
                open={!collapsed.has(span.id)}
                selected={selected === span.id}
                hasChildren={parents.has(span.id)}
                onToggle={toggle}
                onSelect={setSelected}
              />
            ))}
          </ul>
        </div>
        {chosen ? <SpanDetails span={chosen} runStart={start} /> : null}
      </div>
    </div>
  );
}

/** Where a span's bar sits on the run's time axis, in percent. */
function barOf(span: TraceSpan, start: number, total: number): { left: number; width: number } {
  const left = Math.min(100, Math.max(0, ((Date.parse(span.startedAt) - start) / total) * 100));
  return { left, width: Math.max(0.4, Math.min(100 - left, (span.durationMs / total) * 100)) };
}

function TraceRow(props: {
  span: TraceSpan;
  bar: { left: number; width: number };
  open: boolean;
  selected: boolean;
  hasChildren: boolean;
  onToggle: (id: string) => void;
  onSelect: (id: string) => void;
}) {
  const { span, bar, open, selected } = props;
  const spanCost = formatCost(span.costUsd);
  const nested = span.kind === 'agent' && span.depth > 0 ? ' nested-agent' : '';
  return (
    <li class={`trace-row kind-${span.kind}${nested}${selected ? ' selected' : ''}`} data-kind={span.kind}>
      <div class="trace-label" style={{ paddingLeft: `${span.depth * 0.9}rem` }}>
        {props.hasChildren ? (
          <button
            type="button"
            class="icon-button"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${KIND_LABEL[span.kind]} ${span.name}`}
            onClick={() => props.onToggle(span.id)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span class="toggle-space" />
        )}
        <button type="button" class="span-name" aria-pressed={selected} onClick={() => props.onSelect(span.id)}>
          <span class={`span-kind kind-${span.kind}`}>{KIND_LABEL[span.kind]}</span> {span.name}
        </button>
      </div>
      <div class="trace-track">
        <div class={`trace-bar kind-${span.kind} status-${span.status}`} style={{ left: `${bar.left}%`, width: `${bar.width}%` }} />
      </div>
      <div class="trace-numbers small">
        {formatMs(span.durationMs)}
        {span.usage ? (
          <>
            {' '}
            · <UsageText usage={span.usage} />
          </>
        ) : null}
        {spanCost ? ` · ${spanCost}` : null}
      </div>
    </li>
  );
}

function SpanDetails({ span, runStart }: { span: TraceSpan; runStart: number }) {
  const cost = formatCost(span.costUsd);
  return (
    <aside class="span-details" aria-label={`details of ${span.kind} ${span.name}`}>
      <h3>
        {KIND_LABEL[span.kind]} {span.name}
      </h3>
      <dl class="facts">
        <dt>Agent</dt>
        <dd>{span.agent}</dd>
        {span.model ? (
          <>
            <dt>Model</dt>
            <dd>{span.model}</dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>
          <Badge text={span.status} />
        </dd>
        <dt>Starts at</dt>
        <dd>+{formatMs(Math.max(0, Date.parse(span.startedAt) - runStart))}</dd>
        <dt>Duration</dt>
        <dd>{formatMs(span.durationMs)}</dd>
        {span.usage ? (
          <>
            <dt>Tokens</dt>
            <dd>
              <UsageText usage={span.usage} />
            </dd>
          </>
        ) : null}
        {cost ? (
          <>
            <dt>Cost</dt>
            <dd>{cost}</dd>
          </>
        ) : null}
      </dl>
      {span.input !== undefined ? (
        <>
          <h4>Input</h4>
          <ValueView value={span.input} label={`input of ${span.name}`} />
        </>
      ) : null}
      {span.output !== undefined ? (
        <>
          <h4>Output</h4>
          <ValueView value={span.output} label={`output of ${span.name}`} />
        </>
      ) : null}
    </aside>
  );
}
