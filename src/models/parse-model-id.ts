import { ConfigError } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';

/** Known provider names and their aliases. */
export const PROVIDER_ALIASES: Record<string, string> = {
  openai: 'openai',
  'openai-chat': 'openai',
  anthropic: 'anthropic',
  claude: 'anthropic',
  google: 'google',
  gemini: 'google',
  ollama: 'ollama',
  'openai-compatible': 'openai-compatible',
  compatible: 'openai-compatible',
};

/** Canonical provider name, or undefined when unknown. */
export function canonicalProvider(name: string): string | undefined {
  return PROVIDER_ALIASES[name.toLowerCase()];
}

/**
 * Parses `provider:model` (e.g. `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`,
 * `ollama:llama3.2`, `openai-chat:gpt-4o`). The model part may itself contain colons (`ollama:qwen3:8b`).
 */
export function parseModelId(id: string): ModelConfig {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1) {
    throw new ConfigError(
      `Invalid model id "${id}": use "provider:model", e.g. "openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5", "google:gemini-2.5-flash" or "ollama:llama3.2"`,
    );
  }
  const rawProvider = id.slice(0, i);
  const provider = canonicalProvider(rawProvider);
  if (!provider) {
    throw new ConfigError(
      `Unknown provider "${rawProvider}" in model id "${id}". Known providers: ${Object.keys(PROVIDER_ALIASES).join(', ')}`,
    );
  }
  const config: ModelConfig = { provider, model: id.slice(i + 1) };
  if (rawProvider.toLowerCase() === 'openai-chat') config.api = 'chat';
  return config;
}
