import type { RerankingModelV3 } from '@ai-sdk/provider';

import { KnowledgeError } from '../errors/knowledge-error.js';
import type { ScoredChunk } from '../types/knowledge.js';
import type { ModelInput } from '../types/model.js';
import { askModel } from './ask-model.js';

/** Reorders search candidates by relevance to the query (a second, more careful look at the top of a search). */
export interface Reranker {
  /** Names the reranker in errors: `llm:<model>`, `<provider>:<model>`. */
  readonly name: string;
  /** The candidates, best first, with the reranker's scores; candidates it drops are left out. */
  rerank(query: string, candidates: ScoredChunk[], options?: { signal?: AbortSignal }): Promise<ScoredChunk[]>;
}

/**
 * A reranker over an AI SDK reranking model (`RerankingModelV3`: e.g. `cohere.reranking('rerank-v3.5')`
 * from `@ai-sdk/cohere`, Amazon Bedrock's or Together AI's). Scores are the model's relevance scores.
 */
export function modelReranker(model: RerankingModelV3): Reranker {
  const name = `${model.provider}:${model.modelId}`;
  return {
    name,
    async rerank(query, candidates, { signal } = {}) {
      if (candidates.length === 0) return [];
      let ranking: Array<{ index: number; relevanceScore: number }>;
      try {
        ({ ranking } = await model.doRerank({
          query,
          documents: { type: 'text', values: candidates.map((c) => c.chunk.text) },
          abortSignal: signal,
        }));
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new KnowledgeError(`Reranker ${name} failed: ${(err as Error).message}`, { kind: 'failed', cause: err });
      }
      return ranking
        .filter((r) => candidates[r.index] !== undefined)
        .map((r) => ({ chunk: candidates[r.index].chunk, score: r.relevanceScore }));
    },
  };
}

const JUDGE_INSTRUCTIONS =
  'You judge search results. For each numbered passage, rate how well it answers the query, from 0 (unrelated) to 10 ' +
  '(answers it fully). Reply with only a JSON array of objects {"id": <passage number>, "score": <0-10>}, one per passage.';

/** Options for `llmReranker`. */
export interface LlmRerankerOptions {
  /** The chat model that judges: `'openai:gpt-4.1-mini'`, a model config, or an AI SDK model. Default: the default-model rules. */
  model?: ModelInput;
  /** Characters of each passage shown to the model. Default 1,000. */
  maxPassageChars?: number;
}

/**
 * A reranker that asks a chat model to rate each candidate 0–10 for the query (one call for all
 * candidates). Candidates are ordered by rating, ties and unrated ones keeping their search order;
 * scores are the ratings divided by 10. An answer without a readable rating fails with a KnowledgeError.
 */
export function llmReranker(options: LlmRerankerOptions): Reranker {
  const maxChars = options.maxPassageChars ?? 1000;
  const m = options.model;
  const name = `llm:${typeof m === 'string' ? m : m && 'modelId' in m ? m.modelId : m && 'model' in m ? m.model : 'default model'}`;
  return {
    name,
    async rerank(query, candidates, { signal } = {}) {
      if (candidates.length === 0) return [];
      const passages = candidates.map((c, i) => `[${i + 1}]\n${c.chunk.text.slice(0, maxChars)}`).join('\n\n');
      const answer = await askModel({
        model: options.model,
        name: 'knowledge-rerank',
        instructions: JUDGE_INSTRUCTIONS,
        prompt: `Query: ${query}\n\nPassages:\n\n${passages}`,
        signal,
      });
      const ratings = parseRatings(answer, candidates.length);
      if (ratings.size === 0) {
        throw new KnowledgeError(
          `Reranker ${name} answered without ratings (expected a JSON array of {"id", "score"}): ${answer.slice(0, 200)}`,
          {
            kind: 'failed',
          },
        );
      }
      return candidates
        .map((c, i) => ({ c, i, rating: ratings.get(i + 1) ?? -1 }))
        .sort((a, b) => b.rating - a.rating || a.i - b.i)
        .map(({ c, rating }) => ({ chunk: c.chunk, score: Math.max(0, rating) / 10 }));
    },
  };
}

/** `id → score` from the model's answer: a JSON array of `{id, score}` (fenced or not), ids 1…count. */
function parseRatings(answer: string, count: number): Map<number, number> {
  const ratings = new Map<number, number>();
  const json = /\[[\s\S]*\]/.exec(answer)?.[0];
  if (!json) return ratings;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return ratings;
  }
  if (!Array.isArray(parsed)) return ratings;
  for (const item of parsed as Array<{ id?: unknown; score?: unknown }>) {
    const id = Number(item?.id);
    const score = Number(item?.score);
    if (Number.isInteger(id) && id >= 1 && id <= count && Number.isFinite(score)) ratings.set(id, Math.min(10, Math.max(0, score)));
  }
  return ratings;
}
