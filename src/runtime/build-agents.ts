// Agents built from a config resolve their models and run durably: install those services (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';

import { RemoteAgent } from '../a2a/client/remote-agent.js';
import { EXIT_LOOP_TOOL, exitLoop } from '../agents/exit-loop.js';
import { LoopAgent, type LoopAgentOptions } from '../agents/loop-agent.js';
import { Orchestrator } from '../agents/orchestrator.js';
import { ParallelAgent } from '../agents/parallel-agent.js';
import { Pipeline } from '../agents/pipeline.js';
import { Router } from '../agents/router.js';
import { SequentialAgent } from '../agents/sequential-agent.js';
import type { AgentConfig, CorvidConfig, LimitsConfig, UntilConfig } from '../config/corvid-config.js';
import { Agent, type AgentOptions, type ContextOptions } from '../core/agent.js';
import type { RunLimits } from '../core/run-tree.js';
import type { Runnable } from '../core/runnable.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { ASK_USER_TOOL, askUser } from '../tools/ask-user.js';
import type { ContextProvider } from '../types/context-provider.js';
import type { CheckpointOptions } from '../types/durable-options.js';
import type { ModelCassette, ModelConfig } from '../types/model.js';
import type { RunSubmitter } from '../types/run-submission.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { configGuardrails, configScoring } from './config-guardrails.js';
import { resolveToolRef, type ToolModules } from './load-tool-modules.js';
import { defaultModelFromEnv, resolveConfigModel } from './resolve-config-model.js';

/** Name of the agent a runtime provides when the config defines none. */
export const DEFAULT_AGENT_NAME = 'assistant';
/** Instructions of that agent. */
export const DEFAULT_INSTRUCTIONS = 'You are a helpful assistant.';

type Env = Record<string, string | undefined>;

/** Context for building agents from a validated config. */
export interface BuildAgentsInput {
  config: CorvidConfig;
  /** Records / replays the calls of every model the config names (`cassette:`, `corvid run --cassette`). */
  cassette?: ModelCassette;
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
  /** The runtime's background runs: LLM agents' `submit()` queues its runs there. */
  runs?: () => RunSubmitter;
  /** The search tools for an agent's `knowledge` list (present when the config has `knowledge:`). */
  knowledgeTools?: (names: readonly string[]) => Tool[];
  /** Inject mode: context providers for an agent's `knowledge` bases (present when the config has `knowledge:`). */
  knowledgeContext?: (names: readonly string[], options: { budgetTokens?: number; topK?: number }) => ContextProvider[];
  /** Where live scores (`scoring:`) are appended, as JSON lines. Default: not written. */
  scoresFile?: string;
}

/**
 * Builds one agent per configured agent — an LLM `Agent` or a workflow agent by `type` — with the
 * agents it runs or calls built first, so `agent_tools`, sub-agents, tasks, stages and routes wrap
 * the new objects; handoffs (`sub_agents` of LLM agents, which may point back) are resolved on first
 * use. A config without agents yields the default `assistant` with every registered tool.
 * @throws ConfigError with every problem found (e.g. an invalid CORVID_MODEL, clashing tool names).
 */
export function buildAgents(input: BuildAgentsInput): Map<string, Runnable> {
  return new AgentBuilder(input).buildAll();
}

/** Options every workflow agent takes. */
interface CommonOptions {
  name: string;
  description?: string;
  outputKey?: string;
  limits?: RunLimits;
  store?: () => Promise<Store>;
}

/** The agents of one config, built once each, in dependency order, with the issues found on the way. */
class AgentBuilder {
  private readonly issues: ConfigIssue[] = [];
  private readonly defs: AgentConfig[];
  private readonly byName: Map<string, AgentConfig>;
  private readonly built = new Map<string, Runnable>();
  private readonly checkpoints: CheckpointOptions | undefined;
  private readonly config: CorvidConfig;
  private readonly tools: ReadonlyMap<string, Tool>;
  private readonly toolModules: ToolModules;

  constructor(private readonly input: BuildAgentsInput) {
    this.config = input.config;
    this.tools = input.tools;
    this.toolModules = input.toolModules ?? new Map();
    const cp = input.config.storage?.checkpoints;
    this.checkpoints = cp && { strategy: cp.strategy, intervalMs: cp.intervalMs, ttlMs: cp.ttlMs };
    this.defs = Object.values(input.config.agents);
    if (this.defs.length === 0) {
      this.defs.push({ name: DEFAULT_AGENT_NAME, instructions: DEFAULT_INSTRUCTIONS, tools: [...input.tools.keys()], agentTools: [] });
    }
    this.byName = new Map(this.defs.map((d) => [d.name, d]));
  }

  /** Every agent by name, or a `ConfigError` with every issue. */
  buildAll(): Map<string, Runnable> {
    for (const def of this.defs) this.build(def, []);
    const file = this.input.file;
    if (this.issues.length > 0) throw new ConfigError(`Cannot build the agents${file ? ` of ${file}` : ''}`, { issues: this.issues });
    return new Map(this.defs.map((d) => [d.name, this.built.get(d.name)!]));
  }

