import type { LanguageModelV3 } from '@ai-sdk/provider';

import type { ModelConfig } from '../../types/model.js';
import { parseModelId } from '../parse-model-id.js';
import { isLanguageModel } from '../resolve-model.js';
import { Cassette, type CassetteOptions } from './cassette.js';

/**
 * A model that records its calls to a cassette and replays them (see `Cassette`): an AI SDK
 * model comes back wrapped; a `provider:model` id or a model config comes back as a config with
 * the cassette, so the provider's model is only created when a call is not replayed.
 * Pass a `Cassette` to share one file between several models.
 * @example
 * const agent = new Agent({ name: 'support', model: withCassette('openai:gpt-4.1-mini', { path: 'test/support.cassette.json' }) });
 */
export function withCassette(model: LanguageModelV3, cassette: Cassette | CassetteOptions): LanguageModelV3;
export function withCassette(model: string | ModelConfig, cassette: Cassette | CassetteOptions): ModelConfig;
export function withCassette(
  model: LanguageModelV3 | string | ModelConfig,
  cassette: Cassette | CassetteOptions,
): LanguageModelV3 | ModelConfig {
  const c = cassette instanceof Cassette ? cassette : new Cassette(cassette);
  if (isLanguageModel(model)) return c.wrap(model);
  const config = typeof model === 'string' ? parseModelId(model) : model;
  return { ...config, cassette: c };
}
