// Agents built from a config resolve their models and run durably: install those services (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';
import { Agent, type AgentOptions, type ContextOptions } from '../core/agent.js';
import type { Runnable } from '../core/runnable.js';
import type { RunLimits } from '../core/run-tree.js';
import { exitLoop, EXIT_LOOP_TOOL } from '../agents/exit-loop.js';
import { askUser, ASK_USER_TOOL } from '../tools/ask-user.js';
import { LoopAgent, type LoopAgentOptions } from '../agents/loop-agent.js';
import { Orchestrator } from '../agents/orchestrator.js';
import { ParallelAgent } from '../agents/parallel-agent.js';
import { Pipeline } from '../agents/pipeline.js';
import { Router } from '../agents/router.js';
import { SequentialAgent } from '../agents/sequential-agent.js';
import { RemoteAgent } from '../a2a/remote-agent.js';
import type { AgentConfig, CorvidConfig, LimitsConfig, UntilConfig } from '../config/corvid-config.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import type { ModelConfig } from '../types/model.js';
import type { Tool } from '../types/tool.js';
import type { Store } from '../storage/types/store.js';
import type { CheckpointOptions } from '../durable/durable-types.js';
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
  /** Opens the runtime's store: LLM agents use it for session runs, checkpoints and approvals. */
  store?: () => Promise<Store>;
}

/**
 * Builds one agent per configured agent — an LLM `Agent` or a workflow agent by `type` — with the
 * agents it runs or calls built first, so `agent_tools`, sub-agents, tasks, stages and routes wrap
 * the new objects; handoffs (`sub_agents` of LLM agents, which may point back) are resolved on first
 * use. A config without agents yields the default `assistant` with every registered tool.
 * @throws ConfigError with every problem found (e.g. an invalid CORVID_MODEL, clashing tool names).
 */
