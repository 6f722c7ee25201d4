import type { ModelConfig, ModelInput } from '../types/model.js';
import { withBaseUrlFromEnv } from './base-url-env.js';
import { ollamaBaseURL } from './create-provider-model.js';
import { parseModelId } from './parse-model-id.js';

/** Where each provider's API is when no base URL is configured. */
const DEFAULT_HOSTS: Record<string, string> = {
  openai: 'api.openai.com',
  anthropic: 'api.anthropic.com',
  google: 'generativelanguage.googleapis.com',
};

/** A model as a person reads it in a status line: `provider:model` and the host requests go to. */
export interface ModelEndpoint {
  /** `provider:model`. */
  model: string;
  /** `host[:port]` of the API, when known (not for a model object given in code). */
  host?: string;
}

/**
 * The model a reference names and the host its requests go to, with the same base-URL rules as
 * `resolveModel` (the config's `baseURL`, else the environment's). `undefined` for no model (the
 * default-model rules pick one at the first run).
 * @example modelEndpoint('openai:gpt-4.1-mini', {}) // { model: 'openai:gpt-4.1-mini', host: 'api.openai.com' }
 */
export function modelEndpoint(input: ModelInput | undefined, env: NodeJS.ProcessEnv = process.env): ModelEndpoint | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'object' && 'specificationVersion' in input) return { model: `${input.provider}:${input.modelId}` };
  const config = withBaseUrlFromEnv(typeof input === 'string' ? parseLoosely(input) : input, env);
  const url = config.baseURL ?? (config.provider === 'ollama' ? ollamaBaseURL(env) : undefined);
  const host = url ? hostOf(url) : DEFAULT_HOSTS[config.provider];
  return host ? { model: `${config.provider}:${config.model}`, host } : { model: `${config.provider}:${config.model}` };
}

/** `openai:gpt-4.1-mini at api.openai.com`, or `the model` when it is not known yet. */
export function describeEndpoint(endpoint: ModelEndpoint | undefined): string {
  if (!endpoint) return 'the model';
  return endpoint.host ? `${endpoint.model} at ${endpoint.host}` : endpoint.model;
}

/** A `provider:model` id as a config; an invalid one is shown as written (the run reports it). */
function parseLoosely(id: string): ModelConfig {
  try {
    return parseModelId(id);
  } catch {
    return { provider: id.split(':')[0], model: id.slice(id.indexOf(':') + 1) };
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
