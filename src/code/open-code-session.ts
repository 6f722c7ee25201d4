// Sessions resolve their model and run durably: install those services (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';

import { mkdir, realpath } from 'node:fs/promises';
import nodePath from 'node:path';

import { ConfigError } from '../errors/config-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import { findBwrap, probeBwrap } from '../tools/shell/bwrap-sandbox.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { allowRuleError, ApprovalGate } from './approval-gate.js';
import { buildCodeAgent, codeTools, projectInstructions } from './code-agent.js';
import { storedSessionState } from './code-commands.js';
import { CodeHooks } from './code-hooks.js';
import { modelLabel, resolveCodeModel } from './code-model.js';
import { modelFacts } from './code-prices.js';
import { type CodeRuntime, loadCodeRuntime } from './code-runtime.js';
import { CodeSessionEngine } from './code-session-engine.js';
import { CODE_MODES, type CodeApproval, type CodeMode, type CodeSession } from './code-session-types.js';
import { CODE_SESSION_AGENT, codeStorePath, listCodeSessions, sessionCwd } from './code-store.js';
import { loadCustomCommands } from './custom-commands.js';
import { exitPlanModeTool } from './exit-plan-mode-tool.js';
import { FileSnapshots } from './file-snapshots.js';
import { todoWriteTool } from './todo-write-tool.js';

/** Options of `openCodeSession`. */
export interface OpenCodeSessionOptions {
  /** The project folder (tools are confined to it). Default `process.cwd()`. */
  cwd?: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** `corvid.yaml` to load (default: the one found in `cwd`, if any). */
  configPath?: string;
  /** A `corvid.yaml` agent to start from (instructions, tools, MCP servers). */
  agent?: string;
  /** `provider:model` or a `models:` name; overrides the agent's and the default model. */
  model?: string;
  /** Default `default`. `yolo` needs the sandbox. */
  mode?: CodeMode;
  /** Run shell commands in the bubblewrap sandbox when it works here. Default `true`. */
  sandbox?: boolean;
  /**
   * Shell command prefixes that run without asking in `default` and `auto-edit` modes (`npm test`, `node --test`),
   * added to `code.allow` of `corvid.yaml`; the rules of the `p` answer apply (no bare interpreter, no inline code).
   */
  allow?: readonly string[];
  /**
   * Allow `yolo` without the sandbox (trusted containers where bubblewrap cannot run): every command the model
   * writes runs unconfined. Turns the sandbox off.
   */
  dangerouslyRunUnsandboxed?: boolean;
  /** Add the web tools (`web_fetch`, `http_request`). Default `false`. */
  web?: boolean;
  /** Continue a stored session of this folder: its id, or `true` for the latest one. */
  resume?: string | true;
  /** No person answers approvals: calls that would ask are denied with a reason (headless `-p`). */
  headless?: boolean;
  /** The SQLite file of the sessions. Default `$CORVID_HOME/code.db` (`~/.corvid/code.db`). */
  storePath?: string;
  /** An open store to use instead (not closed by the session). */
  store?: Store;
  /** An already loaded runtime, e.g. `loadRuntime()`'s (closed with the session). */
  runtime?: CodeRuntime;
  /** MCP options for the runtime loaded here (warnings, elicitation). */
  mcp?: McpRuntimeOptions;
}

/**
 * Opens a `corvid code` session in a project folder: the coding agent (see `buildCodeAgent`), its
 * stored session (new, or resumed with its transcript and snapshots), the mode rules and the
 * approvals. Front ends drive it through `CodeSession`.
 * @throws ConfigError when no model can be chosen or the config is invalid; ValidationError for a
 * bad mode, a refused `yolo` (no sandbox) or an unknown session to resume.
 * @example
 * const session = await openCodeSession({ cwd: '.', mode: 'auto-edit' });
 * session.subscribe((e) => console.log(e.type));
 * const result = await session.send('Fix the failing test');
 */
