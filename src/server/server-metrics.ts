import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AgentEvent } from '../types/events.js';

/**
 * Series by their two or three label values, in nested maps keyed by the values themselves: an
 * update builds no key string (a joined key costs a concatenation, then flattening and hashing
 * it on every request).
 */
class SeriesMap<L extends string, S extends { labels: Record<L, string> }> {
  private readonly root = new Map<string, Map<unknown, unknown>>();
  /** Every series, oldest first. */
  readonly all: S[] = [];

  constructor(
    private readonly names: readonly L[],
    private readonly make: (labels: Record<L, string>) => S,
  ) {}

  /** The series of these label values (in `names` order; `c` only with three names), made on first use. */
  at(a: string, b: string, c?: string | number): S {
    let level = this.root.get(a);
    if (level === undefined) this.root.set(a, (level = new Map()));
    let key: unknown = b;
    if (c !== undefined) {
      let inner = level.get(b) as Map<unknown, unknown> | undefined;
      if (inner === undefined) level.set(b, (inner = new Map()));
      level = inner;
      key = c;
    }
    let series = level.get(key) as S | undefined;
    if (series === undefined) {
      const labels = { [this.names[0]]: a, [this.names[1]]: b } as Record<L, string>;
      if (c !== undefined) (labels as Record<string, string>)[this.names[2]] = String(c);
      series = this.make(labels);
      level.set(key, series);
      this.all.push(series);
    }
    return series;
  }

  clear(): void {
    this.root.clear();
    this.all.length = 0;
  }
}

/**
 * Counts by label values kept in plain maps and handed to a prom-client counter when metrics are
 * scraped: the hot path pays a few map lookups instead of prom-client's label hashing.
 */
class LabelCounts<L extends string> {
  private readonly series: SeriesMap<L, { labels: Record<L, string>; value: number }>;

  constructor(names: readonly L[]) {
    this.series = new SeriesMap(names, (labels) => ({ labels, value: 0 }));
  }

  /** Adds `value` to the series of these label values (`c` only for three labels). */
  add(value: number, a: string, b: string, c?: string | number): void {
    this.series.at(a, b, c).value += value;
  }

  /** Writes the totals into `counter` (called from its `collect`). */
  flush(counter: Counter<L>): void {
    counter.reset();
    for (const { labels, value } of this.series.all) counter.inc(labels, value);
  }
}

/**
 * A Prometheus histogram kept in plain arrays per label set and formatted when scraped, registered
 * with prom-client as a custom metric: recording a request is a few array updates instead of
 * prom-client's label hashing and per-bucket object updates (measured at 3 µs per request under
 * load).
 */
class BucketHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series: SeriesMap<L, { labels: Record<L, string>; counts: number[]; sum: number; count: number }>;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    names: readonly L[],
  ) {
    this.series = new SeriesMap(names, (labels) => ({ labels, counts: new Array<number>(bounds.length).fill(0), sum: 0, count: 0 }));
  }

  /** Records `value` in the series of these two label values. */
  observe(value: number, a: string, b: string): void {
    const s = this.series.at(a, b);
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        s.counts[i]++;
        break;
      }
    }
    s.sum += value;
    s.count++;
  }

  /** prom-client's metric interface: the series in its histogram export form. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: { labels: Record<string, string | number>; value: number; metricName: string }[] }> {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, counts, sum, count } of this.series.all) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += counts[i];
        values.push({ labels: { le: this.bounds[i], ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

/**
 * The server's Prometheus metrics, in their own registry (never prom-client's global one, so two
 * servers in one process do not mix). Run metrics are fed from the run event stream.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: BucketHistogram<'route' | 'method'>;
  private readonly runs: Counter<'agent' | 'status'>;
  private readonly tokens: Counter<'agent' | 'model' | 'kind'>;
  private readonly toolCalls: Counter<'agent' | 'tool' | 'status'>;
  private readonly streams: Gauge;
  private readonly requestCounts = new LabelCounts(['route', 'method', 'status'] as const);
  private readonly tokenCounts = new LabelCounts(['agent', 'model', 'kind'] as const);
  private readonly runCounts = new LabelCounts(['agent', 'status'] as const);

  constructor() {
    const registers = [this.registry];
    const requestCounts = this.requestCounts;
    const tokenCounts = this.tokenCounts;
    const runCounts = this.runCounts;
    this.requests = new Counter({
      name: 'corvid_http_requests_total',
      help: 'HTTP requests by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
      collect() {
        requestCounts.flush(this);
      },
    });
    this.duration = new BucketHistogram('corvid_http_request_duration_seconds', 'HTTP request duration by route (streams: until the response headers).', [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60], ['route', 'method']);
    this.registry.registerMetric(this.duration as unknown as Histogram);
    this.runs = new Counter({
      name: 'corvid_runs_total',
      help: 'Agent runs started over HTTP, by agent and final status.',
      labelNames: ['agent', 'status'],
      registers,
      collect() {
        runCounts.flush(this);
      },
    });
    this.tokens = new Counter({
      name: 'corvid_tokens_total',
      help: 'Model tokens by agent, model and kind (input, output).',
      labelNames: ['agent', 'model', 'kind'],
      registers,
      collect() {
        tokenCounts.flush(this);
      },
    });
    this.toolCalls = new Counter({ name: 'corvid_tool_calls_total', help: 'Tool calls by agent, tool and status (ok, error).', labelNames: ['agent', 'tool', 'status'], registers });
    this.streams = new Gauge({ name: 'corvid_active_streams', help: 'Open SSE and WebSocket streams.', registers });
  }

  /** Records one finished HTTP request. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requestCounts.add(1, route, method, status);
    this.duration.observe(seconds, route, method);
  }

  /** Records a run event; `model` names the model of the event's agent. */
  event(e: AgentEvent, model: (agent: string) => string): void {
    switch (e.type) {
      case 'step_end': {
        const m = model(e.agent);
        if (e.usage.inputTokens) this.tokenCounts.add(e.usage.inputTokens, e.agent, m, 'input');
        if (e.usage.outputTokens) this.tokenCounts.add(e.usage.outputTokens, e.agent, m, 'output');
        return;
      }
      case 'tool_result':
        this.toolCalls.inc({ agent: e.agent, tool: e.toolName, status: e.isError ? 'error' : 'ok' });
        return;
      case 'run_end':
        if (e.path.length === 1) this.runCounts.add(1, e.agent, e.status);
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
