import type { LanguageModelV3 } from '@ai-sdk/provider';

import type { ModelConfig, ModelInput } from '../types/model.js';
import type { ReasoningSettings } from '../types/model.js';
import type { FailedCallInfo } from '../types/resolved-model.js';
import { withBaseUrlFromEnv } from './base-url-env.js';
import { classifyProviderError } from './classify-provider-error.js';
import { createProviderModel } from './create-provider-model.js';
import { detectDefaultModel } from './default-model.js';
import { firstByteTimeoutFor, withFirstByteTimeout } from './first-byte-timeout.js';
import { lazyModel } from './lazy-model.js';
import { parseModelId } from './parse-model-id.js';
import { canonicalProviderOptions, mergeProviderOptions, reasoningProviderOptions } from './reasoning-options.js';
import { DEFAULT_RETRY, type ResolvedModel } from './resolved-model.js';

const DEFAULT_TIMEOUT_MS = 120_000;

/** True for an AI SDK provider-spec (v3) language model object. */
export function isLanguageModel(value: unknown): value is LanguageModelV3 {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as LanguageModelV3).specificationVersion === 'v3' &&
    typeof (value as LanguageModelV3).doGenerate === 'function'
  );
}

/**
 * Turns a model reference into a ready model: a `provider:model` string, a config object, a
 * provider-spec model, or nothing (then the default-model rules apply).
 */
export async function resolveModel(input: ModelInput | undefined, label?: string): Promise<ResolvedModel> {
  if (isLanguageModel(input)) {
    return withProviderFunctions({
      model: input,
      provider: input.provider,
      modelId: input.modelId,
      toolMode: 'native',
      retry: DEFAULT_RETRY,
      timeoutMs: 0,
    });
  }
  const given: ModelConfig = input === undefined ? await detectDefaultModel() : typeof input === 'string' ? parseModelId(input) : input;
  // A base URL from the environment (OPENAI_BASE_URL, GOOGLE_GENERATIVE_AI_BASE_URL, CORVID_BASE_URL for openai-compatible…).
  const config = withBaseUrlFromEnv(given, process.env);
  const toolMode = config.toolMode ?? 'native';
  const build = () => buildModel(config, label ?? `${config.provider}:${config.model}`);
  let model: LanguageModelV3;
  if (config.cassette !== undefined) {
    config.cassette.addSecret(config.apiKey);
    model = config.cassette.wrap(lazyModel(build, config.provider, config.model), `${config.provider}:${config.model}`);
  } else model = await build();
  return withProviderFunctions({
    model,
    provider: config.provider,
    modelId: config.model,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    topP: config.topP,
    reasoning: config.reasoning,
    toolMode,
    retry: { ...DEFAULT_RETRY, ...config.retry },
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    providerOptions: config.providerOptions,
  });
}

/** The provider's model for a config, with the JSON tool mode and the first-byte timeout applied. */
async function buildModel(config: ModelConfig, label: string): Promise<LanguageModelV3> {
  let model = await createProviderModel(config, label);
  if (config.toolMode === 'json') {
    const { jsonToolModel } = await import('./json-tool-model.js');
    model = jsonToolModel(model);
  }
  const firstByteMs = firstByteTimeoutFor(config, config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (firstByteMs > 0) model = withFirstByteTimeout(model, firstByteMs);
  return model;
}

/** Adds the provider-specific functions the loop calls (reasoning options, error classification). */
function withProviderFunctions(m: Omit<ResolvedModel, 'callProviderOptions' | 'classifyError'>): ResolvedModel {
  return {
    ...m,
    callProviderOptions: (reasoning: ReasoningSettings | undefined) =>
      canonicalProviderOptions(
        m.provider,
        mergeProviderOptions(reasoning ? reasoningProviderOptions(m.provider, reasoning) : undefined, m.providerOptions),
      ),
    classifyError: (err: unknown, info: FailedCallInfo) =>
      classifyProviderError(err, {
        provider: m.provider,
        modelId: m.modelId,
        timedOut: info.timedOut,
        timeoutMs: m.timeoutMs,
        attempts: info.attempts,
      }),
  };
}
