import type { RerankingModelV3 } from '@ai-sdk/provider';

import { ConfigError } from '../errors/config-error.js';
import { loadPeer } from '../errors/load-peer.js';

/** Providers with AI SDK reranking models: the package and its factory. */
const RERANK_PROVIDERS: Record<string, { pkg: string; factory: string }> = {
  cohere: { pkg: '@ai-sdk/cohere', factory: 'createCohere' },
  bedrock: { pkg: '@ai-sdk/amazon-bedrock', factory: 'createAmazonBedrock' },
  'amazon-bedrock': { pkg: '@ai-sdk/amazon-bedrock', factory: 'createAmazonBedrock' },
  togetherai: { pkg: '@ai-sdk/togetherai', factory: 'createTogetherAI' },
};

type RerankProvider = { rerankingModel?(modelId: string): RerankingModelV3 };

/**
 * The AI SDK reranking model `provider:model` (cohere, bedrock, togetherai), its provider package
 * imported on demand (an optional peer: not a dependency of corvid). The provider reads its API key
 * from its usual environment variable (COHERE_API_KEY, …).
 * @throws ConfigError for an unknown provider, or one whose package is not installed.
 */
export async function createRerankingModel(id: string, label: string): Promise<RerankingModelV3> {
  const colon = id.indexOf(':');
  const provider = id.slice(0, colon);
  const model = id.slice(colon + 1);
  const known = RERANK_PROVIDERS[provider];
  if (colon <= 0 || !model || !known) {
    throw new ConfigError(
      `${label}: no reranking models for "${id}"; use llm, or provider:model with one of ${Object.keys(RERANK_PROVIDERS).join(', ')} (e.g. cohere:rerank-v3.5)`,
    );
  }
  const pkg = known.pkg; // a variable: the package is an optional peer, not known to the compiler
  const mod = (await loadPeer({ packages: pkg, feature: `${label}: the reranker ${id}`, load: () => import(pkg) })) as Record<
    string,
    unknown
  >;
  const create = mod[known.factory] as (() => RerankProvider) | undefined;
  const instance = typeof create === 'function' ? create() : undefined;
  if (!instance?.rerankingModel) throw new ConfigError(`${label}: ${known.pkg} has no reranking models in the installed version`);
  return instance.rerankingModel(model);
}
