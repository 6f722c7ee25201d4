import { stringify } from 'yaml';

import type { McpServerConfig } from '../mcp/mcp-server-config.js';
import { maskUrl } from '../storage/shared/location.js';
import type { ModelConfig } from '../types/model.js';
import type { AgentConfig, CorvidConfig } from './corvid-config.js';
import type { KnowledgeBaseConfig } from './knowledge-schema.js';
import { queueToFile } from './queue-schema.js';
import { schedulesToFile } from './schedules-schema.js';
import { storageToFile } from './storage-schema.js';

/** What secrets are replaced with. */
export const SECRET_MASK = '***';

const SECRET_NAME = /(authorization|api[-_]?key|token|secret|password|cookie|credential)/i;

function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) && v !== undefined && v !== '' ? SECRET_MASK : maskSecrets(v)]),
  );
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
    ...(config.mcpServers
      ? { mcpServers: Object.fromEntries(Object.entries(config.mcpServers).map(([k, m]) => [k, redactMcpServer(m)])) }
      : {}),
    // Embedders: `apiKey` and secret-looking header values.
    ...(config.embedders ? { embedders: maskSecrets(config.embedders) as CorvidConfig['embedders'] } : {}),
    ...(config.storage?.url ? { storage: { ...config.storage, url: maskUrl(config.storage.url) } } : {}),
    ...(config.queue?.url ? { queue: { ...config.queue, url: maskUrl(config.queue.url) } } : {}),
  };
}

/** An MCP server with its bearer token, client secret and secret-looking headers / env values masked. */
function redactMcpServer(m: McpServerConfig): McpServerConfig {
  if (m.transport === 'stdio') return m.env ? { ...m, env: maskSecrets(m.env) as Record<string, string> } : m;
  const out = { ...m };
  if (out.headers) out.headers = maskSecrets(out.headers) as Record<string, string>;
  if (out.auth?.type === 'bearer') out.auth = { ...out.auth, token: SECRET_MASK };
  else if (out.auth?.clientSecret) out.auth = { ...out.auth, clientSecret: SECRET_MASK };
  return out;
}

/** An MCP server in file form (`transport` only when not the default). */
function mcpServerToFile(m: McpServerConfig): Record<string, unknown> {
  const { transport, ...rest } = m;
  const env = m.transport === 'stdio' ? m.env : undefined;
  const out = toFileKeys({ ...rest, env: undefined }, false) as Record<string, unknown>;
  delete out.env;
  if (transport !== 'stdio' && transport !== 'http') out.transport = transport;
  return { ...out, ...(env ? { env } : {}) };
}

const snake = (k: string): string => (k === 'baseURL' ? 'base_url' : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/** Renames camelCase keys to snake_case, except inside user-keyed maps (headers, provider options). */
function toFileKeys(value: unknown, verbatim: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => toFileKeys(v, verbatim));
  if (typeof value !== 'object' || value === null || verbatim) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), toFileKeys(v, k === 'headers' || k === 'providerOptions')]));
}

function knowledgeToFile(kb: KnowledgeBaseConfig): Record<string, unknown> {
  const { chunking, ...rest } = kb;
  const out = toFileKeys(rest, false) as Record<string, unknown>;
  if (chunking) {
    const { maxTokens, overlapTokens, ...other } = chunking;
    out.chunking = {
      ...other,
      ...(maxTokens !== undefined ? { size: maxTokens } : {}),
      ...(overlapTokens !== undefined ? { overlap: overlapTokens } : {}),
    };
  }
  return out;
}

function agentToFile(a: AgentConfig): Record<string, unknown> {
  const { name: _name, tools, agentTools, persistentAgentTools, tasks, stages, routes, knowledgeUse, ...rest } = a;
  const out = toFileKeys(rest, false) as Record<string, unknown>;
  if (knowledgeUse && a.knowledge) {
    const inject = knowledgeUse.inject;
    out.knowledge = {
      bases: a.knowledge,
      ...(knowledgeUse.tool ? {} : { tool: false }),
      ...(inject ? { inject: true } : {}),
      ...(inject?.budgetTokens !== undefined ? { budget_tokens: inject.budgetTokens } : {}),
      ...(inject?.topK !== undefined ? { top_k: inject.topK } : {}),
    };
  }
  const persistent = new Set(persistentAgentTools ?? []);
  const agentToolEntries = agentTools.map((t) => (persistent.has(t) ? { agent: t, persistent: true } : t));
  if (tasks) {
    out.tasks = Object.fromEntries(
      tasks.map((t) => [
        t.id,
        {
          agent: t.agent,
          ...(t.input !== undefined ? { input: t.input } : {}),
          ...(t.dependsOn.length ? { depends_on: t.dependsOn } : {}),
        },
      ]),
    );
  }
  if (stages) out.stages = stages.map((s) => (s.name === s.agent && s.input === undefined ? s.agent : toFileKeys(s, false)));
  if (routes) out.routes = routes.map((r) => (Object.keys(r).length === 2 && r.name === r.agent ? r.agent : toFileKeys(r, false)));
  return { ...out, ...(tools.length ? { tools } : {}), ...(agentTools.length ? { agent_tools: agentToolEntries } : {}) };
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
  if (c.mcpServers && Object.keys(c.mcpServers).length)
    file.mcp_servers = Object.fromEntries(Object.entries(c.mcpServers).map(([k, m]) => [k, mcpServerToFile(m)]));
  if (c.embedders) file.embedders = Object.fromEntries(Object.entries(c.embedders).map(([k, e]) => [k, toFileKeys(e, false)]));
  if (c.knowledge) file.knowledge = Object.fromEntries(Object.entries(c.knowledge).map(([k, kb]) => [k, knowledgeToFile(kb)]));
  if (c.storage) file.storage = storageToFile(c.storage, maskUrl);
  if (c.queue) file.queue = queueToFile(c.queue, maskUrl);
  if (c.schedules) file.schedules = schedulesToFile(c.schedules);
  if (Object.keys(c.agents).length) file.agents = Object.fromEntries(Object.entries(c.agents).map(([k, a]) => [k, agentToFile(a)]));
  return format === 'json' ? `${JSON.stringify(file, null, 2)}\n` : stringify(file, { lineWidth: 0 });
}
