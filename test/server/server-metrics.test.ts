import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';

import { ServerMetrics } from '../../src/server/observability/server-metrics.js';

// Request durations are kept by Corvid and formatted at scrape time; Prometheus must read exactly
// what prom-client's own histogram would have exposed for the same requests.

describe('ServerMetrics request durations', () => {
  it('expose the same histogram text as a prom-client Histogram fed the same requests', async () => {
    const metrics = new ServerMetrics();
    const registry = new Registry();
    const reference = new Histogram({
      name: 'corvid_http_request_duration_seconds',
      help: 'HTTP request duration by route (streams: until the response headers).',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers: [registry],
    });
    const requests: [string, string, number, number][] = [
      ['/api/v1/agents/:name/chat', 'POST', 200, 0.0004],
      ['/api/v1/agents/:name/chat', 'POST', 200, 0.002],
      ['/api/v1/agents/:name/chat', 'POST', 429, 0.001],
      ['/a2a/:name', 'POST', 200, 0.07],
      ['/health', 'GET', 200, 0.00001],
      ['/a2a/:name', 'POST', 200, 120],
    ];
    for (const [route, method, status, seconds] of requests) {
      metrics.request(route, method, status, seconds);
      reference.observe({ route, method }, seconds);
    }
    const text = (await metrics.render()).body;
    const ours = text.slice(text.indexOf('# HELP corvid_http_request_duration_seconds'));
    const end = ours.indexOf('\n# HELP', 1);
    expect((end === -1 ? ours : ours.slice(0, end)).trim()).toBe((await registry.metrics()).trim());
    expect(ours).toContain('corvid_http_request_duration_seconds_bucket{le="+Inf",route="/a2a/:name",method="POST"} 2');
    expect(ours).toContain('corvid_http_request_duration_seconds_count{route="/api/v1/agents/:name/chat",method="POST"} 3');
    expect(ours).toMatch(/# TYPE corvid_http_request_duration_seconds histogram/);
    // Request counts by route, method and status: one series each.
    expect(text).toContain('corvid_http_requests_total{route="/api/v1/agents/:name/chat",method="POST",status="200"} 2');
    expect(text).toContain('corvid_http_requests_total{route="/api/v1/agents/:name/chat",method="POST",status="429"} 1');
    expect(text).toContain('corvid_http_requests_total{route="/a2a/:name",method="POST",status="200"} 2');
    expect(text).toContain('corvid_http_requests_total{route="/health",method="GET",status="200"} 1');
  });

  it('counts runs and tokens by agent, model and kind, from run events', async () => {
    const metrics = new ServerMetrics();
    const model = (agent: string) => (agent === 'a' ? 'openai:gpt-x' : 'ollama:llama');
    const step = (agent: string, inputTokens: number, outputTokens: number) =>
      metrics.event(
        {
          type: 'step_end',
          agent,
          path: [agent],
          runId: 'r',
          step: 1,
          usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
        } as never,
        model,
      );
    step('a', 10, 2);
    step('a', 5, 1);
    step('b', 7, 0);
    for (const status of ['completed', 'completed', 'failed'])
      metrics.event({ type: 'run_end', agent: 'a', path: ['a'], runId: 'r', status } as never, model);
    metrics.event({ type: 'run_end', agent: 'sub', path: ['a', 'sub'], runId: 'r2', status: 'completed' } as never, model); // a sub-run: not counted
    const text = (await metrics.render()).body;
    expect(text).toContain('corvid_tokens_total{agent="a",model="openai:gpt-x",kind="input"} 15');
    expect(text).toContain('corvid_tokens_total{agent="a",model="openai:gpt-x",kind="output"} 3');
    expect(text).toContain('corvid_tokens_total{agent="b",model="ollama:llama",kind="input"} 7');
    expect(text).not.toContain('corvid_tokens_total{agent="b",model="ollama:llama",kind="output"}');
    expect(text).toContain('corvid_runs_total{agent="a",status="completed"} 2');
    expect(text).toContain('corvid_runs_total{agent="a",status="failed"} 1');
    expect(text).not.toContain('agent="sub"');
  });

  it('starts again from zero after the registry is reset', async () => {
    const metrics = new ServerMetrics();
    metrics.request('/health', 'GET', 200, 0.001);
    metrics.registry.resetMetrics();
    expect((await metrics.render()).body).not.toContain('corvid_http_request_duration_seconds_count{');
  });
});