export async function openCodeSession(options: OpenCodeSessionOptions = {}): Promise<CodeSession> {
  const { env, cwd, mode, ownsStore, unsandboxed, sandbox, store, project } = await startSession(options);
  let runtime = options.runtime;
  try {
    let modelEnv = env;
    if (runtime === undefined)
      ({ runtime, env: modelEnv } = await loadCodeRuntime({ cwd, env, configPath: options.configPath, mcp: options.mcp, store }));
    const model = resolveCodeModel({ model: options.model ?? agentModel(runtime, options.agent), config: runtime.config, env: modelEnv });
    const sessionId = await chooseSession({ store, cwd, resume: options.resume, model: modelLabel(model) });
    const [state, messages, fileAndShell] = await Promise.all([
      storedSessionState({ store }, sessionId),
      store.sessions.messages(sessionId),
      codeTools({ cwd, sandbox, web: options.web === true }),
    ]);
    const snapshots = new FileSnapshots({ store, cwd, sessionId });
    const hooks = sessionHooks(runtime, cwd, env, () => engine);
    const custom = await loadCustomCommands(cwd, env);
    let engine: CodeSessionEngine | undefined;
    let tools: ReadonlyMap<string, Tool> = new Map();
    const ask = options.headless ? undefined : (approval: CodeApproval) => engine?.emit({ type: 'approval', approval });
    const allow = [...(options.allow ?? []), ...configAllow(runtime)];
    const gate = new ApprovalGate({
      mode,
      ...(ask ? { ask } : {}),
      tools: () => tools,
      allow,
      sandbox,
      onModeChange: () => engine?.modeChanged(),
    });
    const own = [...fileAndShell, todoWriteTool((todos) => engine?.setTodos(todos)), exitPlanModeTool(() => gate.mode)];
    const built = await buildCodeAgent({
      cwd,
      runtime,
      ...(options.agent !== undefined ? { agentName: options.agent } : {}),
      model,
      sandbox,
      web: options.web === true,
      gate,
      snapshots,
      store,
      mode: () => gate.mode,
      projectText: project.text,
      contextTokens: Math.floor((model.contextWindow ?? modelFacts(modelLabel(model)).contextWindow) * 0.8),
      own,
      ...(hooks ? { hooks } : {}),
    });
    tools = built.tools;
    const shell = own.find((t) => t.name === 'bash')!;
    engine = new CodeSessionEngine({
      sessionId,
      cwd,
      runtime,
      store,
      ownsStore,
      agent: built.agent,
      tools,
      shell,
      gate,
      snapshots,
      model,
      sandbox,
      unsandboxedYolo: unsandboxed,
      env: modelEnv,
      turns: state.turns,
      usage: state.usage,
      messages,
      ...(hooks ? { hooks } : {}),
      customCommands: custom,
    });
    if (options.resume !== undefined) await engine.checkInterrupted();
    return engine;
  } catch (error) {
    if (options.runtime === undefined) await runtime?.close().catch(() => undefined);
    if (ownsStore) await store.close().catch(() => undefined);
    throw error;
  }
}

/** The checked folder and mode, the sandbox, the store and the project's instructions of a new session. */
async function startSession(options: OpenCodeSessionOptions) {
  const env = options.env ?? process.env;
  const cwd = await realpath(nodePath.resolve(options.cwd ?? process.cwd())).catch((cause: unknown) => {
    throw new ValidationError(`corvid code: the folder ${options.cwd ?? process.cwd()} does not exist`, { cause });
  });
  const mode = checkedMode(options);
  const ownsStore = options.store === undefined;
  const unsandboxed = options.dangerouslyRunUnsandboxed === true;
  // Independent start-up work runs side by side (time to the first prompt).
  const [sandbox, store, project] = await Promise.all([
    options.sandbox !== false && !unsandboxed ? sandboxWorks(cwd) : false,
    options.store ?? openCodeStore(options.storePath ?? codeStorePath(env)),
    projectInstructions(cwd),
  ]);
  if (mode === 'yolo' && !sandbox && !unsandboxed) {
    if (ownsStore) await store.close();
    throw yoloRefused(options.sandbox === false);
  }
  return { env, cwd, mode, ownsStore, unsandboxed, sandbox, store, project };
}

