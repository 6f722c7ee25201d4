import { ConfigError } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';

/**
 * Environment variables that give a provider's base URL when the model config has none.
 * OpenAI's and Anthropic's are the ones their AI SDK packages read; Corvid also reads them from
 * `.env` files. Ollama's `OLLAMA_HOST` is handled by `ollamaBaseURL`.
 */
export const BASE_URL_ENV: Record<string, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_GENERATIVE_AI_BASE_URL',
  'openai-compatible': 'CORVID_BASE_URL',
};

type Env = Record<string, string | undefined>;

/** Providers whose models also take `CORVID_BASE_URL` when their own variable is not set (OpenAI's wire format). */
const CORVID_BASE_URL_FALLBACK = new Set(['openai']);

/**
 * A model config with its base URL completed from the environment when it has none:
 * `CORVID_BASE_URL` for the model `CORVID_MODEL` names (`fromCorvidModel`) and for any
 * openai-compatible model, else the provider's variable (`BASE_URL_ENV`), else, for `openai`
 * models, `CORVID_BASE_URL`.
 */
export function withBaseUrlFromEnv(config: ModelConfig, env: Env, options: { fromCorvidModel?: boolean } = {}): ModelConfig {
  if (config.baseURL) return config;
  const name = BASE_URL_ENV[config.provider];
  const url =
    (options.fromCorvidModel ? env.CORVID_BASE_URL : undefined) ||
    (name ? env[name] : undefined) ||
    (CORVID_BASE_URL_FALLBACK.has(config.provider) ? env.CORVID_BASE_URL : undefined);
  return url ? { ...config, baseURL: url } : config;
}

/**
 * The model `CORVID_MODEL` names, with `CORVID_BASE_URL` as its base URL and `CORVID_API_KEY` as
 * its API key (when set; the provider's own key variable applies otherwise).
 * @throws ConfigError when it is an openai-compatible model and `CORVID_BASE_URL` is not set.
 */
export function corvidModelFromEnv(config: ModelConfig, env: Env): ModelConfig {
  const out = withBaseUrlFromEnv(config, env, { fromCorvidModel: true });
  if (!out.apiKey && env.CORVID_API_KEY) out.apiKey = env.CORVID_API_KEY;
  if (out.provider === 'openai-compatible' && !out.baseURL) {
    throw new ConfigError(
      `CORVID_MODEL=${env.CORVID_MODEL} names an OpenAI-compatible server: set CORVID_BASE_URL to its API address too, e.g. CORVID_BASE_URL=http://127.0.0.1:8000/v1 (in the environment, or a .env file for the corvid CLI)`,
    );
  }
  return out;
}