export function buildAgents({ config, tools, toolModules = new Map(), env, file, store }: BuildAgentsInput): Map<string, Runnable> {
  const cp = config.storage?.checkpoints;
  const checkpoints: CheckpointOptions | undefined = cp && { strategy: cp.strategy, intervalMs: cp.intervalMs, ttlMs: cp.ttlMs };
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
  const built = new Map<string, Runnable>();

  const build = (def: AgentConfig, chain: string[]): Runnable | undefined => {
    const done = built.get(def.name);
    if (done) return done;
    if (chain.includes(def.name)) throw new ConfigError(`agent cycle: ${[...chain, def.name].join(' → ')}`);
    const path = `agents.${def.name}`;
    const dep = (name: string, where: string): Runnable | undefined => {
      const other = byName.get(name);
      if (other) return build(other, [...chain, def.name]);
      issue(where, `unknown agent "${name}"`);
      return undefined;
    };
    const deps = (names: string[], where: string): Runnable[] => names.flatMap((n, i) => dep(n, `${where}[${i}]`) ?? []);
    const common = {
      name: def.name,
      description: def.description,
      outputKey: def.outputKey,
      limits: runLimits(def.limits ?? config.defaults.limits),
      store,
    };
    let agent: Runnable;
    try {
      switch (def.type ?? 'llm') {
        case 'llm':
          agent = buildLlm(def, chain);
          break;
        case 'sequential':
          agent = new SequentialAgent({ ...common, subAgents: deps(def.subAgents ?? [], `${path}.sub_agents`) });
          break;
        case 'parallel':
          agent = new ParallelAgent({ ...common, subAgents: deps(def.subAgents ?? [], `${path}.sub_agents`), maxConcurrency: def.maxConcurrency, failFast: def.failFast });
          break;
        case 'loop':
          agent = new LoopAgent({
            ...common,
            subAgents: deps(def.subAgents ?? [], `${path}.sub_agents`),
            maxIterations: def.maxIterations,
            onMaxIterations: def.onMaxIterations,
            until: def.until ? untilPredicate(def.until) : undefined,
          });
          break;
        case 'orchestrator':
          agent = new Orchestrator({
            ...common,
            tasks: (def.tasks ?? []).flatMap((t) => {
              const a = dep(t.agent, `${path}.tasks.${t.id}.agent`);
              return a ? [{ id: t.id, agent: a, input: t.input, dependsOn: t.dependsOn }] : [];
            }),
            maxParallel: def.maxParallel,
            failFast: def.failFast,
          });
          break;
        case 'pipeline':
          agent = new Pipeline({
            ...common,
            stages: (def.stages ?? []).flatMap((st, i) => {
              const a = dep(st.agent, `${path}.stages[${i}]`);
              return a ? [{ name: st.name, agent: a, transform: st.input }] : [];
            }),
          });
          break;
        case 'remote':
          // The A2A client itself loads on the agent's first call.
          agent = new RemoteAgent({ name: def.name, url: def.url ?? '', description: def.description, headers: def.headers, timeoutMs: def.timeoutMs });
          break;
        case 'router': {
          const routes = (def.routes ?? []).flatMap((r, i) => {
            const a = dep(r.agent, `${path}.routes[${i}]`);
            return a ? [{ name: r.name, agent: a, description: r.description, keywords: r.keywords, patterns: r.patterns, priority: r.priority }] : [];
          });
          const d = def.defaultRoute;
          const defaultRoute = d === undefined || routes.some((r) => r.name === d) ? d : dep(d, `${path}.default_route`);
          agent = new Router({
            ...common,
            routes,
            defaultRoute,
            classifier: def.classifier && {
              model: modelFor(def.classifier.model, `${path}.classifier.model`),
              instructions: def.classifier.instructions,
            },
          });
          break;
        }
      }
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      issue(path, (err as Error).message);
      return undefined;
    }
    built.set(def.name, agent);
    return agent;
  };

  const buildLlm = (def: AgentConfig, chain: string[]): Agent => {
    const path = `agents.${def.name}`;
    const persistent = new Set(def.persistentAgentTools ?? []);
    const agentTools: Tool[] = [];
    for (const name of def.agentTools) {
      const other = byName.get(name);
      const target = other ? build(other, [...chain, def.name]) : undefined;
      if (target) agentTools.push(target.asTool(persistent.has(name) ? { persistent: true } : undefined));
      else if (!other) issue(`${path}.agent_tools`, `unknown agent "${name}"`);
    }
    const codeTools: Tool[] = [];
    def.tools.forEach((ref, i) => {
      if (ref === EXIT_LOOP_TOOL && !tools.has(ref) && !toolModules.has(ref)) {
        codeTools.push(exitLoop);
        return;
      }
      if (ref === ASK_USER_TOOL && !tools.has(ref) && !toolModules.has(ref)) {
        codeTools.push(askUser);
        return;
      }
      const r = resolveToolRef(ref, tools, toolModules);
      if ('tools' in r) codeTools.push(...r.tools);
      else issue(`${path}.tools[${i}]`, r.error);
    });
    const seen = new Set<string>();
    for (const t of [...codeTools, ...agentTools]) {
      if (seen.has(t.name)) issue(`${path}.tools`, `agent "${def.name}" would have two tools named "${t.name}"`);
      seen.add(t.name);
    }
    // Handoffs may point back (a specialist transferring to its coordinator): resolved on first run.
    const handoffs = (def.subAgents ?? []).flatMap((name, i) => {
      if (!byName.has(name)) {
        issue(`${path}.sub_agents[${i}]`, `unknown agent "${name}"`);
        return [];
      }
      return [() => built.get(name)!];
    });
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
      handoffs: handoffs.length > 0 ? handoffs : undefined,
      outputKey: def.outputKey,
      limits: runLimits(def.limits ?? config.defaults.limits),
      store,
      checkpoints,
      requireApproval: def.requireApproval,
    };
    if (def.requireApproval !== undefined && !config.mcpServers) {
      for (const name of Object.keys(def.requireApproval)) {
        if (!seen.has(name)) issue(`${path}.require_approval`, `agent "${def.name}" has no tool named "${name}" (its tools: ${[...seen].join(', ') || 'none'})`);
      }
    }
    for (const k of Object.keys(options) as Array<keyof AgentOptions>) if (options[k] === undefined) delete options[k];
    return new Agent(options);
  };

  for (const def of defs) build(def, []);
  if (issues.length > 0) throw new ConfigError(`Cannot build the agents${file ? ` of ${file}` : ''}`, { issues });
  return new Map(defs.map((d) => [d.name, built.get(d.name)!]));
}

function runLimits(l: LimitsConfig | undefined): RunLimits | undefined {
  return l && Object.keys(l).length > 0 ? { ...l } : undefined;
}

/** A loop's `until:` as a predicate over the run state. */
function untilPredicate(u: UntilConfig): LoopAgentOptions['until'] {
  if (u.state !== undefined) {
    const key = u.state;
    return ({ state }) => (u.equals === undefined ? Boolean(state.session.get(key)) : state.session.get(key) === u.equals);
  }
  const re = new RegExp(u.matches ?? '', 'i');
  const name = u.output ?? '';
  return ({ state }) => {
    const v = state.outputs.get(name);
    return typeof v === 'string' && re.test(v);
  };
}
