import { z } from 'zod';

import { canonicalProvider } from '../models/parse-model-id.js';
import type { ModelConfig, ReasoningSettings, ToolChoice } from '../types/model.js';
import { normalizeCode } from './code-config-schema.js';
import type { agentSchema, configFileSchema, limitsSchema, modelSchema, reasoningSchema } from './config-file-schema.js';
import type { AgentConfig, CorvidConfig, LimitsConfig, McpContentConfig } from './corvid-config.js';
import { normalizeEmbedders, normalizeKnowledge } from './knowledge-schema.js';
import { normalizeMcpServers } from './mcp-servers-schema.js';
import { normalizeQueue } from './queue-schema.js';
import { normalizeSchedules } from './schedules-schema.js';
import { normalizeServer } from './server-config-schema.js';
import { normalizeStorage } from './storage-schema.js';

type FileConfig = z.output<typeof configFileSchema>;
type FileModel = z.output<typeof modelSchema>;
type FileAgent = z.output<typeof agentSchema>;

/** Drops keys whose value is undefined, so normalised objects print cleanly. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

function reasoning(r: z.output<typeof reasoningSchema> | undefined): ReasoningSettings | undefined {
  return r && compact({ effort: r.effort, budgetTokens: r.budget_tokens });
}

function model(m: FileModel): ModelConfig {
  const raw = m.provider.toLowerCase();
  return compact<ModelConfig>({
    provider: canonicalProvider(raw) ?? raw,
    model: m.model,
    apiKey: m.api_key || undefined,
    baseURL: m.base_url || undefined,
    headers: m.headers,
    api: m.api ?? (raw === 'openai-chat' ? 'chat' : undefined),
    temperature: m.temperature,
    maxTokens: m.max_tokens,
    topP: m.top_p,
    reasoning: reasoning(m.reasoning),
    toolMode: m.tool_mode,
    timeoutMs: m.timeout_ms,
    firstByteTimeoutMs: m.first_byte_timeout_ms,
    retry:
      m.retry && compact({ maxRetries: m.retry.max_retries, initialDelayMs: m.retry.initial_delay_ms, maxDelayMs: m.retry.max_delay_ms }),
    providerOptions: m.provider_options,
    contextWindow: m.context_window,
  });
}

function limits(l: z.output<typeof limitsSchema> | undefined): LimitsConfig | undefined {
  return (
    l &&
    compact({
      maxDepth: l.max_depth,
      maxTotalSteps: l.max_total_steps,
      maxTotalTokens: l.max_total_tokens,
      maxDurationMs: l.max_duration_ms,
    })
  );
}

/** An agent's `knowledge` (list or `{ bases, … }`) as `knowledge` + `knowledgeUse`. */
function agentKnowledge(k: FileAgent['knowledge']): Pick<AgentConfig, 'knowledge' | 'knowledgeUse'> {
  if (k === undefined) return {};
  if (Array.isArray(k)) return k.length ? { knowledge: k } : {};
  const inject = k.inject ? compact({ budgetTokens: k.budget_tokens, topK: k.top_k }) : undefined;
  return { knowledge: k.bases, knowledgeUse: compact({ tool: k.tool !== false, inject }) };
}

function agent(name: string, a: FileAgent): AgentConfig {
  const toolChoice: ToolChoice | undefined = a.tool_choice;
  const agentTools = (a.agent_tools ?? []).map((t) => (typeof t === 'string' ? t : t.agent));
  const persistent = (a.agent_tools ?? []).flatMap((t) => (typeof t !== 'string' && t.persistent ? [t.agent] : []));
  return compact<AgentConfig>({
    name,
    type: a.type === 'llm' ? undefined : a.type,
    description: a.description,
    model: a.model,
    instructions: a.instructions,
    tools: a.tools ?? [],
    ...agentKnowledge(a.knowledge),
    agentTools,
    persistentAgentTools: persistent.length ? persistent : undefined,
    subAgents: a.sub_agents,
    outputKey: a.output_key,
    maxSteps: a.max_steps,
    temperature: a.temperature,
    maxTokens: a.max_tokens,
    topP: a.top_p,
    reasoning: reasoning(a.reasoning),
    toolChoice,
    toolConcurrency: a.tool_concurrency,
    toolErrors: a.tool_errors,
    toolTimeoutMs: a.tool_timeout_ms,
    requireApproval: Array.isArray(a.require_approval)
      ? Object.fromEntries(a.require_approval.map((t) => [t, true as const]))
      : a.require_approval,
    context:
      a.context &&
      compact({
        maxTokens: a.context.max_tokens,
        strategy: a.context.strategy,
        keepRecentMessages: a.context.keep_recent_messages,
        summaryModel: a.context.summary_model,
      }),
    limits: limits(a.limits),
    guardrails: a.guardrails,
    scoring: a.scoring,
    maxConcurrency: a.max_concurrency,
    failFast: a.fail_fast,
    maxIterations: a.max_iterations,
    until: a.until && compact({ state: a.until.state, equals: a.until.equals, output: a.until.output, matches: a.until.matches }),
    onMaxIterations: a.on_max_iterations,
    tasks:
      a.tasks && Object.entries(a.tasks).map(([id, t]) => compact({ id, agent: t.agent, input: t.input, dependsOn: t.depends_on ?? [] })),
    maxParallel: a.max_parallel,
    stages: a.stages?.map((s) =>
      typeof s === 'string' ? { name: s, agent: s } : compact({ name: s.name ?? s.agent, agent: s.agent, input: s.input }),
    ),
    routes: a.routes?.map((r) =>
      typeof r === 'string'
        ? { name: r, agent: r }
        : compact({
            name: r.name ?? r.agent,
            agent: r.agent,
            description: r.description,
            keywords: r.keywords,
            patterns: r.patterns,
            priority: r.priority,
          }),
    ),
    defaultRoute: a.default_route,
    classifier: a.classifier && compact({ model: a.classifier.model, instructions: a.classifier.instructions }),
    visibility: a.visibility,
    url: a.url,
    headers: a.headers,
    timeoutMs: a.timeout === undefined ? undefined : durationMs(a.timeout),
    a2a: a.a2a && compact({ version: a.a2a.version, skills: a.a2a.skills }),
  });
}

