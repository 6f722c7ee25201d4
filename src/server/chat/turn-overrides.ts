import type { CorvidConfig } from '../../config/corvid-config.js';
import { Agent } from '../../core/agent.js';
import type { Runnable } from '../../core/runnable.js';
import { HttpError } from '../../http/http-error.js';
import { type Principal } from '../auth/principal.js';
import { scopesOf } from '../auth/tool-scopes.js';

/** What a chat request may change for one turn (`overrides` of `POST /api/v1/agents/{name}/chat`). */
export interface TurnOverrides {
  /** A model named under `models:`. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** The system prompt instead of the agent's. */
  instructions?: string;
}

/**
 * Checks a request's overrides and returns what makes the turn's agent: a copy of the agent with
 * the configured model, settings and instructions asked for (nothing is saved; the next request
 * without overrides gets the agent as configured).
 * @throws HttpError 400 for a model that is not configured, 403 for a scoped credential without `admin`
 */
export function turnOverrides(
  overrides: TurnOverrides,
  context: { config: CorvidConfig; principal: Principal },
): (agent: Runnable) => Runnable {
  const scopes = scopesOf(context.principal);
  if (scopes !== undefined && !scopes.includes('admin'))
    throw new HttpError(
      403,
      'forbidden',
      `Overriding an agent's model, settings or instructions needs the admin scope; this credential has ${scopes.join(', ')}`,
    );
  const models = context.config.models;
  const model = overrides.model === undefined ? undefined : models[overrides.model];
  if (overrides.model !== undefined && model === undefined) {
    const known = Object.keys(models);
    throw new HttpError(
      400,
      'invalid_request',
      `overrides.model: "${overrides.model.slice(0, 100)}" is not a configured model (${known.length > 0 ? `configured: ${known.join(', ')}` : 'the config names no models'})`,
    );
  }
  return (agent) => {
    if (!(agent instanceof Agent))
      throw new HttpError(
        400,
        'invalid_request',
        `overrides: agent "${agent.name}" is a ${agent.kind} agent; only LLM agents take a model, settings or instructions`,
      );
    return new Agent({
      ...agent.options,
      tools: [...agent.tools],
      handoffs: [...agent.handoffs],
      ...(model !== undefined ? { model } : {}),
      ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}),
      ...(overrides.maxTokens !== undefined ? { maxTokens: overrides.maxTokens } : {}),
      ...(overrides.instructions !== undefined ? { instructions: overrides.instructions } : {}),
    });
  };
}