  private issue(path: string, message: string): void {
    const file = this.input.file;
    this.issues.push(file ? { file, path, message } : { path, message });
  }

  /** The model of `ref`, else of `defaults.model`, else from the environment; an issue at `path` when it is wrong. */
  private modelFor(ref: string | undefined, path: string): ModelConfig | undefined {
    const { config, env, cassette } = this.input;
    try {
      const fallback = config.defaults.model;
      const model =
        ref !== undefined
          ? resolveConfigModel(ref, config, env)
          : fallback !== undefined
            ? resolveConfigModel(fallback, config, env)
            : defaultModelFromEnv(config, env);
      return model !== undefined && cassette !== undefined ? { ...model, cassette } : model;
    } catch (err) {
      this.issue(path, (err as Error).message);
      return undefined;
    }
  }

  /** Agent `def` (built once), its dependencies first; `chain` is the path of agents that led here (cycle check). */
  private build(def: AgentConfig, chain: string[]): Runnable | undefined {
    const done = this.built.get(def.name);
    if (done) return done;
    if (chain.includes(def.name)) throw new ConfigError(`agent cycle: ${[...chain, def.name].join(' → ')}`);
    let agent: Runnable;
    try {
      agent = this.create(def, [...chain, def.name]);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      this.issue(`agents.${def.name}`, (err as Error).message);
      return undefined;
    }
    this.built.set(def.name, agent);
    return agent;
  }

  /** The agent named `name`, built (an issue at `where` when there is none). */
  private dep(name: string, where: string, chain: string[]): Runnable | undefined {
    const other = this.byName.get(name);
    if (other) return this.build(other, chain);
    this.issue(where, `unknown agent "${name}"`);
    return undefined;
  }

  private deps(names: string[], where: string, chain: string[]): Runnable[] {
    return names.flatMap((n, i) => this.dep(n, `${where}[${i}]`, chain) ?? []);
  }

  /** The agent of `def` by its `type`; `chain` ends with `def.name`. */
  private create(def: AgentConfig, chain: string[]): Runnable {
    const path = `agents.${def.name}`;
    const common: CommonOptions = {
      name: def.name,
      description: def.description,
      outputKey: def.outputKey,
      limits: runLimits(def.limits ?? this.config.defaults.limits),
      store: this.input.store,
    };
    const type = def.type ?? 'llm';
    switch (type) {
      case 'llm':
        return this.llm(def, chain);
      case 'sequential':
        return new SequentialAgent({ ...common, subAgents: this.deps(def.subAgents ?? [], `${path}.sub_agents`, chain) });
      case 'parallel':
        return new ParallelAgent({
          ...common,
          subAgents: this.deps(def.subAgents ?? [], `${path}.sub_agents`, chain),
          maxConcurrency: def.maxConcurrency,
          failFast: def.failFast,
        });
      case 'loop':
        return new LoopAgent({
          ...common,
          subAgents: this.deps(def.subAgents ?? [], `${path}.sub_agents`, chain),
          maxIterations: def.maxIterations,
          onMaxIterations: def.onMaxIterations,
          until: def.until ? untilPredicate(def.until) : undefined,
        });
      case 'orchestrator':
        return new Orchestrator({
          ...common,
          tasks: (def.tasks ?? []).flatMap((t) => {
            const a = this.dep(t.agent, `${path}.tasks.${t.id}.agent`, chain);
            return a ? [{ id: t.id, agent: a, input: t.input, dependsOn: t.dependsOn }] : [];
          }),
          maxParallel: def.maxParallel,
          failFast: def.failFast,
        });
      case 'pipeline':
        return new Pipeline({
          ...common,
          stages: (def.stages ?? []).flatMap((st, i) => {
            const a = this.dep(st.agent, `${path}.stages[${i}]`, chain);
            return a ? [{ name: st.name, agent: a, transform: st.input }] : [];
          }),
        });
      case 'remote':
        // The A2A client itself loads on the agent's first call.
        return new RemoteAgent({
          name: def.name,
          url: def.url ?? '',
          description: def.description,
          headers: def.headers,
          timeoutMs: def.timeoutMs,
        });
      case 'router':
        return this.router(def, common, chain);
      default: {
        const never: never = type;
        throw new ConfigError(`agent "${def.name}" has an unknown type "${String(never)}"`);
      }
    }
  }

  private router(def: AgentConfig, common: CommonOptions, chain: string[]): Router {
    const path = `agents.${def.name}`;
    const routes = (def.routes ?? []).flatMap((r, i) => {
      const a = this.dep(r.agent, `${path}.routes[${i}]`, chain);
      return a
        ? [{ name: r.name, agent: a, description: r.description, keywords: r.keywords, patterns: r.patterns, priority: r.priority }]
        : [];
    });
    const d = def.defaultRoute;
    const defaultRoute = d === undefined || routes.some((r) => r.name === d) ? d : this.dep(d, `${path}.default_route`, chain);
    return new Router({
      ...common,
      routes,
      defaultRoute,
      classifier: def.classifier && {
        model: this.modelFor(def.classifier.model, `${path}.classifier.model`),
        instructions: def.classifier.instructions,
      },
    });
  }

