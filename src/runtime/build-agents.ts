import { Agent, type AgentOptions, type ContextOptions } from '../core/agent.js';
import type { AgentConfig, CorvidConfig } from '../config/corvid-config.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';
import type { Tool } from '../types/tool.js';
import { defaultModelFromEnv, resolveConfigModel } from './resolve-config-model.js';
import { resolveToolRef, type ToolModules } from './load-tool-modules.js';

/** Name of the agent a runtime provides when the config defines none. */
export const DEFAULT_AGENT_NAME = 'assistant';
/** Instructions of that agent. */
export const DEFAULT_INSTRUCTIONS = 'You are a helpful assistant.';

type Env = Record<string, string | undefined>;

/** Context for building agents from a validated config. */
export interface BuildAgentsInput {
  config: CorvidConfig;
  /** Registered code tools by config name. */
  tools: ReadonlyMap<string, Tool>;
  /** Tools of the config's tool modules. */
  toolModules?: ToolModules;
  /** The runtime's environment (real environment over `.env` files). */
  env: Env;
  /** Config file, for issues. */
  file?: string;
}

/**
 * Builds one `Agent` per configured agent (dependencies first, so `agent_tools` wrap the new
 * objects). A config without agents yields the default `assistant` with every registered tool.
 * @throws ConfigError with every problem found (e.g. an invalid CORVID_MODEL, clashing tool names).
 */
export function buildAgents({ config, tools, toolModules = new Map(), env, file }: BuildAgentsInput): Map<string, Agent> {
  const issues: ConfigIssue[] = [];
  const issue = (path: string, message: string): void => {
    issues.push(file ? { file, path, message } : { path, message });
  };
  const modelFor = (ref: string | undefined, path: string): ModelConfig | undefined => {
    try {
      if (ref !== undefined) return resolveConfigModel(ref, config, env);
      const ref2 = config.defaults.model;
      return ref2 !== undefined ? resolveConfigModel(ref2, config, env) : defaultModelFromEnv(config, env);
    } catch (err) {
      issue(path, (err as Error).message);
      return undefined;
    }
  };

  const defs: AgentConfig[] = Object.values(config.agents);
  if (defs.length === 0) {
    defs.push({ name: DEFAULT_AGENT_NAME, instructions: DEFAULT_INSTRUCTIONS, tools: [...tools.keys()], agentTools: [] });
  }
  const byName = new Map(defs.map((d) => [d.name, d]));
  const built = new Map<string, Agent>();
  const build = (def: AgentConfig, chain: string[]): Agent => {
    const done = built.get(def.name);
    if (done) return done;
    if (chain.includes(def.name)) throw new ConfigError(`agent_tools cycle: ${[...chain, def.name].join(' → ')}`);
    const path = `agents.${def.name}`;
    const agentTools: Tool[] = [];
    for (const name of def.agentTools) {
      const other = byName.get(name);
      if (other) agentTools.push(build(other, [...chain, def.name]).asTool());
      else issue(`${path}.agent_tools`, `unknown agent "${name}"`);
    }
    const codeTools: Tool[] = [];
    def.tools.forEach((ref, i) => {
      const r = resolveToolRef(ref, tools, toolModules);
      if ('tools' in r) codeTools.push(...r.tools);
      else issue(`${path}.tools[${i}]`, r.error);
    });
    const seen = new Set<string>();
    for (const t of [...codeTools, ...agentTools]) {
      if (seen.has(t.name)) issue(`${path}.tools`, `agent "${def.name}" would have two tools named "${t.name}"`);
      seen.add(t.name);
    }
    const model = modelFor(def.model, `${path}.model`);
    const context: ContextOptions | undefined = def.context && {
      maxTokens: def.context.maxTokens,
      strategy: def.context.strategy,
      keepRecentMessages: def.context.keepRecentMessages,
      summaryModel: def.context.summaryModel === undefined ? undefined : modelFor(def.context.summaryModel, `${path}.context.summary_model`),
    };
    const options: AgentOptions = {
      name: def.name,
      description: def.description,
      instructions: def.instructions,
      model,
      tools: [...codeTools, ...agentTools],
      maxSteps: def.maxSteps ?? config.defaults.maxSteps,
      // With no model config to carry it, defaults.temperature goes on the agent.
      temperature: def.temperature ?? (model ? undefined : config.defaults.temperature),
      maxTokens: def.maxTokens,
      topP: def.topP,
      reasoning: def.reasoning,
      toolChoice: def.toolChoice,
      toolConcurrency: def.toolConcurrency,
      toolErrors: def.toolErrors,
      toolTimeoutMs: def.toolTimeoutMs,
      context,
    };
    for (const k of Object.keys(options) as Array<keyof AgentOptions>) if (options[k] === undefined) delete options[k];
    const agent = new Agent(options);
    built.set(def.name, agent);
    return agent;
  };
  for (const def of defs) build(def, []);
  if (issues.length > 0) throw new ConfigError(`Cannot build the agents${file ? ` of ${file}` : ''}`, { issues });
  return new Map(defs.map((d) => [d.name, built.get(d.name)!]));
}
