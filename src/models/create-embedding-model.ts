import type { EmbeddingModelV3 } from '@ai-sdk/provider';

import { ConfigError } from '../errors/config-error.js';
import { apiKeyFor, ollamaBaseURL } from './create-provider-model.js';

/** What an embedding model is made from (an `embedders:` entry of corvid.yaml). */
export interface EmbeddingModelConfig {
  provider: string;
  model: string;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
}

/**
 * Creates the AI SDK embedding model for a config; the provider package is imported on demand.
 * @throws ConfigError for a provider without embeddings here, or openai-compatible without a base URL.
 */
export async function createEmbeddingModel(config: EmbeddingModelConfig, label = config.model): Promise<EmbeddingModelV3> {
  switch (config.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: apiKeyFor(config, label), baseURL: config.baseURL, headers: config.headers }).embedding(config.model);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: apiKeyFor(config, label), baseURL: config.baseURL, headers: config.headers }).embedding(
        config.model,
      );
    }
    case 'ollama':
    case 'openai-compatible': {
      const baseURL = config.provider === 'ollama' ? (config.baseURL ?? ollamaBaseURL()) : config.baseURL;
      if (!baseURL) throw new ConfigError(`The openai-compatible embedder "${label}" has no base_url, e.g. http://127.0.0.1:8000/v1`);
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: config.provider, baseURL, apiKey: config.apiKey, headers: config.headers }).embeddingModel(
        config.model,
      );
    }
    default:
      throw new ConfigError(
        `No embeddings for provider "${config.provider}" (embedder "${label}"). Known: openai, openai-compatible, google, ollama`,
      );
  }
}
