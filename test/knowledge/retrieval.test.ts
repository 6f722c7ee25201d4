/**
 * Agent-side retrieval: inject mode (`kb.asContext()` through the agent's context providers), the
 * `retrieval` event from inject mode and from the search tool, MMR, rerankers (an LLM judge on a
 * ScriptedModel, an AI SDK reranking model) and query rewriting — over the fake embeddings server.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { RerankingModelV3 } from '@ai-sdk/provider';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { colorsFor } from '../../src/cli/colors.js';
import { EventRenderer } from '../../src/cli/event-renderer.js';
import { KnowledgeError } from '../../src/errors/knowledge-error.js';
import { Agent, type AgentEvent, type AgentEventOf } from '../../src/index.js';
import { modelEmbedder } from '../../src/knowledge/embedder.js';
import { sha256 } from '../../src/knowledge/hash.js';
import {
  createKnowledgeBase,
  hydeRewriter,
  type KnowledgeBaseOptions,
  type KnowledgeDocument,
  type KnowledgeSource,
  llmReranker,
  MemoryKnowledgeStore,
  modelReranker,
  multiQueryRewriter,
} from '../../src/knowledge/index.js';
import { RunTracer } from '../../src/server/observability/run-tracer.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const DOCS: Record<string, string> = {
  'security.md': '# Security\n\n## Rotating API keys\n\nTo rotate an API key, create a new key, deploy it, then revoke the old key.\n',
  'billing.md': '# Billing\n\nInvoices are sent on the first day of the month. Payments by card or bank transfer.\n',
  'deploy.md': '# Deploying\n\nBuild the container image and push it to the registry, then roll out the new version.\n',
  'deploy-copy.md': '# Deploying\n\nBuild the container image and push it to the registry, then roll out the new version.\n',
  'rollback.md': '# Rollback\n\nTo roll back a deploy of a bad version, run the rollback command with the previous image.\n',
};

/** A source holding `DOCS` (markdown, one document per entry). */
function docsSource(docs: Record<string, string> = DOCS): KnowledgeSource {
  return {
    name: 'docs',
    async *list(): AsyncIterable<KnowledgeDocument> {
      for (const [uri, text] of Object.entries(docs)) {
        yield { uri, source: 'docs', text, contentHash: sha256(text), metadata: { format: 'markdown' } };
      }
    },
  };
}

let server: FakeEmbeddingsServer;
beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(() => server.close());

async function knowledgeBase(search: KnowledgeBaseOptions['search'] = {}, embed = true) {
  const kb = createKnowledgeBase({
    name: 'docs',
    sources: [docsSource()],
    store: new MemoryKnowledgeStore(),
    embedder: embed
      ? modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('text-embedding-3-small'), { retryDelayMs: 1 })
      : undefined,
    search,
  });
  await kb.ingest();
  return kb;
}

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const systemOf = (model: ScriptedModel, call = 0): string => {
  const first = model.calls[call].prompt[0];
  return first.role === 'system' ? first.content : '';
};

describe('inject mode', () => {
  it('puts the passages found for each user message, with citations, into the instructions and reports a retrieval', async () => {
    const kb = await knowledgeBase({ mode: 'keyword' });
    const model = new ScriptedModel([
      { text: 'Create a new key, deploy it, revoke the old one [security.md:1-5].' },
      { text: 'On the 1st.' },
    ]);
    const agent = new Agent({
      name: 'helper',
      model,
      instructions: 'You answer questions.',
      contextProviders: [kb.asContext({ topK: 2 })],
    });
    const chat = agent.conversation();
    const events = await collect(chat.stream('How do I rotate an API key?'));

    const system = systemOf(model);
    expect(system.startsWith('You answer questions.\n\n## Knowledge: docs')).toBe(true);
    expect(system).toContain(
      '[security.md:1-5] (Security > Rotating API keys)\n# Security\n\n## Rotating API keys\n\nTo rotate an API key',
    );
    expect(system).not.toContain('Invoices');
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['run_start', 'retrieval', 'step_start']);
    const retrieval = events[1] as AgentEventOf<'retrieval'>;
    expect(retrieval).toMatchObject({
      via: 'inject',
      knowledge: 'docs',
      query: 'How do I rotate an API key?',
      mode: 'keyword',
      agent: 'helper',
    });
    expect(retrieval.hits[0]).toMatchObject({
      citation: 'security.md:1-5',
      location: { uri: 'security.md', headings: ['Security', 'Rotating API keys'] },
    });
    expect(retrieval.hits[0].excerpt).toMatch(/^# Security ## Rotating API keys To rotate/);
    expect(retrieval.timings.totalMs).toBeGreaterThanOrEqual(retrieval.timings.searchMs);

    // The next turn searches with its own message; the first turn's passages are gone.
    await chat.run('When are invoices sent?');
    expect(systemOf(model, 1)).toContain('Invoices are sent on the first day');
    expect(systemOf(model, 1)).not.toContain('To rotate an API key');
  });

  it('adds only what fits the token budget, and nothing (no section) when nothing matches', async () => {
    const kb = await knowledgeBase({ mode: 'keyword' });
    const model = new ScriptedModel([{ text: 'a' }, { text: 'b' }]);
    const agent = new Agent({
      name: 'helper',
      model,
      instructions: 'Base.',
      contextProviders: [kb.asContext({ topK: 5, budgetTokens: 45 })],
    });
    const events = await collect(agent.stream('deploy version image rollback'));
    const retrieval = events.find((e) => e.type === 'retrieval') as AgentEventOf<'retrieval'>;
    expect(retrieval.hits).toHaveLength(1);
    expect(systemOf(model).match(/^\[/gm)).toHaveLength(1);

    await agent.run('zebra quokka');
    expect(systemOf(model, 1)).toBe('Base.');
  });

  it('a failing knowledge base fails the run with its message', async () => {
    const kb = createKnowledgeBase({
      name: 'docs',
      sources: [docsSource()],
      embedder: modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).embedding('e'), { retryDelayMs: 1, maxRetries: 0 }),
    });
    await kb.ingest();
    server.failNext.push(400);
    const agent = new Agent({ name: 'helper', model: new ScriptedModel([{ text: 'never' }]), contextProviders: [kb.asContext()] });
    await expect(agent.run('rotate keys')).rejects.toThrow(/Embedder e failed after 1 attempt/);
  });
});