  /** The code tools an LLM agent names: registered tools, tool-module tools, and the built-in `exit_loop` / `ask_user`. */
  private codeTools(def: AgentConfig): Tool[] {
    const { tools, toolModules } = this;
    const out: Tool[] = [];
    def.tools.forEach((ref, i) => {
      if (ref === EXIT_LOOP_TOOL && !tools.has(ref) && !toolModules.has(ref)) {
        out.push(exitLoop);
        return;
      }
      if (ref === ASK_USER_TOOL && !tools.has(ref) && !toolModules.has(ref)) {
        out.push(askUser);
        return;
      }
      const r = resolveToolRef(ref, tools, toolModules);
      if ('tools' in r) out.push(...r.tools);
      else this.issue(`agents.${def.name}.tools[${i}]`, r.error);
    });
    return out;
  }

  /** The agents an LLM agent calls as tools (`agent_tools`), built. */
  private agentTools(def: AgentConfig, chain: string[]): Tool[] {
    const persistent = new Set(def.persistentAgentTools ?? []);
    const out: Tool[] = [];
    for (const name of def.agentTools) {
      const other = this.byName.get(name);
      const target = other ? this.build(other, chain) : undefined;
      if (target) out.push(target.asTool(persistent.has(name) ? { persistent: true } : undefined));
      else if (!other) this.issue(`agents.${def.name}.agent_tools`, `unknown agent "${name}"`);
    }
    return out;
  }

  /** Handoffs may point back (a specialist transferring to its coordinator): resolved on first run. */
  private handoffs(def: AgentConfig): Array<() => Runnable> {
    return (def.subAgents ?? []).flatMap((name, i) => {
      if (!this.byName.has(name)) {
        this.issue(`agents.${def.name}.sub_agents[${i}]`, `unknown agent "${name}"`);
        return [];
      }
      return [() => this.built.get(name)!];
    });
  }

  /** The names of `tools`, with an issue for two tools of one name. */
  private toolNames(def: AgentConfig, tools: Tool[]): Set<string> {
    const seen = new Set<string>();
    for (const t of tools) {
      if (seen.has(t.name)) this.issue(`agents.${def.name}.tools`, `agent "${def.name}" would have two tools named "${t.name}"`);
      seen.add(t.name);
    }
    return seen;
  }

  /** An issue for each approval rule naming no tool of the agent (with MCP servers, their tools come later: not checked). */
  private checkApprovalRules(def: AgentConfig, names: Set<string>): void {
    if (def.requireApproval === undefined || this.config.mcpServers) return;
    for (const name of Object.keys(def.requireApproval)) {
      if (!names.has(name))
        this.issue(
          `agents.${def.name}.require_approval`,
          `agent "${def.name}" has no tool named "${name}" (its tools: ${[...names].join(', ') || 'none'})`,
        );
    }
  }

  private llm(def: AgentConfig, chain: string[]): Agent {
    const path = `agents.${def.name}`;
    const config = this.config;
    const agentTools = this.agentTools(def, chain);
    const kbTools = def.knowledge && def.knowledgeUse?.tool !== false ? (this.input.knowledgeTools?.(def.knowledge) ?? []) : [];
    const inject = def.knowledge && def.knowledgeUse?.inject;
    const contextProviders = inject ? this.input.knowledgeContext?.(def.knowledge!, inject) : undefined;
    const tools = [...this.codeTools(def), ...agentTools, ...kbTools];
    const names = this.toolNames(def, tools);
    const handoffs = this.handoffs(def);
    const model = this.modelFor(def.model, `${path}.model`);
    const context: ContextOptions | undefined = def.context && {
      maxTokens: def.context.maxTokens,
      strategy: def.context.strategy,
      keepRecentMessages: def.context.keepRecentMessages,
      summaryModel:
        def.context.summaryModel === undefined ? undefined : this.modelFor(def.context.summaryModel, `${path}.context.summary_model`),
    };
    const store = this.input.store;
    const checkpoints = this.checkpoints;
    const options: AgentOptions = {
      name: def.name,
      description: def.description,
      instructions: def.instructions,
      model,
      tools,
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
      runs: this.input.runs,
      checkpoints,
      requireApproval: def.requireApproval,
      contextProviders,
    };
    const judgeModel = (ref: string): ModelConfig => this.modelFor(ref, `${path}.guardrails`) ?? { provider: 'invalid', model: ref };
    const issue = (at: string, message: string): void => this.issue(at, message);
    const guardrails = configGuardrails(def, path, judgeModel, issue);
    if (guardrails !== undefined) options.guardrails = guardrails;
    const scoring = configScoring(def, path, judgeModel, issue, this.input.scoresFile);
    if (scoring !== undefined) options.scoring = scoring;
    this.checkApprovalRules(def, names);
    for (const k of Object.keys(options) as Array<keyof AgentOptions>) if (options[k] === undefined) delete options[k];
    return new Agent(options);
  }
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
