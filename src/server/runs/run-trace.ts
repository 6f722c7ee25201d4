import { costOf } from '../../code/code-prices.js';
import type { AgentEvent } from '../../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../../types/usage.js';

/** What a span of a run's trace stands for: an agent's run, one model step, the model call in it, a tool call, a workflow task. */
export type TraceSpanKind = 'agent' | 'step' | 'model' | 'tool' | 'task';

/** How a span ended (`running`: not yet; `pending`: waiting for an approval). */
export type TraceSpanStatus = 'ok' | 'error' | 'running' | 'pending';

/** One span of a run's trace (`GET /api/v1/runs/{id}/trace`). */
export interface TraceSpan {
  id: string;
  /** The enclosing span; absent for the run's top-level agent. */
  parentId?: string;
  kind: TraceSpanKind;
  /** Agent name, `step <n>`, the model, the tool or the task. */
  name: string;
  /** The agent it belongs to. */
  agent: string;
  /** Nesting level, 0 for the top-level agent. */
  depth: number;
  startedAt: string;
  durationMs: number;
  status: TraceSpanStatus;
  input?: unknown;
  output?: unknown;
  /** Model spans: the call's tokens; agent and step spans: the sum of their model calls. */
  usage?: Usage;
  /** Model spans: `provider:model`. */
  model?: string;
  /** US dollars, where the model's price is known (as `usage`, summed up the tree). */
  costUsd?: number;
}

/** A stored event of a run with when it was written. */
export interface TimedEvent {
  seq: number;
  at: Date;
  event: AgentEvent;
}

/** Spans and totals of a run, from its events. */
export interface TraceSpans {
  spans: TraceSpan[];
  usage: Usage;
  costUsd?: number;
  /** First and last event time. */
  startedAt?: string;
  endedAt?: string;
}

interface Open {
  span: TraceSpan;
  path: string;
  start: number;
  ended: boolean;
}

const joinPath = (path: readonly string[]) => path.join('\u0000');

/** Folds a run's events into spans (see `traceFromEvents`). */
class TraceBuilder {
  readonly spans: Open[] = [];
  private readonly byRun = new Map<string, Open>();
  private readonly steps = new Map<string, Open>();
  private readonly models = new Map<string, Open>();
  private readonly tools = new Map<string, Open>();
  private readonly tasks = new Map<string, Open>();
  /** The last step text of each run: the output of nested runs, which report no `answer`. */
  private readonly lastText = new Map<string, string>();
  private n = 0;

  constructor(private readonly modelOf: (agent: string) => string) {}

  apply(at: Date, e: AgentEvent): void {
    const path = joinPath(e.path);
    const key = `${e.runId}|${'step' in e ? e.step : ''}`;
    switch (e.type) {
      case 'run_start':
        return this.runStart(at, e, path);
      case 'step_start': {
        const step = this.open({ kind: 'step', name: `step ${e.step}`, agent: e.agent }, at, path, this.byRun.get(e.runId));
        this.steps.set(key, step);
        const model = this.modelOf(e.agent);
        this.models.set(key, this.open({ kind: 'model', name: model, agent: e.agent, model }, at, path, step));
        return;
      }
      case 'tool_call': {
        this.close(this.models.get(key), at, 'ok');
        const parent = this.steps.get(key) ?? this.byRun.get(e.runId);
        this.tools.set(e.toolCallId, this.open({ kind: 'tool', name: e.toolName, agent: e.agent, input: e.input }, at, path, parent));
        return;
      }
      case 'tool_result': {
        const tool = this.tools.get(e.toolCallId);
        if (tool) tool.span.output = e.output;
        return this.close(tool, at, e.isError ? 'error' : 'ok', e.durationMs);
      }
      case 'approval_required': {
        const tool = this.tools.get(e.toolCallId);
        if (tool) tool.span.output = { approval: e.prompt, approvalId: e.approvalId };
        return this.close(tool, at, 'pending');
      }
      case 'step_end':
        return this.stepEnd(at, e, key);
      case 'task_start': {
        const name = e.iteration !== undefined ? `${e.task} #${e.iteration}` : e.task;
        const input = { target: e.target, workflow: e.workflow };
        const task = this.open({ kind: 'task', name, agent: e.agent, input }, at, path, this.byRun.get(e.runId));
        this.tasks.set(`${e.runId}|${e.task}|${e.iteration ?? ''}`, task);
        return;
      }
      case 'task_end': {
        const task = this.tasks.get(`${e.runId}|${e.task}|${e.iteration ?? ''}`);
        if (task && e.error) task.span.output = { error: e.error };
        return this.close(task, at, e.status === 'completed' || e.status === 'skipped' ? 'ok' : 'error', e.durationMs);
      }
      case 'answer':
      case 'error': {
        const run = this.byRun.get(e.runId);
        if (run) run.span.output = e.type === 'answer' ? e.text : { error: e.error };
        return;
      }
      case 'run_end':
        return this.runEnd(at, e, path);
      default:
        return;
    }
  }

  /** Spans still open are measured up to `now`. */
  finish(now: number): TraceSpan[] {
    for (const o of this.spans) if (!o.ended) o.span.durationMs = Math.max(0, now - o.start);
    return this.spans.map((o) => o.span);
  }

  private open(init: Omit<TraceSpan, 'id' | 'depth' | 'durationMs' | 'status' | 'startedAt'>, at: Date, path: string, parent?: Open): Open {
    const span: TraceSpan = {
      id: `s${++this.n}`,
      ...(parent ? { parentId: parent.span.id } : {}),
      ...init,
      depth: parent ? parent.span.depth + 1 : 0,
      startedAt: at.toISOString(),
      durationMs: 0,
      status: 'running',
    };
    const o: Open = { span, path, start: at.getTime(), ended: false };
    this.spans.push(o);
    return o;
  }

