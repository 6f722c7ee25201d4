import type { LanguageModelV3 } from '@ai-sdk/provider';

import { AuthenticationError } from '../errors/authentication-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';

/** Environment variables holding each provider's API key, in order of preference. */
export const API_KEY_ENV: Record<string, string[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/**
 * The default Ollama endpoint (OpenAI-compatible API). `OLLAMA_HOST` is read as Ollama reads it:
 * without a scheme, `http` and port 11434 are assumed (`OLLAMA_HOST=0.0.0.0` means port 11434).
 */
export function ollamaBaseURL(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.OLLAMA_HOST?.trim();
  let host = 'http://127.0.0.1:11434';
  if (raw) {
    if (/^https?:\/\//.test(raw)) host = raw;
    else {
      const [hostPort, ...rest] = raw.split('/');
      const withPort = /:\d+$/.test(hostPort) ? hostPort : `${hostPort || '127.0.0.1'}:11434`;
      host = `http://${[withPort, ...rest].join('/')}`;
    }
  }
  return `${host.replace(/\/+$/, '')}/v1`;
}

/**
 * The API key of a model config, else the provider's variable in `process.env`. `.env` files are
 * read by the CLI and `loadRuntime` (which pass a key found there in the config), never here.
 * @throws AuthenticationError when neither is set.
 */
export function apiKeyFor(config: Pick<ModelConfig, 'provider' | 'model' | 'apiKey'>, label: string): string {
  if (config.apiKey) return config.apiKey;
  const names = API_KEY_ENV[config.provider] ?? [];
  for (const n of names) if (process.env[n]) return process.env[n]!;
  throw new AuthenticationError(
    `No API key for ${config.provider} model "${config.model}" (${label}): set ${names.join(' or ')} in the environment, ` +
      `or apiKey in the model's config (api_key in corvid.yaml). The corvid CLI and loadRuntime() also read .env files; ` +
      `new Agent() reads only process.env.`,
    { provider: config.provider },
  );
}

/**
 * Creates the AI SDK provider-spec model for a config. Provider packages are imported on demand,
 * so a program that only uses Anthropic never loads the OpenAI package.
 */
export async function createProviderModel(config: ModelConfig, label = config.model): Promise<LanguageModelV3> {
  switch (config.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const p = createOpenAI({ apiKey: apiKeyFor(config, label), baseURL: config.baseURL, headers: config.headers });
      return config.api === 'chat' ? p.chat(config.model) : p.responses(config.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: apiKeyFor(config, label), baseURL: config.baseURL, headers: config.headers }).languageModel(
        config.model,
      );
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: apiKeyFor(config, label), baseURL: config.baseURL, headers: config.headers }).languageModel(
        config.model,
      );
    }
    case 'ollama': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'ollama',
        baseURL: config.baseURL ?? ollamaBaseURL(),
        apiKey: config.apiKey,
        headers: config.headers,
        includeUsage: true,
      }).chatModel(config.model);
    }
    case 'openai-compatible': {
      if (!config.baseURL) {
        const of = label === `${config.provider}:${config.model}` ? '' : ` (${label})`;
        throw new ConfigError(
          `The openai-compatible model "${config.model}"${of} has no base URL. Give it in corvid.yaml ` +
            `(models: { local: { provider: openai-compatible, model: ${config.model}, base_url: "http://127.0.0.1:8000/v1" } }, defaults: { model: local }) ` +
            `or as baseURL in code; with CORVID_MODEL=openai-compatible:<model>, set CORVID_BASE_URL.`,
        );
      }
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        // The name is also the providerOptions key whose extra fields go into the request body,
        // so `providerOptions: { openaiCompatible: { top_k: 20 } }` (or the config's `openai-compatible:` key) reaches the server.
        name: 'openai-compatible',
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        headers: config.headers,
        includeUsage: true,
      }).chatModel(config.model);
    }
    default:
      throw new ConfigError(
        `Unknown provider "${config.provider}" for model "${label}". Known: openai, anthropic, google, ollama, openai-compatible`,
      );
  }
}
