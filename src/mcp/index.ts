/**
 * `corvid/mcp`: the Model Context Protocol both ways. As a client: MCP servers' tools as Corvid
 * tools (`McpHub`), with OAuth for remote servers. As a server: Corvid tools and agents served to
 * any MCP client (`createMcpServer`, `serveMcpHttp`), plus a plain REST tool gateway.
 * Loads `@modelcontextprotocol/sdk` only when used; the root `corvid` entry never does.
 */
export { McpHub, type McpHubOptions, type McpToolRef } from './mcp-hub.js';
export { McpConnection } from './mcp-connection.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type McpCallOptions,
  type McpConnectionOptions,
  type McpAuthSession,
} from './mcp-connection-options.js';
export { mcpTool, mcpToolOrigin, type McpToolOrigin } from './mcp-tool.js';
export { mcpToolName, toolAllowed } from './tool-names.js';
export { mapToolResult, resultText, contentBlockText, type McpCallResult, type McpContentBlock } from './tool-result.js';
export type { McpServerConfig, McpStdioServerConfig, McpHttpServerConfig, McpAuthConfig } from './mcp-server-config.js';
export type {
  McpToolInfo,
  McpServerState,
  McpServerStatus,
  McpNotice,
  McpElicitationRequest,
  McpElicitationResult,
  McpElicitationHandler,
  McpOpenUrl,
} from './types.js';
export { SecretTokenStore, MemoryTokenStore, type TokenStore, type StoredOAuthState } from './oauth/token-store.js';
export { createOAuthSession, REFRESH_BUFFER_MS, type OAuthSessionOptions } from './oauth/oauth-session.js';
export { OAuthCallbackServer, DEFAULT_CALLBACK_PORT, type CallbackResult } from './oauth/callback-server.js';
export { openInBrowser } from './oauth/open-browser.js';
export { clientMetadataDocument, type ClientMetadataDocumentOptions } from './oauth/client-metadata-document.js';
export { McpError, type McpErrorKind } from '../errors/mcp-error.js';
export { createMcpServer, CorvidMcpServer, toCallToolResult, type McpServerOptions } from './server/create-mcp-server.js';
export { serveMcpHttp, type McpHttpOptions, type McpHttpServer } from './server/serve-http.js';
export {
  agentServedTool,
  servedToolInfo,
  ToolRunner,
  type ServedToolInfo,
  type ServedToolOutcome,
  type ServedProgress,
  type ServedCallOptions,
} from './server/tool-runner.js';
export { attachMcp, mcpRefsByAgent, withoutMcpRefs, type McpRuntimeOptions, type McpAgentsConfig } from './runtime-mcp.js';
export {
  mcpResult,
  isMcpResult,
  reportProgress,
  sendLog,
  requestSampling,
  elicitInput,
  type McpResult,
  type McpResultContent,
  type McpLogLevel,
  type McpSamplingRequest,
  type McpSamplingResult,
  type McpElicitRequest,
  type McpElicitResult,
} from './server/served-context.js';
export {
  mcpResource,
  mcpResourceTemplate,
  type McpServedResource,
  type McpStaticResourceDefinition,
  type McpResourceTemplateDefinition,
  type McpResourceInfo,
  type McpResourceContents,
  type McpResourceReadResult,
  type McpResourceReadContext,
  type McpCompleter,
} from './server/served-resource.js';
export { mcpPrompt, type McpServedPrompt, type McpPromptDefinition, type McpPromptMessage, type McpPromptResult, type McpPromptArgs } from './server/served-prompt.js';
export type { McpResourceTemplateInfo } from './server/resource-registry.js';
export type { McpPromptInfo } from './server/prompt-registry.js';
