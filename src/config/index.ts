/**
 * `corvid/config`: the `corvid.yaml` format, its loader and validator, and the runtime that builds
 * agents from it. Kept apart from the root `corvid` entry so programs that define agents in code
 * never load YAML or config code.
 */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';
export { loadConfig, validateConfig, type LoadConfigOptions, type LoadedConfig, type ConfigFileValidation } from './load-config.js';
export { validateConfigText, type ValidateConfigTextOptions, type ConfigValidation } from './validate-config-text.js';
export { findConfigFile, CONFIG_FILE_NAMES } from './find-config-file.js';
export { loadDotEnv, type LoadDotEnvOptions, type DotEnvResult } from './load-dot-env.js';
export { interpolateEnv, type InterpolationResult } from './interpolate-env.js';
export { configJsonSchema, CONFIG_SCHEMA_ID } from './config-json-schema.js';
export { printConfig, redactConfig, SECRET_MASK } from './print-config.js';
export { configFileSchema, type CorvidConfigFile, type ModelFileEntry, type AgentFileEntry } from './config-file-schema.js';
export type { ToolNameOptions } from './check-config-references.js';
export type { CorvidConfig, AgentConfig, AgentContextConfig, ConfigDefaults } from './corvid-config.js';
export { formatConfigPath } from './parse-config-source.js';
export { loadRuntime, type LoadRuntimeOptions, type Runtime } from '../runtime/load-runtime.js';
export { resolveConfigModel } from '../runtime/resolve-config-model.js';
export { DEFAULT_AGENT_NAME, DEFAULT_INSTRUCTIONS } from '../runtime/build-agents.js';
export { ConfigError, formatConfigIssue, type ConfigIssue } from '../errors/config-error.js';