/** Milliseconds of a schema-valid duration (`30s`, `500ms`, `2m`, or a number of ms). */
function durationMs(d: number | string): number {
  if (typeof d === 'number') return d;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(d)!;
  return Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000));
}

/** `mcp:` normalised: camelCase, arguments required unless they say otherwise. */
function mcpContent(m: NonNullable<FileConfig['mcp']>): McpContentConfig {
  return compact({
    name: m.name,
    instructions: m.instructions,
    resources: Object.fromEntries(
      Object.entries(m.resources ?? {}).map(([k, r]) => [
        k,
        compact({ uri: r.uri, title: r.title, description: r.description, mimeType: r.mime_type, text: r.text, file: r.file }),
      ]),
    ),
    prompts: Object.fromEntries(
      Object.entries(m.prompts ?? {}).map(([k, p]) => [
        k,
        compact({
          title: p.title,
          description: p.description,
          arguments: Object.fromEntries(
            Object.entries(p.arguments ?? {}).map(([a, d]) => [a, compact({ description: d.description, required: d.required ?? true })]),
          ),
          template: p.template,
        }),
      ]),
    ),
    modules: m.modules ?? [],
  }) as McpContentConfig;
}

/** Converts schema-valid file data (snake_case) into the normalised `CorvidConfig`. */
export function normalizeConfig(file: FileConfig): CorvidConfig {
  const d = file.defaults ?? {};
  return {
    version: 1,
    defaults: compact({
      model: d.model,
      agent: d.agent,
      maxSteps: d.max_steps,
      temperature: d.temperature,
      toolMode: d.tool_mode,
      limits: limits(d.limits),
    }),
    models: Object.fromEntries(Object.entries(file.models ?? {}).map(([k, m]) => [k, model(m)])),
    toolModules: Object.fromEntries(
      Object.entries(file.tools ?? {}).map(([k, t]) => [k, 'module' in t ? compact({ module: t.module, export: t.export }) : t]),
    ),
    ...(file.mcp_servers && Object.keys(file.mcp_servers).length > 0 ? { mcpServers: normalizeMcpServers(file.mcp_servers) } : {}),
    ...(file.mcp ? { mcp: mcpContent(file.mcp) } : {}),
    ...(file.embedders && Object.keys(file.embedders).length > 0 ? { embedders: normalizeEmbedders(file.embedders) } : {}),
    ...(file.knowledge && Object.keys(file.knowledge).length > 0 ? { knowledge: normalizeKnowledge(file.knowledge) } : {}),
    agents: Object.fromEntries(Object.entries(file.agents ?? {}).map(([k, a]) => [k, agent(k, a)])),
    ...(file.server ? { server: normalizeServer(file.server) } : {}),
    ...(file.code ? { code: normalizeCode(file.code) } : {}),
    ...(file.storage ? { storage: normalizeStorage(file.storage) } : {}),
    ...(file.cassette
      ? { cassette: compact({ path: file.cassette.path, mode: file.cassette.mode, liveTools: file.cassette.live_tools }) }
      : {}),
    ...(file.queue ? { queue: normalizeQueue(file.queue) } : {}),
    ...(file.schedules && Object.keys(file.schedules).length > 0 ? { schedules: normalizeSchedules(file.schedules) } : {}),
  };
}

/** An empty config (no file): no models, no agents; the runtime adds the default assistant. */
export function emptyConfig(): CorvidConfig {
  return { version: 1, defaults: {}, models: {}, toolModules: {}, agents: {} };
}
