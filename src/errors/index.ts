export { CorvidError, type CorvidErrorCode } from './corvid-error.js';
export { ConfigError, formatConfigIssue, type ConfigIssue } from './config-error.js';
export { ValidationError } from './validation-error.js';
export { AuthenticationError } from './authentication-error.js';
export { ProviderError, type ProviderErrorKind } from './provider-error.js';
export { ToolExecutionError } from './tool-execution-error.js';
export { MaxStepsExceededError } from './max-steps-exceeded-error.js';
export { RunAbortedError } from './run-aborted-error.js';
