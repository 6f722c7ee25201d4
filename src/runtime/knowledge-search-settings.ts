import type { CorvidConfig } from '../config/corvid-config.js';
import type { KnowledgeBaseConfig } from '../config/knowledge-schema.js';
import type { KnowledgeBaseOptions, Reranker } from '../knowledge/index.js';
import type { ModelInput } from '../types/model.js';
import { defaultModelFromEnv, resolveConfigModel } from './resolve-config-model.js';

type KnowledgeModule = typeof import('../knowledge/index.js');

/**
 * A knowledge base's `search:` as `createKnowledgeBase` search options: `rerank: llm` and `rewrite`
 * with the chat model `search.model` (else defaults.model, else the default-model rules), `rerank:
 * provider:model` with an AI SDK reranking model whose package is imported at the first rerank.
 */
export function knowledgeSearchSettings(options: {
  k: KnowledgeModule;
  name: string;
  kb: KnowledgeBaseConfig;
  config: CorvidConfig;
  env: Record<string, string | undefined>;
}): KnowledgeBaseOptions['search'] {
  const { k, kb, name } = options;
  const s = kb.search;
  if (!s) return undefined;
  let model: ModelInput | undefined;
  const chatModel = (): ModelInput | undefined => {
    const ref = s.model ?? options.config.defaults.model;
    model ??= ref !== undefined ? resolveConfigModel(ref, options.config, options.env) : defaultModelFromEnv(options.config, options.env);
    return model;
  };
  let rerank: Reranker | undefined;
  if (s.rerank === 'llm') rerank = k.llmReranker({ model: chatModel() });
  else if (s.rerank !== undefined && s.rerank !== 'none') rerank = lazyModelReranker(k, s.rerank, `knowledge.${name}.search.rerank`);
  const rewrite =
    s.rewrite === 'multi_query'
      ? k.multiQueryRewriter({ model: chatModel() })
      : s.rewrite === 'hyde'
        ? k.hydeRewriter({ model: chatModel() })
        : undefined;
  return { topK: s.topK, mode: s.mode, keywordWeight: s.keywordWeight, mmr: s.mmr, candidates: s.candidates, rerank, rewrite };
}

/** A reranker over `provider:model`, created (its package imported) at the first rerank. */
function lazyModelReranker(k: KnowledgeModule, id: string, label: string): Reranker {
  let inner: Promise<Reranker> | undefined;
  return {
    name: id,
    async rerank(query, candidates, o) {
      inner ??= import('../models/create-reranking-model.js').then(async (m) => k.modelReranker(await m.createRerankingModel(id, label)));
      inner.catch(() => (inner = undefined));
      return (await inner).rerank(query, candidates, o);
    },
  };
}