/** The hooks of `code.hooks`, when the config has any; their runs are shown through the engine once it exists. */
function sessionHooks(
  runtime: CodeRuntime,
  cwd: string,
  env: NodeJS.ProcessEnv,
  engine: () => CodeSessionEngine | undefined,
): CodeHooks | undefined {
  const hooks = runtime.config.code?.hooks;
  if (hooks === undefined) return undefined;
  return new CodeHooks({
    hooks,
    cwd,
    env,
    sessionId: () => engine()?.id ?? '',
    onRun: (hook) => engine()?.emit({ type: 'hook', hook }),
  });
}

/** The mode asked for, after checking it and the `--allow` rules. */
function checkedMode(options: OpenCodeSessionOptions): CodeMode {
  const mode = options.mode ?? 'default';
  if (!CODE_MODES.includes(mode)) throw new ValidationError(`Unknown mode "${String(mode)}": use one of ${CODE_MODES.join(', ')}`);
  checkAllowRules(options.allow ?? [], (error) => new ValidationError(error));
  return mode;
}

/** `code.allow` of `corvid.yaml`, each checked like `--allow`. */
function configAllow(runtime: CodeRuntime): string[] {
  const rules = runtime.config.code?.allow ?? [];
  checkAllowRules(rules, (error) => new ConfigError(`code.allow in corvid.yaml: ${error.replace('--allow ', '')}`));
  return rules;
}

/** Throws `toError(why)` for the first rule that is no acceptable command prefix. */
function checkAllowRules(rules: readonly string[], toError: (why: string) => Error): void {
  for (const rule of rules) {
    const error = allowRuleError(rule);
    if (error !== undefined) throw toError(error);
  }
}

/** Why `yolo` cannot start: it needs the sandbox. */
function yoloRefused(sandboxTurnedOff: boolean): ValidationError {
  return new ValidationError(
    sandboxTurnedOff
      ? 'yolo mode runs every command without asking, so it needs the shell sandbox: drop --no-sandbox (or, in a throwaway container only, add --dangerously-run-unsandboxed)'
      : 'yolo mode runs every command without asking, so it needs the shell sandbox, and bubblewrap does not work here (apt-get install bubblewrap; or list the commands to allow with --allow "npm test"; or, in a throwaway container only, --dangerously-run-unsandboxed)',
  );
}

/** The model of a `corvid.yaml` agent, as its reference, when one is named and has one. */
function agentModel(runtime: CodeRuntime, agentName: string | undefined): string | undefined {
  if (agentName === undefined) return undefined;
  const def = Object.prototype.hasOwnProperty.call(runtime.config.agents, agentName) ? runtime.config.agents[agentName] : undefined;
  if (def === undefined) {
    runtime.agent(agentName); // throws the runtime's ConfigError listing the agents
    return undefined;
  }
  return typeof def.model === 'string' ? def.model : undefined;
}

async function openCodeStore(path: string): Promise<Store> {
  await mkdir(nodePath.dirname(path), { recursive: true });
  const { openStore } = await import('../storage/open-store.js');
  return openStore({ driver: 'sqlite', path });
}

/** Whether bubblewrap is installed and can start a sandbox here. */
export async function sandboxWorks(cwd: string): Promise<boolean> {
  const bwrap = findBwrap();
  if (bwrap === undefined) return false;
  return (await probeBwrap(bwrap, { workspace: cwd, cwd, network: false })) === undefined;
}

/** The session to use: the one to resume (checked to belong to `cwd`), else a new one. */
async function chooseSession(args: { store: Store; cwd: string; resume: string | true | undefined; model: string }): Promise<string> {
  const { store, cwd, resume } = args;
  if (resume === true) {
    const latest = (await listCodeSessions(store, cwd, 1))[0];
    if (latest === undefined) throw new ValidationError(`No corvid code session to resume in ${cwd}`);
    return latest.id;
  }
  if (typeof resume === 'string') {
    const session = await store.sessions.get(resume);
    if (session === undefined || sessionCwd(session) === undefined)
      throw new ValidationError(`No corvid code session "${resume}" (corvid code, then /sessions, lists this folder's sessions)`);
    if (sessionCwd(session) !== cwd)
      throw new ConfigError(`Session "${resume}" belongs to ${sessionCwd(session)}; run corvid code --resume there`);
    return session.id;
  }
  const created = await store.sessions.create({ agent: CODE_SESSION_AGENT, metadata: { cwd, model: args.model } });
  return created.id;
}
