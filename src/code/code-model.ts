import type { CorvidConfig } from '../config/corvid-config.js';
import { ConfigError } from '../errors/config-error.js';
import { defaultModelFromEnv, resolveConfigModel } from '../runtime/resolve-config-model.js';
import type { ModelConfig } from '../types/model.js';

/** How to choose a model, for the error when none is found. */
const HOW_TO_CHOOSE = [
  'corvid code has no model to use. Do one of:',
  '  - pass --model, e.g. corvid code --model anthropic:claude-sonnet-4-5 (or a name from corvid.yaml models:)',
  '  - set CORVID_MODEL, e.g. CORVID_MODEL=openai:gpt-4.1 (any OpenAI-compatible server: CORVID_MODEL=openai-compatible:<model> and CORVID_BASE_URL=http://127.0.0.1:8000/v1)',
  '  - set ANTHROPIC_API_KEY, OPENAI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY',
  '  - name one in corvid.yaml: models: { main: { provider: openai, model: gpt-4.1 } } and defaults: { model: main }',
].join('\n');

/**
 * The model of a `corvid code` session: `--model` (a `models:` name or `provider:model`), else the
 * config's `defaults.model`, else `CORVID_MODEL`, else the first provider whose API key is set.
 * @throws ConfigError saying how to choose one when none is found.
 */
export function resolveCodeModel(args: { model?: string; config: CorvidConfig; env: NodeJS.ProcessEnv }): ModelConfig {
  const { config, env } = args;
  if (args.model !== undefined && args.model.trim() !== '') return checked(args.model.trim(), config, env);
  if (config.defaults.model !== undefined) return checked(config.defaults.model, config, env);
  const fromEnv = defaultModelFromEnv(config, env);
  if (fromEnv !== undefined) return fromEnv;
  throw new ConfigError(HOW_TO_CHOOSE);
}

function checked(ref: string, config: CorvidConfig, env: NodeJS.ProcessEnv): ModelConfig {
  const named = Object.prototype.hasOwnProperty.call(config.models, ref);
  if (!named && !ref.includes(':')) {
    const names = Object.keys(config.models);
    throw new ConfigError(
      `Unknown model "${ref}": use provider:model (e.g. openai:gpt-4.1)${names.length > 0 ? ` or one of the config's models: ${names.join(', ')}` : ''}`,
    );
  }
  return resolveConfigModel(ref, config, env);
}

/** `provider:model` of a model config, for the status line and the price table. */
export function modelLabel(model: ModelConfig): string {
  return `${model.provider}:${model.model}`;
}
