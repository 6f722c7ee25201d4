import { dirname, join, resolve } from 'node:path';

import type { CorvidConfig } from '../config/corvid-config.js';
import { findConfigFile } from '../config/find-config-file.js';
import { displayConfigPath, loadConfig } from '../config/load-config.js';
import { locateConfigIssues } from '../config/locate-config-issues.js';
import type { Agent } from '../core/agent.js';
import type { Runnable } from '../core/runnable.js';
import type { BackgroundRuns } from '../durable/background-runs.js';
import { ConfigError } from '../errors/config-error.js';
import type { McpHub } from '../mcp/mcp-hub.js';
import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import type { ModelCassette, ModelConfig } from '../types/model.js';
import type { RunSubmitter } from '../types/run-submission.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { buildAgents } from './build-agents.js';
import type { ConfigKnowledge } from './config-knowledge.js';
import { loadToolModules, usedToolEntryIds } from './load-tool-modules.js';
import { resolveConfigModel } from './resolve-config-model.js';
import { type CassetteOverride, runtimeCassette } from './runtime-cassette.js';
import { runtimeFiles } from './runtime-files.js';
import { type RuntimeRunsApi, runtimeRunsApi } from './runtime-runs-api.js';
import { storeOptionsFromConfig } from './store-options.js';
import { toolRegistry, withBuiltinTools } from './tool-registry.js';

/** Options for `loadRuntime`. */
export interface LoadRuntimeOptions {
  /**
   * Config file, relative to `cwd`. Default: `findConfigFile(cwd)`; when there is none, the
   * runtime has one agent, `assistant` ("You are a helpful assistant.", default model rules,
   * every registered tool).
   */
  configPath?: string;
  /** Working directory. Default `process.cwd()`. */
  cwd?: string;
  /** The real environment; wins over `.env` files. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Code-defined tools that config agents reference by name in `tools:` (record: by key). */
  tools?: Tool[] | Record<string, Tool>;
  /** Read `.env` files (working directory, then the config file's directory). Default true. */
  dotenv?: boolean;
  /** Copy `.env` values into `process.env` (never overriding what is set). Default false. */
  applyDotEnv?: boolean;
  /** MCP servers (`mcp_servers`): notifications, warnings about failed servers, elicitation, OAuth. */
  mcp?: McpRuntimeOptions;
  /**
   * An already-open store for `runtime.store()` to return instead of opening one from
   * `storage:`. The runtime does not close a store it was given.
   */
  store?: Store;
  /** Record / replay the agents' model calls (`corvid run --cassette`); wins over `cassette:` and `CORVID_CASSETTE*`. */
  cassette?: CassetteOverride;
}

/** Agents built from a config, plus the code tools they were given. */
export interface Runtime {
  /** The normalised config the agents were built from. */
  readonly config: CorvidConfig;
  /** Absolute path of the config file; `undefined` when running without one. */
  readonly configPath: string | undefined;
  /** Agents by name, in config order: LLM `Agent`s and workflow agents. */
  readonly agents: ReadonlyMap<string, Runnable>;
  /** `defaults.agent`, else the first agent. */
  readonly defaultAgent: string;
  /**
   * An agent by name (default: `defaultAgent`). Typed as an LLM `Agent` by default; for workflow
   * agents write `runtime.agent<Runnable>('team')` (or the workflow class).
   * @throws ConfigError listing the agents for an unknown name.
   */
  agent<T extends Runnable = Agent>(name?: string): T;
  /**
   * Re-reads the config file and rebuilds every agent (as new objects; tools added with
   * `agent.addTools()` must be added again). On error throws ConfigError and keeps the old agents.
   */
  reload(): Promise<void>;
  /** The config's MCP servers (`mcp_servers`), when it has any: status, `reload()`, direct calls. */
  readonly mcp: McpHub | undefined;
  /** The config's knowledge bases (`knowledge:`), when it has any. */
  readonly knowledge: ConfigKnowledge | undefined;
  /**
   * The store of sessions, memories, checkpoints and approvals, opened on the first call from
   * `storage:` (default SQLite at `./.corvid/corvid.db` under `cwd`, created then) and cached.
   * A runtime that never calls it never touches the disk.
   * `reload()` keeps the open store (a changed `storage:` takes effect in a new runtime).
   * @throws StorageError when the database cannot be opened (corrupt or locked file, unreachable
   * server, refused credentials, newer schema); the next call tries again.
   */
  store(): Promise<Store>;
  /**
   * Background runs on the queue of `queue:` (embedded in the store by default): `submit()` (or
   * `agent.submit()` on an agent of this runtime), `get()`, `wait()`, `stream(runId, { after })`
   * (the run's numbered event log, from any process sharing the store), `cancel()`, and `work()`
   * to execute queued runs here.
   */
  readonly runs: BackgroundRuns;
  /**
   * A model of the config: a name from `models` or `provider:model`, with the runtime's cassette
   * (an eval's LLM judge uses it).
   * @throws ConfigError for an unknown name or provider.
   */
  model(ref: string): ModelConfig;
  /** Releases what the runtime holds (MCP servers are stopped, the store is closed). Idempotent. */
  close(): Promise<void>;
}

