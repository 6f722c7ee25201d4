import type { ModelInput } from '../types/model.js';
import { askModel } from './ask-model.js';

/** Turns a query into more queries; the knowledge base searches each and fuses the results (RRF). */
export interface QueryRewriter {
  readonly name: string;
  /** Extra queries to search besides the original (which is always searched). */
  rewrite(query: string, options?: { signal?: AbortSignal }): Promise<string[]>;
}

/** Options for `multiQueryRewriter` and `hydeRewriter`. */
export interface QueryRewriterOptions {
  /** The chat model that writes: `'openai:gpt-4.1-mini'`, a model config, or an AI SDK model. Default: the default-model rules. */
  model?: ModelInput;
  /** Multi-query: how many rephrasings. Default 3. */
  count?: number;
}

/**
 * Multi-query: a chat model writes `count` rephrasings of the query (other words, other angles);
 * each is searched too, so a passage worded differently from the question is still found.
 */
export function multiQueryRewriter(options: QueryRewriterOptions): QueryRewriter {
  const count = options.count ?? 3;
  return {
    name: 'multi_query',
    async rewrite(query, { signal } = {}) {
      const answer = await askModel({
        model: options.model,
        name: 'knowledge-rewrite',
        instructions:
          `Rewrite a search query for a document search. Write ${count} different phrasings that use other words a ` +
          'document answering it would likely contain. Reply with one query per line and nothing else.',
        prompt: query,
        signal,
      });
      return answer
        .split('\n')
        .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
        .filter((l) => l !== '' && l !== query)
        .slice(0, count);
    },
  };
}

/**
 * HyDE (hypothetical document embeddings): a chat model writes a short passage that would answer
 * the query, and that passage is searched too — its words and embedding are closer to the real
 * answer's than the question's are.
 */
export function hydeRewriter(options: QueryRewriterOptions): QueryRewriter {
  return {
    name: 'hyde',
    async rewrite(query, { signal } = {}) {
      const answer = await askModel({
        model: options.model,
        name: 'knowledge-rewrite',
        instructions:
          'Write a short passage (at most 120 words) from a document that answers the question, as the document would ' +
          'word it. Reply with the passage only.',
        prompt: query,
        signal,
      });
      return answer.trim() ? [answer.trim()] : [];
    },
  };
}