describe('search tool', () => {
  it('reports a retrieval between its tool_call and tool_result, with timings, and the CLI shows it on one dim line', async () => {
    const kb = await knowledgeBase();
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: 'search_knowledge', input: { query: 'rotate api key' }, toolCallId: 'c1' }] },
      { text: 'ok' },
    ]);
    const agent = new Agent({ name: 'helper', model, tools: [kb.asTool()] });
    const events = await collect(agent.stream('keys?'));
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('retrieval'));
    expect(types.indexOf('retrieval')).toBeLessThan(types.indexOf('tool_result'));
    const retrieval = events.find((e) => e.type === 'retrieval') as AgentEventOf<'retrieval'>;
    expect(retrieval).toMatchObject({ via: 'tool', toolCallId: 'c1', mode: 'hybrid', query: 'rotate api key' });
    expect(retrieval.hits[0].citation).toBe('security.md:1-5');
    expect(retrieval.timings.embedMs).toBeGreaterThanOrEqual(0);

    let out = '';
    const renderer = new EventRenderer({ out: { write: (t: string) => (out += t) }, colors: colorsFor({ isTTY: false }) });
    renderer.render(retrieval);
    expect(out).toMatch(/^retrieved 5 chunks from docs in \d+ ms\n$/);
  });
});

describe('tracing', () => {
  it('a search becomes a knowledge.search span under its tool call, with mode, hits, citations and timings (not the query)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = new RunTracer(provider.getTracer('test'), () => 'scripted');
    const kb = await knowledgeBase({ mode: 'keyword' });
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: 'search_knowledge', input: { query: 'rotate api key secret-words' } }] },
      { text: 'ok' },
    ]);
    const agent = new Agent({ name: 'helper', model, tools: [kb.asTool()], contextProviders: [kb.asContext()] });
    await agent.run('invoices', { onEvent: (e) => tracer.event(e) });
    const finished = exporter.getFinishedSpans();
    const searches = finished.filter((sp) => sp.name === 'knowledge.search docs');
    expect(searches).toHaveLength(2);
    const tool = finished.find((sp) => sp.name === 'tool.call search_knowledge')!;
    const run = finished.find((sp) => sp.name === 'agent.run helper')!;
    const viaTool = searches.find((sp) => sp.attributes['corvid.retrieval.via'] === 'tool')!;
    const viaInject = searches.find((sp) => sp.attributes['corvid.retrieval.via'] === 'inject')!;
    expect(viaTool.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(viaInject.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(viaTool.attributes).toMatchObject({
      'corvid.knowledge': 'docs',
      'corvid.retrieval.mode': 'keyword',
      'corvid.retrieval.hits': 1,
    });
    expect(viaTool.attributes['corvid.retrieval.citations']).toEqual(['security.md:1-5']);
    expect(typeof viaTool.attributes['corvid.retrieval.search_ms']).toBe('number');
    expect(JSON.stringify(searches.map((sp) => sp.attributes))).not.toContain('secret-words');
  });
});