  private close(o: Open | undefined, at: Date, status: TraceSpanStatus, durationMs?: number): void {
    if (o === undefined || o.ended) return;
    o.ended = true;
    o.span.status = status;
    o.span.durationMs = Math.max(0, durationMs ?? at.getTime() - o.start);
  }

  private runStart(at: Date, e: AgentEvent & { type: 'run_start' }, path: string): void {
    const top = this.spans.find((o) => o.span.kind === 'agent');
    const parent = this.byRun.get(e.runId) ? (e.resumed ? top : undefined) : (this.parentOf(e) ?? (e.resumed ? top : undefined));
    const name = e.resumed ? `${e.agent} (resumed)` : e.agent;
    this.byRun.set(e.runId, this.open({ kind: 'agent', name, agent: e.agent, input: e.input }, at, path, parent));
  }

  /** Where a nested run goes: the open tool call or task of its parent agent whose input names it, else the latest. */
  private parentOf(e: AgentEvent & { type: 'run_start' }): Open | undefined {
    if (e.path.length <= 1) return undefined;
    const parentPath = joinPath(e.path.slice(0, -1));
    const candidates = this.spans.filter((o) => !o.ended && o.path === parentPath && (o.span.kind === 'tool' || o.span.kind === 'task'));
    const named = candidates.filter((o) => JSON.stringify(o.span.input ?? '').includes(e.input.slice(0, 200)));
    return (
      named.at(-1) ??
      candidates.at(-1) ??
      this.spans.filter((o) => o.span.kind === 'agent' && o.path === parentPath).at(-1) ??
      this.spans.find((o) => o.span.kind === 'agent')
    );
  }

  private stepEnd(at: Date, e: AgentEvent & { type: 'step_end' }, key: string): void {
    const model = this.models.get(key);
    if (model) {
      model.span.usage = { ...e.usage };
      model.span.output = { text: e.text, ...(e.reasoning ? { reasoning: e.reasoning } : {}), finishReason: e.finishReason };
      this.close(model, at, 'ok');
    }
    const step = this.steps.get(key);
    if (step) step.span.output = { text: e.text, finishReason: e.finishReason };
    if (e.text) this.lastText.set(e.runId, e.text);
    this.close(step, at, 'ok');
  }

  private runEnd(at: Date, e: AgentEvent & { type: 'run_end' }, path: string): void {
    const run = this.byRun.get(e.runId);
    if (run && run.span.output === undefined && this.lastText.has(e.runId)) run.span.output = this.lastText.get(e.runId);
    const status: TraceSpanStatus = e.status === 'completed' ? 'ok' : e.status === 'paused' ? 'pending' : 'error';
    // Steps left open (a failed model call, a pause) end with their run.
    for (const o of this.spans) if (!o.ended && o.path === path && o.span.kind !== 'agent') this.close(o, at, status);
    this.close(run, at, status, e.durationMs);
  }
}

/**
 * The trace of a run from its events (stored, or rebuilt from its checkpoints): the agent runs
 * (nested agents under the tool call or task that started them), their steps, each step's model
 * call and tool calls, with start, duration, inputs, outputs, tokens and cost. `modelOf` names the
 * model of an agent (for prices); spans still open are measured up to `now`.
 */
export function traceFromEvents(events: readonly TimedEvent[], opts: { modelOf: (agent: string) => string; now?: number }): TraceSpans {
  const builder = new TraceBuilder(opts.modelOf);
  for (const { at, event } of events) builder.apply(at, event);
  const spans = builder.finish(opts.now ?? Date.now());
  const first = events[0]?.at;
  const last = events.at(-1)?.at;
  return {
    ...sumUp(spans),
    ...(first ? { startedAt: first.toISOString() } : {}),
    ...(last ? { endedAt: last.toISOString() } : {}),
  };
}

/** Costs of model spans, and tokens and costs of every span as the sum of the model calls under it. */
function sumUp(spans: TraceSpan[]): { spans: TraceSpan[]; usage: Usage; costUsd?: number } {
  const children = new Map<string, TraceSpan[]>();
  for (const s of spans) if (s.parentId) children.set(s.parentId, [...(children.get(s.parentId) ?? []), s]);
  const total = (s: TraceSpan): { usage?: Usage; cost?: number } => {
    if (s.kind === 'model') {
      const cost = s.usage && s.model ? costOf(s.model, s.usage) : undefined;
      if (cost !== undefined) s.costUsd = cost;
      return { usage: s.usage, cost };
    }
    let usage: Usage | undefined;
    let cost: number | undefined;
    for (const c of children.get(s.id) ?? []) {
      const t = total(c);
      if (t.usage) usage = addUsage(usage ?? emptyUsage(), t.usage);
      if (t.cost !== undefined) cost = (cost ?? 0) + t.cost;
    }
    if (usage) s.usage = usage;
    if (cost !== undefined) s.costUsd = cost;
    return { usage, cost };
  };
  const usage = emptyUsage();
  let cost: number | undefined;
  for (const root of spans.filter((s) => s.parentId === undefined)) {
    const t = total(root);
    if (t.usage) addUsage(usage, t.usage);
    if (t.cost !== undefined) cost = (cost ?? 0) + t.cost;
  }
  return { spans, usage, ...(cost !== undefined ? { costUsd: cost } : {}) };
}
