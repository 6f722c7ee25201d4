/**
 * A streaming call whose response never starts (a server that accepts the connection and sends
 * nothing) fails after the first-byte timeout, is retried, and is reported as a timeout.
 */
import { createServer, type Server, type Socket } from 'node:net';

import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';

import { Agent, ProviderError } from '../../src/index.js';
import { classifyProviderError } from '../../src/models/classify-provider-error.js';
import {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  firstByteTimeoutFor,
  isFirstByteTimeout,
  withFirstByteTimeout,
} from '../../src/models/first-byte-timeout.js';

/** A TCP server that accepts connections, reads requests and never answers; counts the requests. */
async function silentServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('data', (d) => (count += (d.toString().match(/^POST /gm) ?? []).length));
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A model whose doStream waits until its abort signal fires. */
function hangingModel(seen: { signal?: AbortSignal }): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'hang',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('not used')),
    doStream: (o: LanguageModelV3CallOptions) =>
      new Promise((_, reject) => {
        seen.signal = o.abortSignal;
        o.abortSignal?.addEventListener('abort', () => reject(o.abortSignal!.reason));
      }),
  };
}

describe('first-byte timeout', () => {
  it('defaults to 60 s for hosted providers, none for Ollama, never longer than the request timeout', () => {
    expect(DEFAULT_FIRST_BYTE_TIMEOUT_MS).toBe(60_000);
    expect(firstByteTimeoutFor({ provider: 'openai', model: 'm' }, 120_000)).toBe(60_000);
    expect(firstByteTimeoutFor({ provider: 'openai-compatible', model: 'm' }, 120_000)).toBe(60_000);
    expect(firstByteTimeoutFor({ provider: 'ollama', model: 'm' }, 120_000)).toBe(0);
    expect(firstByteTimeoutFor({ provider: 'openai', model: 'm' }, 30_000)).toBe(0);
    expect(firstByteTimeoutFor({ provider: 'openai', model: 'm', firstByteTimeoutMs: 5000 }, 30_000)).toBe(5000);
    expect(firstByteTimeoutFor({ provider: 'ollama', model: 'm', firstByteTimeoutMs: 5000 }, 0)).toBe(5000);
  });

  it("aborts the request and fails with a retryable timeout; the caller's abort still reaches the request", async () => {
    const seen: { signal?: AbortSignal } = {};
    const wrapped = withFirstByteTimeout(hangingModel(seen), 50);
    const err = await Promise.resolve(wrapped.doStream({ prompt: [] })).catch((e: unknown) => e);
    expect(isFirstByteTimeout(err)).toBe(true);
    expect(seen.signal?.aborted).toBe(true);
    const c = classifyProviderError(err, { provider: 'test', modelId: 'hang', attempts: 1 });
    expect(c.retryable).toBe(true);
    expect(c.error.code).toBe('provider_timeout');
    expect(c.error.message).toContain('no response within 50 ms');

    const outer = new AbortController();
    const pending = Promise.resolve(
      withFirstByteTimeout(hangingModel(seen), 10_000).doStream({ prompt: [], abortSignal: outer.signal }),
    ).catch((e: unknown) => e);
    outer.abort(new Error('cancelled by the user'));
    expect(((await pending) as Error).message).toBe('cancelled by the user');
    expect(isFirstByteTimeout(await pending)).toBe(false);
  });

  it('a server that never answers: the run fails after the retries, in first-byte time, as a timeout', async () => {
    const silent = await silentServer();
    cleanup = silent.close;
    const agent = new Agent({
      name: 'a',
      model: {
        provider: 'openai-compatible',
        baseURL: `${silent.url}/v1`,
        model: 'm',
        firstByteTimeoutMs: 200,
        retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 },
      },
    });
    const started = performance.now();
    const err = await agent.stream('hi').result.catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('provider_timeout');
    expect((err as ProviderError).message).toMatch(/failed \(timeout\) after 2 attempts: no response within 200 ms/);
    expect(silent.requests()).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(5000);
  });
});
