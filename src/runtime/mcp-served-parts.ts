import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { z } from 'zod';

import type { McpContentConfig, McpPromptConfig, McpResourceConfig } from '../config/corvid-config.js';
import { Agent } from '../core/agent.js';
import { ASKS_USER } from '../core/asks-user.js';
import type { Runnable } from '../core/runnable.js';
import { ConfigError } from '../errors/config-error.js';
import type { McpServedPrompt } from '../mcp/server/served-prompt.js';
import type { McpServedResource } from '../mcp/server/served-resource.js';
import type { Tool } from '../types/tool.js';
import type { Runtime } from './load-runtime.js';
import { loadToolModules } from './load-tool-modules.js';

/** Everything a config serves over MCP: `createMcpServer`'s options. */
export interface McpServedParts {
  name: string;
  instructions?: string;
  tools: Tool[];
  agents: Runnable[];
  resources: McpServedResource[];
  prompts: McpServedPrompt[];
}

/** Options of `mcpServedParts`. */
export interface McpServedPartsOptions {
  /** The agents to serve as tools. Default: every agent of the runtime. */
  agents?: Runnable[];
  /** Where relative paths of the config point from (the config file's directory). */
  baseDir: string;
}

const MIME_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.yaml': 'text/yaml',
  '.yml': 'text/yaml',
};

/**
 * What a config serves over MCP (`corvid mcp serve`, and `corvid serve` at `/mcp`): every tool
 * of its tool modules, every tool its agents use (built-in memory tools, tools of its MCP
 * servers, code tools), every tool of its MCP servers (proxied), its agents as tools, and the
 * resources and prompts of its `mcp:` section. Not served: `ask_user` (it ends an agent's turn)
 * and tools that need approval, since an MCP caller cannot give one. A tool name is served once
 * (the first one wins, in that order).
 * @throws ConfigError when a module of `mcp.modules` cannot be loaded or exports nothing usable.
 */
export async function mcpServedParts(runtime: Runtime, options: McpServedPartsOptions): Promise<McpServedParts> {
  const content = runtime.config.mcp;
  const agents = options.agents ?? [...runtime.agents.values()];
  const tools = new Map<string, Tool>();
  // ask_user only means something inside an agent's turn, and a tool that waits for a human's
  // approval (the tool's own `requireApproval`, or an agent's `require_approval`) has nobody to
  // approve it over MCP: neither is served as a tool (the agents using them still are).
  const guarded = new Set<string>();
  for (const def of Object.values(runtime.config.agents)) for (const name of Object.keys(def.requireApproval ?? {})) guarded.add(name);
  const add = (t: Tool) =>
    void (tools.has(t.name) || ASKS_USER in t || needsApproval(t) || guarded.has(t.name) ? undefined : tools.set(t.name, t));
  const modules = await loadToolModules(runtime.config.toolModules, options.baseDir);
  for (const m of modules.modules.values()) for (const t of m.values()) add(t);
  for (const agent of runtime.agents.values()) if (agent instanceof Agent) for (const t of agent.tools) add(t);
  if (runtime.mcp) for (const settled of await runtime.mcp.toolsSettled()) if ('tools' in settled) for (const t of settled.tools) add(t);
  const { resources, prompts } = content ? await contentOf(content, options.baseDir) : { resources: [], prompts: [] };
  return { name: content?.name ?? 'corvid', instructions: content?.instructions, tools: [...tools.values()], agents, resources, prompts };
}

function needsApproval(t: Tool): boolean {
  return t.requireApproval !== undefined && t.requireApproval !== false;
}

async function contentOf(
  content: McpContentConfig,
  baseDir: string,
): Promise<{ resources: McpServedResource[]; prompts: McpServedPrompt[] }> {
  const { mcpPrompt, mcpResource } = await import('../mcp/index.js');
  const resources: McpServedResource[] = Object.entries(content.resources).map(([name, r]) =>
    mcpResource(resourceDefinition(name, r, baseDir)),
  );
  const prompts: McpServedPrompt[] = Object.entries(content.prompts).map(([name, p]) => mcpPrompt(promptDefinition(name, p)));
  for (const module of content.modules) {
    const spec = module.startsWith('.') || isAbsolute(module) ? pathToFileURL(resolve(baseDir, module)).href : module;
    let ns: { resources?: unknown; prompts?: unknown };
    try {
      ns = (await import(spec)) as typeof ns;
    } catch (err) {
      throw new ConfigError(`mcp.modules: cannot import "${module}": ${(err as Error).message}`, { cause: err });
    }
    const more = [...listOf(ns.resources, 'resource', module), ...listOf(ns.prompts, 'prompt', module)];
    if (more.length === 0)
      throw new ConfigError(
        `mcp.modules: "${module}" exports no \`resources\` or \`prompts\` (arrays made with mcpResource, mcpResourceTemplate and mcpPrompt)`,
      );
    for (const item of more) (item.kind === 'prompt' ? prompts : resources).push(item as never);
  }
  return { resources, prompts };
}

function listOf(value: unknown, what: 'resource' | 'prompt', module: string): Array<{ kind: string }> {
  if (value === undefined) return [];
  const ok = (v: unknown) =>
    typeof v === 'object' &&
    v !== null &&
    (what === 'prompt'
      ? (v as { kind?: string }).kind === 'prompt'
      : ['resource', 'template'].includes((v as { kind?: string }).kind ?? ''));
  if (!Array.isArray(value) || !value.every(ok)) {
    throw new ConfigError(
      `mcp.modules: the \`${what}s\` export of "${module}" must be an array made with ${what === 'prompt' ? 'mcpPrompt' : 'mcpResource / mcpResourceTemplate'}`,
    );
  }
  return value as Array<{ kind: string }>;
}

function resourceDefinition(name: string, r: McpResourceConfig, baseDir: string) {
  const file = r.file === undefined ? undefined : resolve(baseDir, r.file);
  const mimeType = r.mimeType ?? (file ? (MIME_TYPES[extname(file).toLowerCase()] ?? 'text/plain') : 'text/plain');
  return {
    uri: r.uri,
    name,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    mimeType,
    read: async () => (file === undefined ? r.text! : readFile(file, 'utf8')),
  };
}

function promptDefinition(name: string, p: McpPromptConfig) {
  const shape: Record<string, z.ZodType<string | undefined>> = {};
  for (const [arg, d] of Object.entries(p.arguments)) {
    const base = d.description === undefined ? z.string() : z.string().describe(d.description);
    shape[arg] = d.required ? base : base.optional();
  }
  return {
    name,
    ...(p.title !== undefined ? { title: p.title } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(Object.keys(shape).length > 0 ? { arguments: z.object(shape) } : {}),
    get: (args: Record<string, string | undefined>) =>
      p.template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, key: string) => (key in p.arguments ? (args[key] ?? '') : whole)),
  };
}
