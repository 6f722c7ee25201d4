/**
 * The `corvid.yaml` format, its loader and validator. The `corvid/config` package entry
 * (`src/runtime/index.ts`) re-exports all of it with the runtime that builds agents from it.
 */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';
export { ConfigError, type ConfigIssue, formatConfigIssue } from '../errors/config-error.js';
export type { ToolNameOptions } from './check-config-references.js';
export { type AgentFileEntry, configFileSchema, type CorvidConfigFile, type ModelFileEntry } from './config-file-schema.js';
export { CONFIG_SCHEMA_ID, configJsonSchema } from './config-json-schema.js';
export type { AgentConfig, AgentContextConfig, ConfigDefaults, CorvidConfig } from './corvid-config.js';
export type { ToolEntryConfig, ToolModuleConfig } from './corvid-config.js';
export { CONFIG_FILE_NAMES, findConfigFile } from './find-config-file.js';
export { interpolateEnv, type InterpolationResult } from './interpolate-env.js';
export type { EmbedderConfig, KnowledgeBaseConfig, KnowledgeSourceConfig } from './knowledge-schema.js';
export { type ConfigFileValidation, loadConfig, type LoadConfigOptions, type LoadedConfig, validateConfig } from './load-config.js';
export { type DotEnvResult, loadDotEnv, type LoadDotEnvOptions } from './load-dot-env.js';
export { formatConfigPath } from './parse-config-source.js';
export { printConfig, redactConfig, SECRET_MASK } from './print-config.js';
export { type ToolKind, type ToolKindEntry, toolKindEntrySchemas } from './tool-kinds/index.js';
export { type ConfigValidation, validateConfigText, type ValidateConfigTextOptions } from './validate-config-text.js';
