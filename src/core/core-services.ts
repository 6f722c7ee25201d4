import { ConfigError } from '../errors/config-error.js';
import type { DurableDefaults } from '../types/durable-options.js';
import type { RunInput } from '../types/message.js';
import type { ModelInput } from '../types/model.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import type { RunResult } from '../types/result.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import type { Runnable } from './runnable.js';

/** Turns `'openai:gpt-4o'`, a model config, an AI SDK model or nothing (the default model) into a `ResolvedModel`. */
export type ModelResolver = (input: ModelInput | undefined, label?: string) => Promise<ResolvedModel>;

/** How a run is started or resumed: streaming or not, and the agent's durable defaults (store, checkpoints). */
export interface DurableRunContext {
  stream: boolean;
  defaults: DurableDefaults;
}

/** Starts and resumes session / durable runs (checkpoints, session appends, approvals). */
export interface DurableRunner {
  start(root: Runnable, input: RunInput, options: RunOptions, context: DurableRunContext): Promise<RunResult>;
  resume(root: Runnable, runId: string, options: ResumeOptions | undefined, context: DurableRunContext): Promise<RunResult>;
}

/**
 * The two services the core calls but does not implement, because their implementations live in
 * the layers above it (core may not import them):
 * - the model resolver (`src/models/install-model-resolver.ts` installs `resolveModel`);
 * - the durable runner (`src/durable/install-durable-runner.ts` installs `startDurableRun` / `resumeDurableRun`).
 * Each of those modules installs its service when it is imported; the package entries (`corvid`,
 * `corvid/testing`, `corvid/config`, the CLI) and the config runtime (`runtime/build-agents.ts`)
 * import both, so users never call `install*` themselves. Code that imports `src/core/agent.ts`
 * directly (a test) imports an entry too, or gets a `ConfigError` saying so.
 * A test or tool that swaps one (e.g. a counting resolver) installs its own and restores the old one.
 */
const services: { resolveModel?: ModelResolver; durable?: DurableRunner } = {};

/** Installs the model resolver; returns the one it replaces. */
export function installModelResolver(resolver: ModelResolver): ModelResolver | undefined {
  const previous = services.resolveModel;
  services.resolveModel = resolver;
  return previous;
}

/** Installs the durable runner; returns the one it replaces. */
export function installDurableRunner(runner: DurableRunner): DurableRunner | undefined {
  const previous = services.durable;
  services.durable = runner;
  return previous;
}

/** Resolves a model with the installed resolver. */
export function resolveModelInput(input: ModelInput | undefined, label?: string): Promise<ResolvedModel> {
  const resolve = services.resolveModel;
  if (resolve === undefined) return Promise.reject(notInstalled('model resolver', 'models/install-model-resolver'));
  return resolve(input, label);
}

/** The installed durable runner. */
export function durableRunner(): DurableRunner {
  const runner = services.durable;
  if (runner === undefined) throw notInstalled('durable runner', 'durable/install-durable-runner');
  return runner;
}

function notInstalled(what: string, module: string): ConfigError {
  return new ConfigError(
    `Corvid's ${what} is not installed: import Corvid from its package entry ('corvid'), which installs it (or import src/${module}.js)`,
  );
}
