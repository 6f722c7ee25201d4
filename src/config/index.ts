/**
 * The `corvid.yaml` format, its loader and validator. The `corvid/config` package entry
 * (`src/runtime/index.ts`) re-exports all of it with the runtime that builds agents from it.
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
export type { ToolEntryConfig, ToolModuleConfig } from './corvid-config.js';
export { toolKindEntrySchemas, type ToolKind, type ToolKindEntry } from './tool-kinds/index.js';
export { formatConfigPath } from './parse-config-source.js';
export { ConfigError, formatConfigIssue, type ConfigIssue } from '../errors/config-error.js';
