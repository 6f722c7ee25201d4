/** Token counts from the real tokenizer (js-tiktoken) for OpenAI embedders, the estimate otherwise. */
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describe, expect, it } from 'vitest';

import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { contentHash, createKnowledgeBase, MemoryKnowledgeStore, openAiEncoding, tiktokenCounter } from '../../src/knowledge/index.js';
import { approximateTokenCounter } from '../../src/knowledge/token-counter.js';

describe('tokenizer', () => {
  it('picks the encoding by OpenAI model, and counts like OpenAI does', async () => {
    expect(openAiEncoding('text-embedding-3-small')).toBe('cl100k_base');
    expect(openAiEncoding('text-embedding-ada-002')).toBe('cl100k_base');
    expect(openAiEncoding('gpt-4o-mini')).toBe('o200k_base');
    expect(openAiEncoding('gpt-4.1')).toBe('o200k_base');
    const cl100k = (await tiktokenCounter('cl100k_base'))!;
    // Known counts (OpenAI tokenizer): "hello world" is 2 tokens; "tiktoken is great!" is 6.
    expect(cl100k.count('hello world')).toBe(2);
    expect(cl100k.count('tiktoken is great!')).toBe(6);
    // A special token in a document is text, not an error.
    expect(cl100k.count('end <|endoftext|> here')).toBeGreaterThan(3);
    expect((await tiktokenCounter('o200k_base'))!.count('hello world')).toBe(2);
  });

  it('chunks of an OpenAI embedder are counted with tiktoken; another provider keeps the estimate', async () => {
    const text = 'Idempotency-keys: supercalifragilistic internationalization, 12345678 tokens?!';
    const source = {
      name: 'one',
      async *list() {
        yield { uri: 'a.txt', source: 'one', text, contentHash: contentHash(text), metadata: {} };
      },
    };
    const unitVectors = { embed: async (texts: string[]) => texts.map(() => Float32Array.of(1, 0, 0)) };
    const openai = modelEmbedder(createOpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' }).embedding('text-embedding-3-small'));
    const other = modelEmbedder(createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:9/v1' }).embeddingModel('nomic'));
    expect(openai.encoding).toBe('cl100k_base');
    expect(other.encoding).toBeUndefined();
    const counts: number[] = [];
    for (const e of [openai, other]) {
      const store = new MemoryKnowledgeStore();
      // The embedder's tokenizer, with vectors made locally (no network).
      const kb = createKnowledgeBase({
        name: 'kb',
        sources: [source],
        store,
        embedder: { ...unitVectors, model: 'm', encoding: e.encoding, dimensions: 3 },
      });
      await kb.ingest();
      const index = await store.openIndex('kb');
      const [hit] = await index.keywordSearch({ text: 'supercalifragilistic', topK: 1 });
      counts.push(hit?.chunk.tokens ?? -1);
    }
    expect(counts[0]).toBe((await tiktokenCounter('cl100k_base'))!.count(text));
    expect(counts[1]).toBe(approximateTokenCounter.count(text));
    expect(counts[0]).not.toBe(counts[1]);
  });
});
