import { costOf } from '../code/code-prices.js';
import type { AgentEvent } from '../types/events.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';

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

/**
 * The trace of a run from its events (stored, or rebuilt from its checkpoints): the agent runs
 * (nested agents under the tool call or task that started them), their steps, each step's model
 * call and tool calls, with start, duration, inputs, outputs, tokens and cost. `modelOf` names the
 * model of an agent (for prices); spans still open are measured up to `now`.
 */
export function traceFromEvents(events: readonly TimedEvent[], opts: { modelOf: (agent: string) => string; now?: number }): TraceSpans {
  const spans: Open[] = [];
  const byRun = new Map<string, Open>();
  const steps = new Map<string, Open>();
  const models = new Map<string, Open>();
  const tools = new Map<string, Open>();
  const tasks = new Map<string, Open>();
  /** The last step text of each run: the output of nested runs, which report no `answer`. */
  const lastText = new Map<string, string>();
  let n = 0;
  const open = (init: Omit<TraceSpan, 'id' | 'depth' | 'durationMs' | 'status'>, at: Date, path: string, parent?: Open): Open => {
    const span: TraceSpan = {
      id: `s${++n}`,
      ...(parent ? { parentId: parent.span.id } : {}),
      ...init,
      depth: parent ? parent.span.depth + 1 : 0,
      durationMs: 0,
      status: 'running',
    };
    const o: Open = { span, path, start: at.getTime(), ended: false };
    spans.push(o);
    return o;
  };
  const close = (o: Open | undefined, at: Date, status: TraceSpanStatus, durationMs?: number) => {
    if (o === undefined || o.ended) return;
    o.ended = true;
    o.span.status = status;
    o.span.durationMs = Math.max(0, durationMs ?? at.getTime() - o.start);
  };
  /** Where a nested run goes: the open tool call or task of its parent agent whose input names it, else the latest. */
  const parentOf = (e: AgentEvent & { type: 'run_start' }): Open | undefined => {
    if (e.path.length <= 1) return undefined;
    const parentPath = joinPath(e.path.slice(0, -1));
    const candidates = spans.filter((o) => !o.ended && o.path === parentPath && (o.span.kind === 'tool' || o.span.kind === 'task'));
    const named = candidates.filter((o) => JSON.stringify(o.span.input ?? '').includes(e.input.slice(0, 200)));
    return (
      named.at(-1) ??
      candidates.at(-1) ??
      spans.filter((o) => o.span.kind === 'agent' && o.path === parentPath).at(-1) ??
      spans.find((o) => o.span.kind === 'agent')
    );
  };
  let first: Date | undefined;
  let last: Date | undefined;
  for (const { at, event: e } of events) {
    first ??= at;
    last = at;
    const path = joinPath(e.path);
    const key = `${e.runId}|${'step' in e ? e.step : ''}`;
    switch (e.type) {
      case 'run_start': {
        const parent = byRun.get(e.runId) ? undefined : parentOf(e);
        const name = e.resumed ? `${e.agent} (resumed)` : e.agent;
        const top = spans.find((o) => o.span.kind === 'agent');
        byRun.set(
          e.runId,
          open(
            { kind: 'agent', name, agent: e.agent, input: e.input, startedAt: at.toISOString() },
            at,
            path,
            parent ?? (e.resumed ? top : undefined),
          ),
        );
        break;
      }
      case 'step_start': {
        const step = open(
          { kind: 'step', name: `step ${e.step}`, agent: e.agent, startedAt: at.toISOString() },
          at,
          path,
          byRun.get(e.runId),
        );
        steps.set(key, step);
        const model = opts.modelOf(e.agent);
        models.set(key, open({ kind: 'model', name: model, agent: e.agent, model, startedAt: at.toISOString() }, at, path, step));
        break;
      }
      case 'tool_call': {
        const model = models.get(key);
        close(model, at, 'ok');
        const parent = steps.get(key) ?? byRun.get(e.runId);
        const tool = open(
          { kind: 'tool', name: e.toolName, agent: e.agent, input: e.input, startedAt: at.toISOString() },
          at,
          path,
          parent,
        );
        tools.set(e.toolCallId, tool);
        break;
      }
      case 'tool_result': {
        const tool = tools.get(e.toolCallId);
        if (tool) tool.span.output = e.output;
        close(tool, at, e.isError ? 'error' : 'ok', e.durationMs);
        break;
      }
      case 'approval_required': {
        const tool = tools.get(e.toolCallId);
        if (tool) {
          tool.span.output = { approval: e.prompt, approvalId: e.approvalId };
          close(tool, at, 'pending');
        }
        break;
      }
      case 'step_end': {
        const model = models.get(key);
        if (model) {
          model.span.usage = { ...e.usage };
          if (model.ended) model.span.output = { ...(model.span.output as object), text: e.text };
          else model.span.output = { text: e.text, ...(e.reasoning ? { reasoning: e.reasoning } : {}), finishReason: e.finishReason };
          if (!model.ended) close(model, at, 'ok');
        }
        const step = steps.get(key);
        if (step) step.span.output = { text: e.text, finishReason: e.finishReason };
        if (e.text) lastText.set(e.runId, e.text);
        close(step, at, 'ok');
        break;
      }
      case 'task_start': {
        const name = e.iteration !== undefined ? `${e.task} #${e.iteration}` : e.task;
        const task = open(
          { kind: 'task', name, agent: e.agent, input: { target: e.target, workflow: e.workflow }, startedAt: at.toISOString() },
          at,
          path,
          byRun.get(e.runId),
        );
        tasks.set(`${e.runId}|${e.task}|${e.iteration ?? ''}`, task);
        break;
      }
      case 'task_end': {
        const task = tasks.get(`${e.runId}|${e.task}|${e.iteration ?? ''}`);
        if (task && e.error) task.span.output = { error: e.error };
        close(task, at, e.status === 'completed' || e.status === 'skipped' ? 'ok' : 'error', e.durationMs);
        break;
      }
      case 'answer': {
        const run = byRun.get(e.runId);
        if (run) run.span.output = e.text;
        break;
      }
      case 'error': {
        const run = byRun.get(e.runId);
        if (run) run.span.output = { error: e.error };
        break;
      }
      case 'run_end': {
        const run = byRun.get(e.runId);
        if (run && run.span.output === undefined && lastText.has(e.runId)) run.span.output = lastText.get(e.runId);
        const status: TraceSpanStatus = e.status === 'completed' ? 'ok' : e.status === 'paused' ? 'pending' : 'error';
        // Steps left open (a failed model call, a pause) end with their run.
        for (const o of spans) if (!o.ended && o.path === path && o.span.kind !== 'agent') close(o, at, status === 'ok' ? 'ok' : status);
        close(run, at, status, e.durationMs);
        break;
      }
      default:
        break;
    }
  }
  const now = opts.now ?? Date.now();
  for (const o of spans) if (!o.ended) o.span.durationMs = Math.max(0, now - o.start);
  return {
    ...sumUp(spans.map((o) => o.span)),
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