interface RuntimeState {
  config: CorvidConfig;
  configPath: string | undefined;
  agents: Map<string, Runnable>;
  defaultAgent: string;
  mcp?: McpHub;
  /** `knowledge:` bases; absent when the config has none. */
  knowledge?: ConfigKnowledge;
  env: Record<string, string | undefined>;
  cassette?: ModelCassette;
}

/** Opens (once) the runtime's store; handed to what is built before the runtime object exists. */
type StoreGetter = () => Promise<Store>;

/** The runtime's store and background runs, as what is built before the runtime object exists reaches them. */
interface RuntimeLinks {
  store: StoreGetter;
  runs: () => RunSubmitter;
}

async function buildState(
  options: LoadRuntimeOptions,
  tools: Map<string, Tool>,
  configPath: string | undefined,
  links: RuntimeLinks,
  mcpHub?: McpHub,
): Promise<RuntimeState> {
  const store = links.store;
  const cwd = resolve(options.cwd ?? process.cwd());
  const loaded = await loadConfig({
    path: configPath,
    cwd,
    env: options.env,
    dotenv: options.dotenv,
    applyDotEnv: options.applyDotEnv,
    knownTools: tools.keys(),
    // Tool modules are imported after validation; their tool names are checked when agents are built.
  });
  const file = loaded.path ? displayConfigPath(cwd, loaded.path) : undefined;
  const located = (err: unknown) => (loaded.path ? locateConfigIssues(err, loaded.path, loaded.env) : err);
  const modules = await loadToolModules(loaded.config.toolModules, loaded.path ? dirname(loaded.path) : cwd, {
    kinds: usedToolEntryIds(loaded.config),
    protectedPaths: runtimeFiles(loaded.path, loaded.config.storage, cwd),
  });
  if (modules.issues.length > 0) {
    throw located(
      new ConfigError(`Cannot load the tool modules${file ? ` of ${file}` : ''}`, { issues: modules.issues.map((i) => ({ ...i, file })) }),
    );
  }
  // MCP tools are added once the agents exist (`attachMcp`); the SDK loads only when servers are configured.
  const mcp = loaded.config.mcpServers || mcpHub ? await import('../mcp/runtime-mcp.js') : undefined;
  const agentTools = await withBuiltinTools(tools, loaded.config, store);
  // corvid/knowledge loads only for configs with `knowledge:`; its store opens at the first search.
  const knowledge = loaded.config.knowledge
    ? await (
        await import('./config-knowledge.js')
      ).configKnowledge({
        config: loaded.config,
        baseDir: loaded.path ? dirname(loaded.path) : cwd,
        cwd,
        env: loaded.env,
      })
    : undefined;
  const cassette = await runtimeCassette(loaded.config, options.cassette, loaded.env, cwd);
  let agents: Map<string, Runnable>;
  try {
    agents = buildAgents({
      cassette,
      config: mcp ? mcp.withoutMcpRefs(loaded.config) : loaded.config,
      tools: agentTools,
      toolModules: modules.modules,
      env: loaded.env,
      file,
      store,
      runs: links.runs,
      knowledgeTools: knowledge && ((names) => knowledge.toolsFor(names)),
      knowledgeContext: knowledge && ((names, o) => knowledge.contextFor(names, o)),
      scoresFile: join(cwd, '.corvid', 'scores.jsonl'),
    });
  } catch (err) {
    throw located(err);
  }
  const defaultAgent = loaded.config.defaults.agent ?? agents.keys().next().value!;
  const hub = mcp
    ? await mcp.attachMcp({
        hub: mcpHub,
        config: loaded.config,
        agents,
        baseDir: loaded.path ? dirname(loaded.path) : cwd,
        options: options.mcp,
      })
    : undefined;
  return { config: loaded.config, configPath: loaded.path, agents, defaultAgent, mcp: hub, knowledge, env: loaded.env, cassette };
}

