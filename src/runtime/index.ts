/**
 * `corvid/config`: the `corvid.yaml` format, its loader and validator, and the runtime that builds
 * agents from it. Kept apart from the root `corvid` entry so programs that define agents in code
 * never load YAML or config code. (The config code itself, `src/config/`, does not depend on the
 * runtime: this entry sits above both.)
 */
export * from '../config/index.js';
export { DEFAULT_AGENT_NAME, DEFAULT_INSTRUCTIONS } from './build-agents.js';
export { loadRuntime, type LoadRuntimeOptions, type Runtime } from './load-runtime.js';
export { resolveConfigModel } from './resolve-config-model.js';
