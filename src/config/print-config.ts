import { stringify } from 'yaml';
import type { ModelConfig } from '../types/model.js';
import type { AgentConfig, CorvidConfig } from './corvid-config.js';

/** What secrets are replaced with. */
export const SECRET_MASK = '***';

const SECRET_NAME = /(authorization|api[-_]?key|token|secret|password|cookie|credential)/i;

function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) && v !== undefined && v !== '' ? SECRET_MASK : maskSecrets(v)]));
}

function redactModel(m: ModelConfig): ModelConfig {
  const out: ModelConfig = { ...m };
  if (out.apiKey) out.apiKey = SECRET_MASK;
  if (out.headers) out.headers = maskSecrets(out.headers) as Record<string, string>;
  if (out.providerOptions) out.providerOptions = maskSecrets(out.providerOptions) as ModelConfig['providerOptions'];
  return out;
}

/**
 * A copy of the config with secrets masked as `***`: every `apiKey`, and header and
 * provider-option values whose names look secret (authorization, api-key, token, secret…).
 */
export function redactConfig(config: CorvidConfig): CorvidConfig {
  return {
    ...config,
    models: Object.fromEntries(Object.entries(config.models).map(([k, m]) => [k, redactModel(m)])),
  };
}

const snake = (k: string): string => (k === 'baseURL' ? 'base_url' : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** Renames camelCase keys to snake_case, except inside user-keyed maps (headers, provider options). */
function toFileKeys(value: unknown, verbatim: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => toFileKeys(v, verbatim));
  if (typeof value !== 'object' || value === null || verbatim) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), toFileKeys(v, k === 'headers' || k === 'providerOptions')]));
}

function agentToFile(a: AgentConfig): Record<string, unknown> {
  const { name: _name, tools, agentTools, ...rest } = a;
  const out = toFileKeys(rest, false) as Record<string, unknown>;
  return { ...out, ...(tools.length ? { tools } : {}), ...(agentTools.length ? { agent_tools: agentTools } : {}) };
}

/**
 * The config in file form (snake_case) with secrets masked, as YAML or JSON: what
 * `corvid --print-config` shows. Interpolated values appear resolved, except secrets.
 */
export function printConfig(config: CorvidConfig, format: 'yaml' | 'json' = 'yaml'): string {
  const c = redactConfig(config);
  const file: Record<string, unknown> = { version: c.version };
  if (Object.keys(c.defaults).length) file.defaults = toFileKeys(c.defaults, false);
  if (Object.keys(c.models).length) file.models = Object.fromEntries(Object.entries(c.models).map(([k, m]) => [k, toFileKeys(m, false)]));
  if (Object.keys(c.agents).length) file.agents = Object.fromEntries(Object.entries(c.agents).map(([k, a]) => [k, agentToFile(a)]));
  return format === 'json' ? `${JSON.stringify(file, null, 2)}\n` : stringify(file, { lineWidth: 0 });
}
