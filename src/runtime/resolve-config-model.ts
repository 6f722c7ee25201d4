import type { CorvidConfig } from '../config/corvid-config.js';
import { corvidModelFromEnv, withBaseUrlFromEnv } from '../models/base-url-env.js';
import { API_KEY_ENV, ollamaBaseURL } from '../models/create-provider-model.js';
import { DEFAULT_MODELS } from '../models/default-model.js';
import { parseModelId } from '../models/parse-model-id.js';
import type { ModelConfig } from '../types/model.js';

type Env = Record<string, string | undefined>;

/**
 * Completes a model config from the runtime's environment (which includes `.env` files that
 * never reach `process.env`): the provider's API key when none is configured, the base URL
 * (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_GENERATIVE_AI_BASE_URL`, `CORVID_BASE_URL` for
 * openai-compatible models, Ollama's `OLLAMA_HOST`) when none is configured. Keys already in `process.env` are left for the provider to read, so they are
 * not copied into config objects. `defaults.temperature` / `defaults.tool_mode` fill gaps.
 */
export function completeModelConfig(model: ModelConfig, config: CorvidConfig, env: Env): ModelConfig {
  const out: ModelConfig = withBaseUrlFromEnv({ ...model }, env);
  if (!out.apiKey) {
    const name = (API_KEY_ENV[out.provider] ?? []).find((n) => env[n]);
    if (name && env[name] !== process.env[name]) out.apiKey = env[name];
  }
  if (out.provider === 'ollama' && !out.baseURL && env.OLLAMA_HOST) out.baseURL = ollamaBaseURL(env);
  if (out.temperature === undefined && config.defaults.temperature !== undefined) out.temperature = config.defaults.temperature;
  if (out.toolMode === undefined && config.defaults.toolMode !== undefined) out.toolMode = config.defaults.toolMode;
  return out;
}

/** A model reference (a name from `models`, or `provider:model`) as a complete model config. */
export function resolveConfigModel(ref: string, config: CorvidConfig, env: Env): ModelConfig {
  const named = Object.prototype.hasOwnProperty.call(config.models, ref) ? config.models[ref] : undefined;
  return completeModelConfig(named ?? parseModelId(ref), config, env);
}

/**
 * The environment part of the default-model rules, evaluated against the runtime's environment:
 * `CORVID_MODEL` (its base URL from `CORVID_BASE_URL`), else the first provider with an API key.
 * `undefined` leaves the rest (probing a local Ollama) to the first run, so loading never waits
 * on the network.
 */
export function defaultModelFromEnv(config: CorvidConfig, env: Env): ModelConfig | undefined {
  if (env.CORVID_MODEL) return completeModelConfig(corvidModelFromEnv(parseModelId(env.CORVID_MODEL), env), config, env);
  for (const provider of ['openai', 'anthropic', 'google']) {
    if (API_KEY_ENV[provider].some((n) => env[n])) return completeModelConfig({ provider, model: DEFAULT_MODELS[provider] }, config, env);
  }
  return undefined;
}
