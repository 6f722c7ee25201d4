/**
 * `corvid/server`: serve agents over HTTP (chat API with JSON, SSE and WebSocket, sessions,
 * OpenAPI, health, metrics, traces, A2A). Loaded only by programs and commands that serve.
 */
export { HttpError, type HttpErrorStatus } from '../http/http-error.js';
export { openApiDocument } from './api/openapi.js';
export {
  createServerApp,
  createServerParts,
  DEFAULT_MAX_BODY_BYTES,
  type ServerApp,
  type ServerAppOptions,
  type ServerAppParts,
} from './app/create-server-app.js';
export { isLoopback, type RunningServer, serve, type ServeOptions } from './app/serve.js';
export { runtimeOf, type ServedRuntime } from './app/served-runtime.js';
export { generateApiKey, hashApiKey } from './auth/api-keys.js';
export type { Principal } from './auth/principal.js';
export { createServerLogger, type ServerLoggerOptions } from './observability/server-logger.js';
export {
  type ChatSession,
  type ChatSessions,
  type ChatSessionSummary,
  type ListSessionsQuery,
  MemoryChatSessions,
} from './sessions/chat-sessions.js';
export { StoreChatSessions } from './sessions/store-chat-sessions.js';
