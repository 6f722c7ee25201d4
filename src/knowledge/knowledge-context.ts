import type { ContextProvider, ContextRequest } from '../types/context-provider.js';
import type { KnowledgeFilter } from '../types/knowledge.js';
import type { KnowledgeBase, KnowledgeHit, SearchMode } from './knowledge-base.js';
import { retrievalHits } from './retrieval-hits.js';

/** Options for `KnowledgeBase.asContext` (inject mode). */
export interface KnowledgeContextOptions {
  /** Passages searched for (those that fit the budget are added). Default: the knowledge base's `topK`. */
  topK?: number;
  /** Most tokens of passages added to the instructions per turn. Default 1,500. */
  budgetTokens?: number;
  mode?: SearchMode;
  filter?: KnowledgeFilter;
  /** What the model is told before the passages. Default: where they come from, and to cite them. */
  preamble?: string;
}

/** Tokens of a passage's citation line and separators, added to its own count. */
const PASSAGE_OVERHEAD = 12;

/**
 * Inject mode: at the start of each turn, searches the knowledge base with the user's message and
 * adds the best passages, each under its citation, to the instructions, as many as fit in
 * `budgetTokens` (by the chunks' token counts, in rank order). Reports a `retrieval` event
 * (`via: 'inject'`, the passages added).
 */
export function knowledgeContext(kb: KnowledgeBase, options: KnowledgeContextOptions = {}): ContextProvider {
  const budget = options.budgetTokens ?? 1500;
  return {
    name: `knowledge:${kb.name}`,
    async provide(request: ContextRequest) {
      if (!request.input.trim()) return undefined;
      const r = await kb.retrieve(request.input, {
        topK: options.topK,
        mode: options.mode,
        filter: options.filter,
        signal: request.signal,
      });
      const added = withinBudget(r.hits, budget);
      request.emit?.({
        type: 'retrieval',
        runId: request.runId,
        agent: request.agent,
        path: request.path,
        via: 'inject',
        knowledge: kb.name,
        query: request.input,
        mode: r.mode,
        hits: retrievalHits(added),
        timings: r.timings,
      });
      if (added.length === 0) return undefined;
      const preamble =
        options.preamble ??
        `Passages from the "${kb.name}" knowledge base found for the user's message. Use them when they are relevant, and cite the ones you use by their source in brackets, e.g. [${added[0].citation}].`;
      const passages = added.map((h) => {
        const headings = h.chunk.location.headings?.length ? ` (${h.chunk.location.headings.join(' > ')})` : '';
        return `[${h.citation}]${headings}\n${h.chunk.text}`;
      });
      return `## Knowledge: ${kb.name}\n\n${preamble}\n\n${passages.join('\n\n')}`;
    },
  };
}

/** The hits, in rank order, whose token counts fit in `budget` (a passage too big is passed over for smaller ones). */
function withinBudget(hits: KnowledgeHit[], budget: number): KnowledgeHit[] {
  const out: KnowledgeHit[] = [];
  let used = 0;
  for (const h of hits) {
    const cost = h.chunk.tokens + PASSAGE_OVERHEAD;
    if (used + cost > budget) continue;
    used += cost;
    out.push(h);
  }
  return out;
}
