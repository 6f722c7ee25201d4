import type { Context, Hono } from 'hono';

import type { OpenAIHandlers } from '../openai/openai-routes.js';
import type { ServerAppParts } from './server-app-parts.js';
import type { ServerEnv } from './server-env.js';

/** What `registerOpenAIRoutes` needs besides the server's parts. */
export interface OpenAIMountOptions {
  /** What happens to a run when its streaming client goes away. */
  onDisconnect: () => 'continue' | 'stop';
}

/**
 * Serves the agents as an OpenAI-compatible API — `GET /v1/models`, `POST /v1/chat/completions`,
 * `POST /v1/responses` — behind the server's auth, limits, metrics and traces. Its code is loaded
 * on the first request. Errors on `/v1/` paths are answered in OpenAI's error shape (see `createServerApp`).
 */
export function registerOpenAIRoutes(app: Hono<ServerEnv>, parts: ServerAppParts, options: OpenAIMountOptions): void {
  const created = Math.floor(Date.now() / 1000);
  let handlers: Promise<OpenAIHandlers> | undefined;
  const load = (): Promise<OpenAIHandlers> =>
    (handlers ??= import('../openai/openai-routes.js').then((m) =>
      m.createOpenAIHandlers({
        chat: parts.chat,
        access: parts.access,
        metrics: parts.metrics,
        maxBodyBytes: parts.maxBodyBytes,
        onDisconnect: options.onDisconnect,
        created,
      }),
    ));
  const route =
    (name: keyof OpenAIHandlers) =>
    async (c: Context<ServerEnv>): Promise<Response> =>
      (await load())[name](c);
  app.get('/v1/models', route('models'));
  app.get('/v1/models/:model', route('model'));
  app.post('/v1/chat/completions', route('chatCompletions'));
  app.post('/v1/responses', route('responses'));
}
