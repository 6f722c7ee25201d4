import { z } from 'zod';

import { tool } from '../core/tool.js';
import type { Tool } from '../types/tool.js';
import type { KnowledgeBase, SearchMode } from './knowledge-base.js';
import { retrievalHits } from './retrieval-hits.js';

/** Options for `KnowledgeBase.asTool`. */
export interface KnowledgeToolOptions {
  /** Default `search_knowledge`. */
  name?: string;
  /** Default: names the knowledge base and asks for citations. */
  description?: string;
  /** Hits returned. Default 5; the model may ask for up to 20. */
  topK?: number;
  mode?: SearchMode;
}

/** One hit as the model sees it. */
export interface KnowledgeToolHit {
  citation: string;
  title?: string;
  headings?: string[];
  text: string;
  score: number;
}

/**
 * The `search_knowledge` tool: the model sends a query and gets the best chunks with their
 * citations. Each search is reported as a `retrieval` event (`via: 'tool'`).
 */
export function knowledgeTool(kb: KnowledgeBase, options: KnowledgeToolOptions = {}): Tool {
  return tool({
    name: options.name ?? 'search_knowledge',
    description:
      options.description ??
      `Search the "${kb.name}" knowledge base. Returns the most relevant passages, each with a citation (file:lines, URL#heading or file p.N); cite them in your answer.`,
    input: z.object({
      query: z.string().min(1).describe('What to look for, in words likely to appear in the passages'),
      topK: z.number().int().min(1).max(20).optional().describe('How many passages (default 5)'),
    }),
    execute: async ({ query, topK }, context): Promise<{ results: KnowledgeToolHit[] }> => {
      const r = await kb.retrieve(query, { topK: topK ?? options.topK, mode: options.mode, signal: context.signal });
      context.emit?.({
        type: 'retrieval',
        runId: context.runId,
        agent: context.agent,
        path: context.path,
        via: 'tool',
        toolCallId: context.toolCallId,
        knowledge: kb.name,
        query,
        mode: r.mode,
        hits: retrievalHits(r.hits),
        timings: r.timings,
      });
      const hits = r.hits;
      return {
        results: hits.map((h) => ({
          citation: h.citation,
          ...(typeof h.chunk.metadata.title === 'string' ? { title: h.chunk.metadata.title } : {}),
          ...(h.chunk.location.headings?.length ? { headings: h.chunk.location.headings } : {}),
          text: h.chunk.text,
          score: Number(h.score.toFixed(4)),
        })),
      };
    },
  });
}
