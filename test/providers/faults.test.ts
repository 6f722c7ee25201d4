import { afterEach, describe, expect, it, vi } from 'vitest';

import { AuthenticationError, ProviderError } from '../../src/index.js';
import { closedPort, type FakeLlmServer, type FakeReply, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import {
  ALL_PATHS,
  calcAgent,
  deltas,
  drive,
  MODEL_IDS,
  modelConfig,
  ofType,
  PROVIDER_NAMES,
  type ProviderPath,
} from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

const FAST_RETRY = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 };

/** The error message each provider's own error body carries (the fake server's defaults). */
const SERVER_MESSAGE = 'The server had an error while processing your request.';

/** SSE events after which each API has streamed its first text delta (where the fake server cuts / stalls / errors). */
const MID_STREAM: Record<ProviderPath, number> = {
  // response.created, response.in_progress, output_item.added, content_part.added, output_text.delta
  'openai-responses': 5,
  // role chunk, first content chunk
  'openai-chat': 2,
  'openai-compatible': 2,
  ollama: 2,
  // message_start, ping, content_block_start, text_delta
  anthropic: 4,
  // first text chunk
  google: 1,
};

/** SSE events each API sends before its first text delta (where a cut or stall leaves nothing visible). */
const BEFORE_TEXT: Record<ProviderPath, number> = {
  // response.created, response.in_progress, output_item.added, content_part.added
  'openai-responses': 4,
  // role chunk
  'openai-chat': 1,
  'openai-compatible': 1,
  ollama: 1,
  // message_start, ping, content_block_start
  anthropic: 3,
  // the first chunk already carries text
  google: 0,
};

const both = ALL_PATHS.flatMap((p) => [
  [p, false],
  [p, true],
]) as Array<[ProviderPath, boolean]>;

