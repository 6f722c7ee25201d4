import { context, type Span, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';

import type { AgentEvent, AgentEventOf } from '../../types/events.js';
import { toolErrorMessage, toolSpanAttributes } from './tool-span-attributes.js';

/**
 * Turns one run's events into OpenTelemetry spans: `agent.run` for each (nested) agent run,
 * `model.call` for each model step (model, tokens, latency; provider warnings as `corvid.warning`
 * span events), `tool.call` for each tool call (with what it touched: path, command, exit code,
 * URL — see `toolSpanAttributes`), `knowledge.search` for each knowledge retrieval (knowledge base,
 * mode, hit count, citations, timings; under its tool call's span, or the run's for inject mode).
 * One tracer per run; spans still open when the run ends are ended with it.
 */
export class RunTracer {
  private readonly runs = new Map<string, Span>();
  private readonly steps = new Map<string, Span>();
  private readonly tools = new Map<string, Span>();

  constructor(
    private readonly tracer: Tracer,
    private readonly model: (agent: string) => string,
    private readonly attributes: Record<string, string> = {},
  ) {}

  private parentOf(path: readonly string[]): Span | undefined {
    return path.length > 1 ? this.runs.get(path.slice(0, -1).join('/')) : undefined;
  }

  private start(name: string, parent: Span | undefined, attributes: Record<string, string | number | string[]>): Span {
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    return this.tracer.startSpan(name, { attributes }, ctx);
  }

  /** Feeds one event. */
  event(e: AgentEvent): void {
    const runKey = e.path.join('/');
    switch (e.type) {
      case 'run_start':
        this.runs.set(
          runKey,
          this.start(`agent.run ${e.agent}`, this.parentOf(e.path), {
            'corvid.agent': e.agent,
            'corvid.run_id': e.runId,
            ...(e.path.length === 1 ? this.attributes : {}),
          }),
        );
        return;
      case 'step_start': {
        const model = this.model(e.agent);
        this.steps.set(
          `${e.runId}#${e.step}`,
          this.start(`model.call ${model}`, this.runs.get(runKey), {
            'gen_ai.request.model': model,
            'corvid.agent': e.agent,
            'corvid.step': e.step,
          }),
        );
        return;
      }
      case 'step_end': {
        const span = this.steps.get(`${e.runId}#${e.step}`);
        if (!span) return;
        this.steps.delete(`${e.runId}#${e.step}`);
        span.setAttributes({
          'gen_ai.usage.input_tokens': e.usage.inputTokens,
          'gen_ai.usage.output_tokens': e.usage.outputTokens,
          'gen_ai.response.finish_reasons': e.finishReason,
        });
        span.end();
        return;
      }
      case 'tool_call':
        this.tools.set(
          e.toolCallId,
          this.start(`tool.call ${e.toolName}`, this.runs.get(runKey), {
            'corvid.tool': e.toolName,
            'corvid.agent': e.agent,
            'corvid.tool_call_id': e.toolCallId,
            ...toolSpanAttributes(e.input),
          }),
        );
        return;
      case 'tool_result': {
        const span = this.tools.get(e.toolCallId);
        if (!span) return;
        this.tools.delete(e.toolCallId);
        if (e.isError)
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: typeof e.output === 'string' ? toolErrorMessage(e.output) : 'tool failed',
          });
        span.setAttributes({ ...toolSpanAttributes(e.output), 'corvid.duration_ms': e.durationMs });
        span.end();
        return;
      }
      case 'retrieval':
        this.retrieval(e, runKey);
        return;
      case 'warning': {
        const span = this.steps.get(`${e.runId}#${e.step}`) ?? this.runs.get(runKey);
        span?.addEvent('corvid.warning', {
          'corvid.warning.kind': e.kind,
          'corvid.warning.message': e.message,
          ...(e.feature ? { 'corvid.warning.feature': e.feature } : {}),
        });
        return;
      }
      case 'error': {
        const span = this.runs.get(runKey);
        span?.setStatus({ code: SpanStatusCode.ERROR, message: e.error.message });
        return;
      }
      case 'run_end': {
        const span = this.runs.get(runKey);
        if (!span) return;
        this.runs.delete(runKey);
        for (const [k, s] of this.steps) if (k.startsWith(`${e.runId}#`)) (s.end(), this.steps.delete(k));
        span.setAttributes({
          'corvid.status': e.status,
          'corvid.steps': e.steps,
          'gen_ai.usage.input_tokens': e.usage.inputTokens,
          'gen_ai.usage.output_tokens': e.usage.outputTokens,
        });
        if (e.status !== 'completed') span.setStatus({ code: SpanStatusCode.ERROR, message: e.status });
        span.end();
        if (e.path.length === 1) this.endAll();
        return;
      }
      default:
        return;
    }
  }

  /** A `knowledge.search` span for a retrieval, ended now and started `totalMs` ago. */
  private retrieval(e: AgentEventOf<'retrieval'>, runKey: string): void {
    const parent = (e.toolCallId !== undefined ? this.tools.get(e.toolCallId) : undefined) ?? this.runs.get(runKey);
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const end = Date.now();
    const span = this.tracer.startSpan(`knowledge.search ${e.knowledge}`, { startTime: end - e.timings.totalMs }, ctx);
    span.setAttributes({
      'corvid.agent': e.agent,
      'corvid.knowledge': e.knowledge,
      'corvid.retrieval.via': e.via,
      'corvid.retrieval.mode': e.mode,
      'corvid.retrieval.hits': e.hits.length,
      'corvid.retrieval.citations': e.hits.map((h) => h.citation),
      'corvid.retrieval.search_ms': e.timings.searchMs,
      ...(e.timings.embedMs !== undefined ? { 'corvid.retrieval.embed_ms': e.timings.embedMs } : {}),
      ...(e.timings.rewriteMs !== undefined ? { 'corvid.retrieval.rewrite_ms': e.timings.rewriteMs } : {}),
      ...(e.timings.rerankMs !== undefined ? { 'corvid.retrieval.rerank_ms': e.timings.rerankMs } : {}),
    });
    span.end(end);
  }

  /** Ends every span still open (a run that stopped without its `run_end`). */
  endAll(): void {
    for (const map of [this.tools, this.steps, this.runs]) {
      for (const s of map.values()) s.end();
      map.clear();
    }
  }
}