describe('MMR', () => {
  it('passes over a near-duplicate for a passage that adds something', async () => {
    const plain = await knowledgeBase({ mode: 'vector' });
    const top = (await plain.search('build container image push registry roll out version', { topK: 2 })).map((h) => h.chunk.documentUri);
    expect(top.sort()).toEqual(['deploy-copy.md', 'deploy.md']);
    const diverse = await knowledgeBase({ mode: 'vector', mmr: 0.3 });
    const picked = (await diverse.search('build container image push registry roll out version', { topK: 2 })).map(
      (h) => h.chunk.documentUri,
    );
    expect(picked).toHaveLength(2);
    expect(picked.filter((u) => u.startsWith('deploy')).length).toBe(1);
    // mmr: null turns it off for one search.
    expect((await diverse.search('build container image push registry roll out version', { topK: 2, mmr: null })).length).toBe(2);
  });

  it('needs an embedder', async () => {
    const kb = await knowledgeBase({ mode: 'keyword', mmr: 0.5 }, false);
    await expect(kb.search('deploy')).rejects.toThrow(/no embedder; MMR \(mmr\) needs one/);
  });
});

describe('rerank', () => {
  it('llm: a chat model rates the candidates and the ranking follows its ratings', async () => {
    const judge = new ScriptedModel((call) => {
      const user = call.prompt.find((m) => m.role === 'user');
      const text = user?.role === 'user' ? user.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
      const parts = text.split(/\[(\d+)\]\n/).slice(1);
      const ratings = [];
      for (let i = 0; i < parts.length; i += 2) ratings.push({ id: Number(parts[i]), score: parts[i + 1].includes('Invoices') ? 9 : 1 });
      return { text: '```json\n' + JSON.stringify(ratings) + '\n```' };
    });
    const kb = await knowledgeBase({ mode: 'hybrid', rerank: llmReranker({ model: judge }) });
    const r = await kb.retrieve('deploy the new version', { topK: 3 });
    expect(r.hits[0].chunk.documentUri).toBe('billing.md');
    expect(r.hits[0].score).toBe(0.9);
    expect(r.timings.rerankMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(judge.calls[0].prompt)).toContain('Query: deploy the new version');
  });

  it('llm: an answer without ratings is a clear error', async () => {
    const kb = await knowledgeBase({ rerank: llmReranker({ model: new ScriptedModel([{ text: 'They all look fine to me.' }]) }) });
    const err = await kb.search('deploy').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KnowledgeError);
    expect((err as Error).message).toContain('answered without ratings');
  });

  it('an AI SDK reranking model (RerankingModelV3) orders by its relevance scores', async () => {
    const model: RerankingModelV3 = {
      specificationVersion: 'v3',
      provider: 'local',
      modelId: 'reverse',
      async doRerank({ documents }) {
        const n = documents.values.length;
        return { ranking: Array.from({ length: n }, (_, i) => ({ index: n - 1 - i, relevanceScore: (i + 1) / n })) };
      },
    };
    const plain = await knowledgeBase({ mode: 'keyword', candidates: 3 });
    const order = (await plain.search('deploy version rollback image', { topK: 3 })).map((h) => h.chunk.id);
    const reranked = await knowledgeBase({ mode: 'keyword', candidates: 3, rerank: modelReranker(model) });
    expect((await reranked.search('deploy version rollback image', { topK: 3 })).map((h) => h.chunk.id)).toEqual([...order].reverse());
  });
});

describe('query rewriting', () => {
  it('multi_query: rephrasings are searched too, so a passage in other words is found (fused by RRF)', async () => {
    const plain = await knowledgeBase({ mode: 'keyword' });
    expect(await plain.search('how do I cycle credentials')).toEqual([]);
    const writer = new ScriptedModel([{ text: '1. rotate an API key\n2. replace credentials\n3. revoke old key' }]);
    const kb = await knowledgeBase({ mode: 'keyword', rewrite: multiQueryRewriter({ model: writer }) });
    const r = await kb.retrieve('how do I cycle credentials');
    expect(r.queries).toEqual(['how do I cycle credentials', 'rotate an API key', 'replace credentials', 'revoke old key']);
    expect(r.hits[0].citation).toBe('security.md:1-5');
    expect(r.timings.rewriteMs).toBeGreaterThanOrEqual(0);
  });

  it('hyde: a hypothetical answer passage is searched alongside the question', async () => {
    const plain = await knowledgeBase({ mode: 'keyword' });
    expect(await plain.search('when am I charged?')).toEqual([]);
    const writer = new ScriptedModel([{ text: 'Customers receive their invoice at the start of each month and pay by card.' }]);
    const kb = await knowledgeBase({ mode: 'keyword', rewrite: hydeRewriter({ model: writer }) });
    const r = await kb.retrieve('when am I charged?', { topK: 1 });
    expect(r.queries).toHaveLength(2);
    expect(r.hits[0].chunk.documentUri).toBe('billing.md');
  });
});
