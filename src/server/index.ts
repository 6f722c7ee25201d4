/**
 * `corvid/server`: serve agents over HTTP (chat API with JSON, SSE and WebSocket, sessions,
 * OpenAPI, health, metrics, traces, A2A). Loaded only by programs and commands that serve.
 */
export { serve, isLoopback, type ServeOptions, type RunningServer } from './serve.js';
export { createServerApp, createServerParts, DEFAULT_MAX_BODY_BYTES, type ServerApp, type ServerAppOptions, type ServerAppParts } from './create-server-app.js';
export { runtimeOf, type ServedRuntime } from './served-runtime.js';
export { createServerLogger, type ServerLoggerOptions } from './server-logger.js';
export { hashApiKey, generateApiKey } from './api-keys.js';
export { MemoryChatSessions, type ChatSessions, type ChatSession, type ChatSessionSummary, type ListSessionsQuery } from './chat-sessions.js';
export { StoreChatSessions } from './store-chat-sessions.js';
export { openApiDocument } from './openapi.js';
export { HttpError, type HttpErrorStatus } from '../http/http-error.js';
export type { Principal } from './principal.js';
