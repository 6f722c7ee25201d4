/**
 * `corvid/server`: serve agents over HTTP (chat API with JSON, SSE and WebSocket, sessions,
 * OpenAPI, health, metrics, traces, A2A). Loaded only by programs and commands that serve.
 */
export { HttpError, type HttpErrorStatus } from '../http/http-error.js';
export { generateApiKey, hashApiKey } from './api-keys.js';
export {
  type ChatSession,
  type ChatSessions,
  type ChatSessionSummary,
  type ListSessionsQuery,
  MemoryChatSessions,
} from './chat-sessions.js';
export {
  createServerApp,
  createServerParts,
  DEFAULT_MAX_BODY_BYTES,
  type ServerApp,
  type ServerAppOptions,
  type ServerAppParts,
} from './create-server-app.js';
export { openApiDocument } from './openapi.js';
export type { Principal } from './principal.js';
export { isLoopback, type RunningServer, serve, type ServeOptions } from './serve.js';
export { runtimeOf, type ServedRuntime } from './served-runtime.js';
export { createServerLogger, type ServerLoggerOptions } from './server-logger.js';
export { StoreChatSessions } from './store-chat-sessions.js';
