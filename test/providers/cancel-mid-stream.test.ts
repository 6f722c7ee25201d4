/**
 * Cancelling a run while the model is streaming its answer stops reading at once, closes the
 * provider's connection (so the model stops generating and billing) and ends the run `aborted` —
 * on every provider path, through `stream.abort()` and through an aborted `signal`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RunAbortedError } from '../../src/index.js';
import type { AgentEvent } from '../../src/types/events.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ALL_PATHS, calcAgent, modelConfig } from '../support/provider-harness.js';

const CHUNK_DELAY_MS = 400;
const TEXT = 'one two three four five six seven eight nine ten eleven twelve';

describe.each(ALL_PATHS)('cancel mid-stream: %s', (path) => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer(() => ({ text: TEXT, chunkDelayMs: CHUNK_DELAY_MS }));
  });
  afterAll(() => server.close());

  it('stream.abort() after the first delta ends the run aborted, and closes the provider connection', async () => {
    const agent = calcAgent(modelConfig(path, server.url));
    const before = server.requests.length;
    const s = agent.stream('count');
    const events: AgentEvent[] = [];
    let abortedAt = 0;
    for await (const e of s) {
      events.push(e);
      if (e.type === 'text_delta' && abortedAt === 0) {
        abortedAt = Date.now();
        s.abort();
      }
    }
    const endedAt = Date.now();
    await expect(s.result).rejects.toBeInstanceOf(RunAbortedError);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'run_end', status: 'aborted' });
    // Not the whole answer: only what had arrived when the run was cancelled.
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(text.length).toBeLessThan(TEXT.length);
    // Ended well before the next chunk would have come, and the server saw the client go away.
    expect(endedAt - abortedAt).toBeLessThan(CHUNK_DELAY_MS);
    const req = server.requests[before];
    await expect.poll(() => req.clientClosedAt, { timeout: 2000 }).toBeDefined();
    expect(req.clientClosedAt! - abortedAt).toBeLessThan(CHUNK_DELAY_MS);
  });

  it('an aborted signal mid-stream ends the streamed run with RunAbortedError', async () => {
    const agent = calcAgent(modelConfig(path, server.url));
    const before = server.requests.length;
    const controller = new AbortController();
    let abortedAt = 0;
    const s = agent.stream('count', { signal: controller.signal });
    for await (const e of s) {
      if (e.type === 'text_delta' && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    await expect(s.result).rejects.toBeInstanceOf(RunAbortedError);
    expect(Date.now() - abortedAt).toBeLessThan(CHUNK_DELAY_MS);
    const req = server.requests[before];
    await expect.poll(() => req.clientClosedAt, { timeout: 2000 }).toBeDefined();
  });
});
