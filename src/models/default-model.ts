import { ConfigError } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';
import { corvidModelFromEnv } from './base-url-env.js';
import { API_KEY_ENV, ollamaBaseURL } from './create-provider-model.js';
import { parseModelId } from './parse-model-id.js';

/** Default model per provider when only an API key is present. */
export const DEFAULT_MODELS: Record<string, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
};

/**
 * Picks a model when none is configured: `CORVID_MODEL` (with `CORVID_BASE_URL` as its base URL),
 * else the first provider whose API key is
 * in the environment, else a local Ollama that answers within `ollamaTimeoutMs`, else a ConfigError
 * that says how to configure one. Never hangs.
 */
export async function detectDefaultModel(
  env: NodeJS.ProcessEnv = process.env,
  options: { ollamaTimeoutMs?: number } = {},
): Promise<ModelConfig> {
  if (env.CORVID_MODEL) return corvidModelFromEnv(parseModelId(env.CORVID_MODEL), env);
  for (const provider of ['openai', 'anthropic', 'google']) {
    if (API_KEY_ENV[provider].some((name) => env[name])) return { provider, model: DEFAULT_MODELS[provider] };
  }
  const ollama = await probeOllama(ollamaBaseURL(env), options.ollamaTimeoutMs ?? 800);
  if (ollama) return { provider: 'ollama', model: ollama };
  throw new ConfigError(
    [
      'No model is configured. Do one of:',
      '  - set CORVID_MODEL, e.g. CORVID_MODEL=openai:gpt-4.1-mini (or anthropic:claude-sonnet-4-5, google:gemini-2.5-flash, ollama:llama3.2)',
      '  - for any OpenAI-compatible server (vLLM, LM Studio, llama.cpp): CORVID_MODEL=openai-compatible:<model> and CORVID_BASE_URL=http://127.0.0.1:8000/v1',
      '  - set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY (the corvid CLI also reads them from a .env file; new Agent() reads only process.env)',
      '  - start Ollama on 127.0.0.1:11434 with a model pulled',
      '  - name a model in corvid.yaml: models: { main: { provider: openai, model: gpt-4.1-mini } } and defaults: { model: main }',
    ].join('\n'),
  );
}

async function probeOllama(baseURL: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const res = await fetch(`${baseURL.replace(/\/v1$/, '')}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { models?: Array<{ name?: string; model?: string }> };
    const first = body.models?.[0];
    return first?.model ?? first?.name;
  } catch {
    return undefined;
  }
}
