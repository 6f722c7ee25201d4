import { Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { AgentEvent } from '../../types/events.js';

/**
 * The server's Prometheus metrics, in their own registry (never prom-client's global one, so two
 * servers in one process do not mix). Run metrics are fed from the run event stream.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: Histogram<'route' | 'method'>;
  private readonly runs: Counter<'agent' | 'status'>;
  private readonly tokens: Counter<'agent' | 'model' | 'kind'>;
  private readonly toolCalls: Counter<'agent' | 'tool' | 'status'>;
  private readonly streams: Gauge;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'corvid_http_requests_total',
      help: 'HTTP requests by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'corvid_http_request_duration_seconds',
      help: 'HTTP request duration by route (streams: until the response headers).',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers,
    });
    this.runs = new Counter({
      name: 'corvid_runs_total',
      help: 'Agent runs started over HTTP, by agent and final status.',
      labelNames: ['agent', 'status'],
      registers,
    });
    this.tokens = new Counter({
      name: 'corvid_tokens_total',
      help: 'Model tokens by agent, model and kind (input, output).',
      labelNames: ['agent', 'model', 'kind'],
      registers,
    });
    this.toolCalls = new Counter({
      name: 'corvid_tool_calls_total',
      help: 'Tool calls by agent, tool and status (ok, error).',
      labelNames: ['agent', 'tool', 'status'],
      registers,
    });
    this.streams = new Gauge({ name: 'corvid_active_streams', help: 'Open SSE and WebSocket streams.', registers });
  }

  /** Records one finished HTTP request. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status });
    this.duration.observe({ route, method }, seconds);
  }

  /** Records a run event; `model` names the model of the event's agent. */
  event(e: AgentEvent, model: (agent: string) => string): void {
    switch (e.type) {
      case 'step_end': {
        const m = model(e.agent);
        if (e.usage.inputTokens) this.tokens.inc({ agent: e.agent, model: m, kind: 'input' }, e.usage.inputTokens);
        if (e.usage.outputTokens) this.tokens.inc({ agent: e.agent, model: m, kind: 'output' }, e.usage.outputTokens);
        return;
      }
      case 'tool_result':
        this.toolCalls.inc({ agent: e.agent, tool: e.toolName, status: e.isError ? 'error' : 'ok' });
        return;
      case 'run_end':
        if (e.path.length === 1) this.runs.inc({ agent: e.agent, status: e.status });
        return;
      default:
        return;
    }
  }

  /** A stream opened; call the returned function once when it closes. */
  streamOpened(): () => void {
    this.streams.inc();
    let open = true;
    return () => {
      if (open) this.streams.dec();
      open = false;
    };
  }

  /** The text exposition format. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
