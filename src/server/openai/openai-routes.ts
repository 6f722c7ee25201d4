import type { Context } from 'hono';

import type { Runnable } from '../../core/runnable.js';
import type { ServerEnv } from '../app/server-env.js';
import type { AgentAccess } from '../auth/agent-access.js';
import { chatCompletions } from './chat-completions.js';
import type { OpenAIRouteOptions } from './openai-turn.js';
import { responses } from './responses.js';

/** What the OpenAI-compatible handlers need. */
export interface OpenAIHandlerOptions extends OpenAIRouteOptions {
  access: AgentAccess;
  /** Unix seconds every model reports as `created` (the server's start). */
  created: number;
}

/** The handlers of the OpenAI-compatible API (loaded on its first request). */
export interface OpenAIHandlers {
  models(c: Context<ServerEnv>): Response;
  model(c: Context<ServerEnv>): Response;
  chatCompletions(c: Context<ServerEnv>): Promise<Response>;
  responses(c: Context<ServerEnv>): Promise<Response>;
}

/** The handlers of `/v1/models`, `/v1/models/{model}`, `/v1/chat/completions` and `/v1/responses`. */
export function createOpenAIHandlers(options: OpenAIHandlerOptions): OpenAIHandlers {
  const model = (a: Runnable) => ({ id: a.name, object: 'model' as const, created: options.created, owned_by: 'corvid' });
  return {
    models: (c) => c.json({ object: 'list', data: options.access.listed(c.get('principal')).map(model) }),
    model: (c) => c.json(model(options.access.resolve(c.req.param('model') ?? '', c.get('principal')))),
    chatCompletions: (c) => chatCompletions(c, options),
    responses: (c) => responses(c, options),
  };
}