describe.each(both)('%s faults (stream=%s)', (path, stream) => {
  it('retries a 429 after the Retry-After delay and succeeds', async () => {
    const s = await start([{ status: 429, headers: { 'retry-after': '0' } }, { text: 'Recovered.' }]);
    const o = await drive(calcAgent(modelConfig(path, s.url)), 'hi', stream);
    expect(o.error).toBeUndefined();
    expect(o.result!.text).toBe('Recovered.');
    expect(s.requests).toHaveLength(2);
    const retries = ofType(o.events, 'retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ step: 1, attempt: 1, delayMs: 0, error: { name: 'ProviderError', code: 'provider_rate_limited' } });
    expect(retries[0].error.message).toContain('HTTP 429');
  });

  it('honours retry-after-ms', async () => {
    const s = await start([{ status: 429, headers: { 'retry-after-ms': '3' } }, { text: 'ok' }]);
    const o = await drive(calcAgent(modelConfig(path, s.url)), 'hi', stream);
    expect(o.result?.text).toBe('ok');
    expect(ofType(o.events, 'retry')[0].delayMs).toBe(3);
  });

  it('gives a ProviderError naming provider, model, status and message when 500s exhaust the retries', async () => {
    const s = await start(() => ({ status: 500 }));
    const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
    expect(o.error).toBeInstanceOf(ProviderError);
    const e = o.error as ProviderError;
    expect(e).toMatchObject({
      kind: 'server',
      code: 'provider_error',
      status: 500,
      attempts: 3,
      provider: PROVIDER_NAMES[path],
      model: MODEL_IDS[path],
    });
    expect(e.providerMessage).toBe(SERVER_MESSAGE);
    expect(e.message).toContain(PROVIDER_NAMES[path]);
    expect(e.message).toContain(MODEL_IDS[path]);
    expect(e.message).toContain('HTTP 500');
    expect(e.message).toContain('after 3 attempts');
    expect(e.message).toContain(SERVER_MESSAGE);
    expect(s.requests).toHaveLength(3);
    expect(ofType(o.events, 'retry').map((r) => r.attempt)).toEqual([1, 2]);
    expect(o.events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed' });
  });

  it('gives an AuthenticationError for a 401, without retrying', async () => {
    const s = await start(() => ({ status: 401, errorMessage: 'Incorrect API key provided: test.' }));
    const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
    expect(o.error).toBeInstanceOf(AuthenticationError);
    const e = o.error as AuthenticationError;
    expect(e).toMatchObject({ code: 'authentication_failed', status: 401, provider: PROVIDER_NAMES[path] });
    expect(e.message).toContain('Incorrect API key provided: test. Check the API key');
    expect(e.message).not.toContain('..');
    expect(s.requests).toHaveLength(1);
    expect(ofType(o.events, 'error')[0].error).toMatchObject({ name: 'AuthenticationError', code: 'authentication_failed' });
  });

  it('does not retry a 400 and reports the provider message', async () => {
    const s = await start(() => ({ status: 400, errorMessage: 'tools[0].name is invalid' }));
    const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
    expect(o.error).toBeInstanceOf(ProviderError);
    expect(o.error).toMatchObject({ kind: 'bad_request', status: 400, attempts: 1, providerMessage: 'tools[0].name is invalid' });
    expect(s.requests).toHaveLength(1);
  });

  it('gives a network ProviderError after retries when the connection is refused', async () => {
    const port = await closedPort();
    const o = await drive(calcAgent(modelConfig(path, `http://127.0.0.1:${port}`, { retry: FAST_RETRY })), 'hi', stream);
    expect(o.error).toBeInstanceOf(ProviderError);
    const e = o.error as ProviderError;
    expect(e).toMatchObject({ kind: 'network', code: 'provider_unavailable', attempts: 3, provider: PROVIDER_NAMES[path] });
    expect(e.providerMessage).toContain('ECONNREFUSED');
    expect(ofType(o.events, 'retry')).toHaveLength(2);
  });

  it('retries a connection dropped before any answer', async () => {
    const s = await start([{ cutAfterChunks: 0 }, { text: 'Second time lucky.' }]);
    const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
    expect(o.result?.text).toBe('Second time lucky.');
    expect(s.requests).toHaveLength(2);
    expect(ofType(o.events, 'retry')[0].error.code).toBe('provider_unavailable');
  });

  it('times out a request that gets no answer', async () => {
    const s = await start([{ delayMs: 2000, text: 'too late' }]);
    const started = performance.now();
    const o = await drive(calcAgent(modelConfig(path, s.url, { timeoutMs: 100, retry: { maxRetries: 0 } })), 'hi', stream);
    expect(o.error).toBeInstanceOf(ProviderError);
    expect(o.error).toMatchObject({ kind: 'timeout', code: 'provider_timeout' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  if (stream) {
    it('gives a stream_interrupted ProviderError when the stream is cut mid-way', async () => {
      const s = await start([{ text: 'This answer will be cut off somewhere in the middle.', cutAfterChunks: MID_STREAM[path] }]);
      const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
      expect(o.error).toBeInstanceOf(ProviderError);
      const e = o.error as ProviderError;
      expect(e).toMatchObject({
        kind: 'stream_interrupted',
        code: 'provider_error',
        provider: PROVIDER_NAMES[path],
        model: MODEL_IDS[path],
      });
      expect(e.providerMessage).toMatch(/^the connection was closed after \d+ events$/);
      expect(e.message).not.toContain('Failed to process');
      // Part of the answer had streamed out; the step is not silently retried.
      expect(ofType(o.events, 'text_delta').length).toBeGreaterThan(0);
      expect(s.requests).toHaveLength(1);
      expect(ofType(o.events, 'error')).toHaveLength(1);
      expect(o.events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed' });
    });

    it('retries a stream cut before the first text delta, and succeeds', async () => {
      const cut: FakeReply = BEFORE_TEXT[path] === 0 ? { cutAfterHeaders: true } : { cutAfterChunks: BEFORE_TEXT[path] };
      const s = await start([{ text: 'Lost answer.', ...cut }, { text: 'Second time lucky.' }]);
      const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
      expect(o.error).toBeUndefined();
      expect(o.result!.text).toBe('Second time lucky.');
      expect(deltas(o.events, 'text_delta')).toBe('Second time lucky.');
      expect(s.requests).toHaveLength(2);
      expect(s.requests[1].body).toEqual(s.requests[0].body);
      const retries = ofType(o.events, 'retry');
      expect(retries).toHaveLength(1);
      expect(retries[0].error).toMatchObject({ name: 'ProviderError', code: 'provider_error' });
      // Where the cut is found depends on the provider package (some read up to the first output before answering).
      expect(retries[0].error.message).toMatch(
        /stream interrupted\): the connection was closed (after \d+ events?|before any output arrived)$/,
      );
    });

    it('retries a stream that stalls before the first text delta, and succeeds', async () => {
      const s = await start([{ text: 'Stuck answer.', stallAfterChunks: BEFORE_TEXT[path] }, { text: 'Unstuck.' }]);
      const o = await drive(calcAgent(modelConfig(path, s.url, { timeoutMs: 300, retry: FAST_RETRY })), 'hi', stream);
      expect(o.error).toBeUndefined();
      expect(o.result!.text).toBe('Unstuck.');
      expect(s.requests).toHaveLength(2);
      expect(ofType(o.events, 'retry').map((r) => r.error.message)).toEqual([
        expect.stringMatching(/: no (data|response) (for|within) 300 ms$/),
      ]);
    });

    it('gives a stream_interrupted ProviderError when every attempt breaks off before any text', async () => {
      const s = await start(() => ({ text: 'Never arrives.', cutAfterHeaders: true }));
      const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
      expect(o.error).toBeInstanceOf(ProviderError);
      expect(o.error).toMatchObject({ kind: 'stream_interrupted', attempts: 3 });
      expect((o.error as ProviderError).providerMessage).toMatch(/^the connection was closed (after 0 events|before any output arrived)$/);
      expect((o.error as Error).message).toContain('after 3 attempts');
      expect(s.requests).toHaveLength(3);
      expect(ofType(o.events, 'text_delta')).toEqual([]);
    });

    it('gives a stream_interrupted ProviderError when a stream stalls', async () => {
      const s = await start([{ text: 'This answer stops arriving.', stallAfterChunks: MID_STREAM[path] }]);
      const started = performance.now();
      const o = await drive(calcAgent(modelConfig(path, s.url, { timeoutMs: 400 })), 'hi', stream);
      expect(o.error).toBeInstanceOf(ProviderError);
      expect(o.error).toMatchObject({ kind: 'stream_interrupted' });
      expect((o.error as ProviderError).providerMessage).toBe('no data for 400 ms');
      expect(performance.now() - started).toBeLessThan(2000);
    });

    it('retries an error event that arrives before any output', async () => {
      const s = await start([{ text: 'never sent', errorAfterChunks: 0, errorMessage: 'Overloaded at start' }, { text: 'Recovered.' }]);
      const o = await drive(calcAgent(modelConfig(path, s.url, { retry: FAST_RETRY })), 'hi', stream);
      expect(o.error).toBeUndefined();
      expect(o.result!.text).toBe('Recovered.');
      expect(s.requests).toHaveLength(2);
      const retries = ofType(o.events, 'retry');
      expect(retries).toHaveLength(1);
      expect(retries[0].error.message).toContain('Overloaded at start');
    });

    it("reports the provider's in-stream error event", async () => {
      const s = await start([
        { text: 'Partial answer before the server gives up.', errorAfterChunks: MID_STREAM[path], errorMessage: 'Overloaded right now' },
      ]);
      const o = await drive(calcAgent(modelConfig(path, s.url)), 'hi', stream);
      expect(o.error).toBeInstanceOf(ProviderError);
      expect(o.error).toMatchObject({ kind: 'stream_interrupted', providerMessage: 'Overloaded right now' });
      expect(s.requests).toHaveLength(1);
    });
  }
});

describe('missing API keys', () => {
  const cases: Array<[ProviderPath, string]> = [
    ['openai-responses', 'OPENAI_API_KEY'],
    ['openai-chat', 'OPENAI_API_KEY'],
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['google', 'GOOGLE_GENERATIVE_AI_API_KEY'],
  ];
  it.each(cases)('%s without a key gives an AuthenticationError naming %s', async (path, envVar) => {
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'])
      vi.stubEnv(name, '');
    const s = await start([]);
    for (const stream of [false, true]) {
      const o = await drive(calcAgent(modelConfig(path, s.url, { apiKey: undefined })), 'hi', stream);
      expect(o.error).toBeInstanceOf(AuthenticationError);
      expect((o.error as Error).message).toContain(envVar);
      expect((o.error as AuthenticationError).provider).toBe(PROVIDER_NAMES[path]);
      if (stream) expect(o.events.map((e) => e.type)).toEqual(['error', 'run_end']);
    }
    expect(s.requests).toHaveLength(0);
  });

  it('uses the key from the environment when the config has none', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-env');
    const s = await start([{ text: 'ok' }]);
    const o = await drive(calcAgent(modelConfig('anthropic', s.url, { apiKey: undefined })), 'hi', false);
    expect(o.result?.text).toBe('ok');
    expect(s.requests[0].headers['x-api-key']).toBe('sk-ant-from-env');
  });
});

describe('truncated answers', () => {
  const LENGTH: Record<ProviderPath, string> = {
    'openai-responses': 'max_output_tokens',
    'openai-chat': 'length',
    'openai-compatible': 'length',
    ollama: 'length',
    anthropic: 'max_tokens',
    google: 'MAX_TOKENS',
  };
  it.each(both)('%s reports finishReason "length" (stream=%s)', async (path, stream) => {
    const s = await start([{ text: 'This answer was cut by the token li', finishReason: LENGTH[path] }]);
    const o = await drive(calcAgent(modelConfig(path, s.url, { maxTokens: 10 })), 'hi', stream);
    expect(o.error).toBeUndefined();
    expect(o.result!.text).toBe('This answer was cut by the token li');
    expect(o.result!.finishReason).toBe('length');
  });
});