class ConfigRuntime implements Runtime {
  private state: RuntimeState;
  private pending: Promise<void> = Promise.resolve();
  private opening?: Promise<Store>;
  private closed = false;
  /** Knowledge stores of states replaced by `reload()` (runs may still use them), closed with the runtime. */
  private readonly retired: ConfigKnowledge[] = [];
  private runsApi: RuntimeRunsApi | undefined;

  constructor(
    private readonly options: LoadRuntimeOptions,
    private readonly tools: Map<string, Tool>,
    state: RuntimeState,
  ) {
    this.state = state;
  }

  get config(): CorvidConfig {
    return this.state.config;
  }

  get configPath(): string | undefined {
    return this.state.configPath;
  }

  get agents(): ReadonlyMap<string, Runnable> {
    return this.state.agents;
  }

  get defaultAgent(): string {
    return this.state.defaultAgent;
  }

  agent<T extends Runnable = Agent>(name: string = this.state.defaultAgent): T {
    const agent = this.state.agents.get(name);
    if (agent) return agent as T;
    throw new ConfigError(`Unknown agent "${name}". Available agents: ${[...this.state.agents.keys()].join(', ')}`);
  }

  reload(): Promise<void> {
    // Reloads run one at a time; a failed reload leaves the current state untouched.
    const run = this.pending.then(async () => {
      const path = this.options.configPath ?? this.state.configPath;
      const old = this.state.knowledge;
      this.state = await buildState(this.options, this.tools, path, { store: () => this.store(), runs: () => this.runs }, this.state.mcp);
      if (old) this.retired.push(old);
    });
    this.pending = run.catch(() => undefined);
    return run;
  }

  model(ref: string): ModelConfig {
    let model: ModelConfig;
    try {
      model = resolveConfigModel(ref, this.state.config, this.state.env);
    } catch (err) {
      throw new ConfigError(`Model "${ref}": ${(err as Error).message}`, { cause: err });
    }
    return this.state.cassette !== undefined ? { ...model, cassette: this.state.cassette } : model;
  }

  get mcp(): McpHub | undefined {
    return this.state.mcp;
  }

  get knowledge(): ConfigKnowledge | undefined {
    return this.state.knowledge;
  }

  get runs(): BackgroundRuns {
    this.runsApi ??= runtimeRunsApi(this, this.state.config);
    return this.runsApi.runs;
  }

  store(): Promise<Store> {
    if (this.closed)
      return Promise.reject(new ConfigError('The runtime is closed: runtime.store() cannot open a store after runtime.close()'));
    if (this.options.store) return Promise.resolve(this.options.store);
    if (!this.opening) {
      const cwd = resolve(this.options.cwd ?? process.cwd());
      const configDir = this.configPath ? dirname(this.configPath) : undefined;
      const options = storeOptionsFromConfig(this.state.config.storage, cwd, configDir);
      // The driver (and its database package) loads only now.
      const config = this.state.config;
      const opening = import('../storage/open-store.js')
        .then((m) => m.openStore(options))
        .then((store) =>
          config.storage?.embedder
            ? import('./config-vector-search.js').then((m) =>
                m.withConfigVectorSearch(store, { config, cwd, configDir }).catch(async (err: unknown) => {
                  await store.close();
                  throw err;
                }),
              )
            : store,
        );
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pending;
    await this.runsApi?.close();
    await this.state.mcp?.close();
    for (const k of [...this.retired.splice(0), this.state.knowledge]) await k?.close();
    const opening = this.opening;
    this.opening = undefined;
    if (opening)
      await opening.then(
        (s) => s.close(),
        () => undefined,
      );
  }
}

/**
 * Loads `corvid.yaml` and builds its agents, wiring `agent_tools` and the code tools given here.
 * @throws ConfigError with every problem (file, line, column, path), including tool names that
 * are not registered.
 * @example
 * const runtime = await loadRuntime({ tools: [add] });
 * const { text } = await runtime.agent().run('What is 2 + 3?');
 */
export async function loadRuntime(options: LoadRuntimeOptions = {}): Promise<Runtime> {
  const tools = toolRegistry(options.tools);
  const path = options.configPath ?? findConfigFile(resolve(options.cwd ?? process.cwd()));
  let runtime: ConfigRuntime | undefined;
  const store: StoreGetter = () =>
    runtime ? runtime.store() : Promise.reject(new ConfigError('runtime.store() was called before loadRuntime() finished'));
  const runs = (): RunSubmitter => {
    if (!runtime) throw new ConfigError('agent.submit() was called before loadRuntime() finished');
    return runtime.runs;
  };
  runtime = new ConfigRuntime(options, tools, await buildState(options, tools, path, { store, runs }));
  return runtime;
}
