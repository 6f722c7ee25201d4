/**
 * `corvid/mcp`: the Model Context Protocol both ways. As a client: MCP servers' tools as Corvid
 * tools (`McpHub`), with OAuth for remote servers. As a server: Corvid tools and agents served to
 * any MCP client (`createMcpServer`, `serveMcpHttp`), plus a plain REST tool gateway.
 * Loads `@modelcontextprotocol/sdk` only when used; the root `corvid` entry never does.
 */
export { McpError, type McpErrorKind } from '../errors/mcp-error.js';
export { McpConnection } from './mcp-connection.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type McpAuthSession,
  type McpCallOptions,
  type McpConnectionOptions,
} from './mcp-connection-options.js';
export { McpHub, type McpHubOptions, type McpToolRef } from './mcp-hub.js';
export type { McpAuthConfig, McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from './mcp-server-config.js';
export { mcpTool, type McpToolOrigin, mcpToolOrigin } from './mcp-tool.js';
export { type CallbackResult, DEFAULT_CALLBACK_PORT, OAuthCallbackServer } from './oauth/callback-server.js';
export { clientMetadataDocument, type ClientMetadataDocumentOptions } from './oauth/client-metadata-document.js';
export { createOAuthSession, type OAuthSessionOptions, REFRESH_BUFFER_MS } from './oauth/oauth-session.js';
export { openInBrowser } from './oauth/open-browser.js';
export { MemoryTokenStore, SecretTokenStore, type StoredOAuthState, type TokenStore } from './oauth/token-store.js';
export { attachMcp, type McpAgentsConfig, mcpRefsByAgent, type McpRuntimeOptions, withoutMcpRefs } from './runtime-mcp.js';
export { CorvidMcpServer, createMcpServer, type McpServerOptions, servedAuthInfo, toCallToolResult } from './server/create-mcp-server.js';
export type { McpPromptInfo } from './server/prompt-registry.js';
export type { McpResourceTemplateInfo } from './server/resource-registry.js';
export { type McpHttpOptions, type McpHttpServer, serveMcpHttp } from './server/serve-http.js';
export {
  elicitInput,
  isMcpResult,
  type McpElicitRequest,
  type McpElicitResult,
  type McpLogLevel,
  type McpResult,
  mcpResult,
  type McpResultContent,
  type McpSamplingRequest,
  type McpSamplingResult,
  reportProgress,
  requestSampling,
  sendLog,
} from './server/served-context.js';
export {
  mcpPrompt,
  type McpPromptArgs,
  type McpPromptDefinition,
  type McpPromptMessage,
  type McpPromptResult,
  type McpServedPrompt,
} from './server/served-prompt.js';
export {
  type McpCompleter,
  mcpResource,
  type McpResourceContents,
  type McpResourceInfo,
  type McpResourceReadContext,
  type McpResourceReadResult,
  mcpResourceTemplate,
  type McpResourceTemplateDefinition,
  type McpServedResource,
  type McpStaticResourceDefinition,
} from './server/served-resource.js';
export {
  agentServedTool,
  type ServedCaller,
  type ServedCallOptions,
  type ServedProgress,
  type ServedToolInfo,
  servedToolInfo,
  type ServedToolOutcome,
  ToolRunner,
} from './server/tool-runner.js';
export { mcpToolName, toolAllowed } from './tool-names.js';
export { contentBlockText, mapToolResult, type McpCallResult, type McpContentBlock, resultText } from './tool-result.js';
export type {
  McpElicitationHandler,
  McpElicitationRequest,
  McpElicitationResult,
  McpNotice,
  McpOpenUrl,
  McpServerState,
  McpServerStatus,
  McpToolInfo,
} from './types.js';
