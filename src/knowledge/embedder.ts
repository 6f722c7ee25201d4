import { APICallError, type EmbeddingModelV3 } from '@ai-sdk/provider';

import { KnowledgeError } from '../errors/knowledge-error.js';
import { openAiEncoding, type TiktokenEncodingName } from './tiktoken-counter.js';

/** Turns texts into vectors. An index records the `model` and dimension it was built with. */
export interface Embedder {
  /** The model's name, recorded by the index (another model needs a re-index). */
  readonly model: string;
  /** Vector length, when known before the first call. */
  readonly dimensions?: number;
  /**
   * The model's tokenizer, when it has a known one (OpenAI: `cl100k_base`): chunk sizes are then
   * counted with it (`js-tiktoken`, when installed) instead of the estimate.
   */
  readonly encoding?: TiktokenEncodingName;
  /** One vector per text, in order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Options for `modelEmbedder`. */
export interface ModelEmbedderOptions {
  /** Texts per request. Default: the model's `maxEmbeddingsPerCall`, at most 96. */
  batchSize?: number;
  /** Requests at once. Default 2. */
  concurrency?: number;
  /** Retries of a failed request (rate limits, server and network errors), with exponential backoff. Default 3. */
  maxRetries?: number;
  /** First backoff, doubled at each retry. Default 500 ms. */
  retryDelayMs?: number;
  /** The vector length, when known (saves a probe on a new index). */
  dimensions?: number;
  /** The name recorded by the index. Default: the model's id. */
  name?: string;
  /** The model's tokenizer. Default: `cl100k_base` for OpenAI models (provider `openai.*`), none otherwise. */
  encoding?: TiktokenEncodingName;
}

/**
 * An embedder over an AI SDK embedding model (`openai.embedding('text-embedding-3-small')`, …):
 * texts sent in batches, a bounded number of requests at once, retryable failures retried with
 * exponential backoff; anything else fails with a KnowledgeError (kind `embed`).
 * @example
 * import { createOpenAI } from '@ai-sdk/openai';
 * const embedder = modelEmbedder(createOpenAI().embedding('text-embedding-3-small'), { dimensions: 1536 });
 */
export function modelEmbedder(model: EmbeddingModelV3, options: ModelEmbedderOptions = {}): Embedder {
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const maxRetries = Math.max(0, options.maxRetries ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const name = options.name ?? model.modelId;
  let dimensions = options.dimensions;
  const encoding = options.encoding ?? (model.provider.startsWith('openai.') ? openAiEncoding(model.modelId) : undefined);
  return {
    model: name,
    encoding,
    get dimensions() {
      return dimensions;
    },
    async embed(texts, { signal } = {}) {
      if (texts.length === 0) return [];
      const perCall = (await model.maxEmbeddingsPerCall) ?? 96;
      const size = Math.max(1, Math.min(options.batchSize ?? 96, perCall));
      const batches: string[][] = [];
      for (let i = 0; i < texts.length; i += size) batches.push(texts.slice(i, i + size));
      const results: Float32Array[][] = new Array(batches.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < batches.length) {
          const i = next++;
          results[i] = await embedBatch(model, batches[i], { name, maxRetries, retryDelayMs, signal });
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
      const vectors = results.flat();
      dimensions ??= vectors[0]?.length;
      return vectors;
    },
  };
}

async function embedBatch(
  model: EmbeddingModelV3,
  values: string[],
  options: { name: string; maxRetries: number; retryDelayMs: number; signal?: AbortSignal },
): Promise<Float32Array[]> {
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      const { embeddings } = await model.doEmbed({ values, abortSignal: options.signal });
      if (embeddings.length !== values.length) {
        throw new KnowledgeError(`Embedder ${options.name} returned ${embeddings.length} vectors for ${values.length} texts`, {
          kind: 'embed',
        });
      }
      return embeddings.map((e) => Float32Array.from(e));
    } catch (err) {
      if (err instanceof KnowledgeError || options.signal?.aborted) throw err;
      const retryable = !APICallError.isInstance(err) || err.isRetryable;
      if (!retryable || attempt >= options.maxRetries) {
        const tries = attempt + 1;
        throw new KnowledgeError(
          `Embedder ${options.name} failed after ${tries} attempt${tries > 1 ? 's' : ''}: ${(err as Error).message}`,
          {
            kind: 'embed',
            cause: err,
          },
        );
      }
      await sleep(options.retryDelayMs * 2 ** attempt, options.signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
