import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { cosine } from '../../src/knowledge/stores/memory/memory-knowledge-store.js';
import { FAKE_DIMENSIONS, type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

let server: FakeEmbeddingsServer;
const model = () => createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).embedding('text-embedding-3-small');

beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(() => server.close());

describe('modelEmbedder over the OpenAI wire format', () => {
  it('sends texts in batches, keeps their order and learns the dimension', async () => {
    server.requests.length = 0;
    const embedder = modelEmbedder(model(), { batchSize: 3, concurrency: 2 });
    expect(embedder.model).toBe('text-embedding-3-small');
    expect(embedder.dimensions).toBeUndefined();
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(7);
    expect(embedder.dimensions).toBe(FAKE_DIMENSIONS);
    expect(server.requests.map((r) => r.input.length).sort()).toEqual([1, 3, 3]);
    expect(server.requests.flatMap((r) => r.input).sort()).toEqual([...texts].sort());
    expect(server.requests.every((r) => r.model === 'text-embedding-3-small')).toBe(true);
    // Order kept: each vector is its own text's.
    const again = await embedder.embed([texts[5]]);
    expect(cosine(vectors[5], again[0])).toBeCloseTo(1, 5);
    const similar = await embedder.embed(['the cat sat on the mat', 'a cat sat on a mat', 'quarterly revenue grew']);
    expect(cosine(similar[0], similar[1])).toBeGreaterThan(cosine(similar[0], similar[2]));
  });

  it('retries server errors with backoff, then succeeds', async () => {
    server.failNext = [500, 429];
    const before = server.received;
    const [v] = await modelEmbedder(model(), { retryDelayMs: 1 }).embed(['retry me']);
    expect(v).toHaveLength(FAKE_DIMENSIONS);
    expect(server.received - before).toBe(3);
  });

  it('gives up with a KnowledgeError naming the model after the last retry, and at once on a client error', async () => {
    server.failNext = [500, 500, 500];
    const err = await modelEmbedder(model(), { retryDelayMs: 1, maxRetries: 2 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KnowledgeError);
    expect((err as KnowledgeError).kind).toBe('embed');
    expect((err as KnowledgeError).message).toMatch(/text-embedding-3-small failed after 3 attempts/);
    server.failNext = [401];
    const before = server.received;
    const denied = await modelEmbedder(model(), { retryDelayMs: 1 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect((denied as KnowledgeError).message).toMatch(/after 1 attempt:/);
    expect(server.received - before).toBe(1);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    server.latencyMs = 20;
    server.maxInFlight = 0;
    try {
      const vectors = await modelEmbedder(model(), { batchSize: 1, concurrency: 3 }).embed(Array.from({ length: 9 }, (_, i) => `t${i}`));
      expect(vectors).toHaveLength(9);
      expect(server.maxInFlight).toBe(3);
    } finally {
      server.latencyMs = 0;
    }
  });
});
