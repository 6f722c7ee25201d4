/**
 * Inject mode and the retrieval settings in corvid.yaml: an agent's `knowledge: { bases, inject }`
 * through `loadRuntime` (ingest in process, SQLite in a temporary folder), `search:` settings
 * (`rewrite`, `rerank: llm` with a chat model), validation messages, and `--print-config` round trip.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/load-config.js';
import { printConfig } from '../../src/config/print-config.js';
import type { AgentEvent } from '../../src/index.js';
import { configKnowledge } from '../../src/runtime/config-knowledge.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { startFakeLlmServer } from '../support/fake-llm-server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Ingests `docs` as `corvid ingest` would (its own connection to the project's SQLite file). */
async function ingest(dir: string, env: Record<string, string> = {}) {
  const loaded = await loadConfig({ path: join(dir, 'corvid.yaml'), cwd: dir, env, dotenv: false });
  const knowledge = await configKnowledge({ config: loaded.config, baseDir: dir, cwd: dir, env });
  try {
    await knowledge.get('docs')!.ingest();
  } catch (err) {
    await knowledge.close();
    throw err;
  }
  return knowledge;
}

function project(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-inject-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'corvid.yaml'), config);
  writeFileSync(join(dir, 'docs', 'keys.md'), '# Keys\n\nRotate API keys every ninety days with the vault.\n');
  writeFileSync(join(dir, 'docs', 'deploy.md'), '# Deploy\n\nRun the rollout script to deploy the service.\n');
  return dir;
}

const CONFIG = `knowledge:
  docs:
    sources: [{ type: directory, path: ./docs }]
    search: { mode: keyword, top_k: 3 }
agents:
  helper:
    model: "openai:gpt-4.1-mini"
    instructions: Answer from the docs.
    knowledge: { bases: [docs], inject: true, tool: false, budget_tokens: 500 }
`;

describe('knowledge inject mode in corvid.yaml', () => {
  it('puts the passages into the instructions of each turn, without a search tool when tool: false', async () => {
    const dir = project(CONFIG);
    await (await ingest(dir)).close();
    const runtime = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
    try {
      const model = new ScriptedModel([{ text: 'Every ninety days [keys.md:1-3].' }]);
      const agent = runtime.agent('helper');
      agent.setModel(model);
      const events: AgentEvent[] = [];
      await agent.run('How often are API keys rotated?', { onEvent: (e) => events.push(e) });
      expect(model.calls[0].tools).toBeUndefined();
      const system = model.calls[0].prompt[0];
      expect(system.role === 'system' && system.content).toContain('[keys.md:1-3] (Keys)\n# Keys\n\nRotate API keys every ninety days');
      expect(events.find((e) => e.type === 'retrieval')).toMatchObject({
        via: 'inject',
        knowledge: 'docs',
        hits: [{ citation: 'keys.md:1-3' }],
      });
    } finally {
      await runtime.close();
    }
  });

  it('rewrite and rerank: llm ask the search.model chat model (a fake OpenAI server)', async () => {
    const llm = await startFakeLlmServer((req) => {
      const system = JSON.stringify(req.body);
      return system.includes('You judge search results')
        ? { text: '[{"id": 1, "score": 7}]' }
        : { text: 'rotate API keys\nvault key rotation' };
    });
    try {
      const dir = project(
        CONFIG.replace(
          'search: { mode: keyword, top_k: 3 }',
          `search: { mode: keyword, top_k: 1, rewrite: multi_query, rerank: llm, model: judge }
models:
  judge: { provider: openai, model: gpt-4.1-mini, api_key: test, base_url: "${llm.url}/v1" }`,
        ),
      );
      const knowledge = await ingest(dir);
      try {
        const hits = await knowledge.get('docs')!.search('how often do credentials change');
        expect(hits.map((h) => [h.citation, h.score])).toEqual([['keys.md:1-3', 0.7]]);
        expect(llm.requests).toHaveLength(2);
        expect(llm.requests.every((r) => (r.body as { model?: string }).model === 'gpt-4.1-mini')).toBe(true);
      } finally {
        await knowledge.close();
      }
    } finally {
      await llm.close();
    }
  });

  it('validates the agent and search settings with clear messages', async () => {
    const bad = CONFIG.replace('inject: true, tool: false', 'tool: false').replace(
      'search: { mode: keyword, top_k: 3 }',
      'search: { mode: keyword, mmr: 0.5, rerank: "fancy", rewrite: sideways }',
    );
    const err = await loadConfig({ text: bad, path: join(tmpdir(), 'corvid.yaml'), env: {}, dotenv: false }).catch((e: unknown) => e);
    const text = String((err as Error).message) + JSON.stringify((err as { issues?: unknown }).issues ?? '');
    expect(text).toContain('with tool: false, set inject: true');
    expect(text).toContain('rerank is none, llm, or a reranking model as provider:model');
    expect(text).toContain('rewrite is none, multi_query or hyde');
  });

  it('rerank: provider:model names the package to install when it is missing', async () => {
    const { createRerankingModel } = await import('../../src/models/create-reranking-model.js');
    await expect(createRerankingModel('cohere:rerank-v3.5', 'knowledge.docs.search.rerank')).rejects.toThrow(
      'knowledge.docs.search.rerank: the reranker cohere:rerank-v3.5 needs the optional package @ai-sdk/cohere, which is not installed: run "npm install @ai-sdk/cohere"',
    );
    await expect(createRerankingModel('openai:whatever', 'x')).rejects.toThrow(
      /no reranking models for "openai:whatever"; use llm, or provider:model with one of cohere/,
    );
  });

  it('mmr without an embedder is refused', async () => {
    const bad = CONFIG.replace('search: { mode: keyword, top_k: 3 }', 'search: { mode: keyword, mmr: 0.5 }');
    const err = await loadConfig({ text: bad, path: join(tmpdir(), 'corvid.yaml'), env: {}, dotenv: false }).catch((e: unknown) => e);
    expect(JSON.stringify((err as { issues?: unknown }).issues ?? (err as Error).message)).toContain('it needs an embedder');
  });

  it('prints the knowledge settings back in file form', async () => {
    const text = CONFIG.replace('search: { mode: keyword, top_k: 3 }', 'search: { mode: keyword, top_k: 3, rerank: llm, candidates: 10 }');
    const loaded = await loadConfig({ text, path: join(tmpdir(), 'corvid.yaml'), env: {}, dotenv: false });
    const printed = printConfig(loaded.config);
    expect(printed).toContain('rerank: llm');
    expect(printed).toMatch(/knowledge:\n\s+bases:\n\s+- docs\n\s+tool: false\n\s+inject: true\n\s+budget_tokens: 500/);
    const again = await loadConfig({ text: printed, path: join(tmpdir(), 'corvid.yaml'), env: {}, dotenv: false });
    expect(again.config.agents.helper.knowledgeUse).toEqual({ tool: false, inject: { budgetTokens: 500 } });
    expect(again.config.knowledge?.docs.search).toEqual({ mode: 'keyword', topK: 3, rerank: 'llm', candidates: 10 });
  });
});
