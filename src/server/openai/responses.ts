import type { Context } from 'hono';

import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { RunResult } from '../../types/result.js';
import { parseJsonBody, parseOr400, SESSION_ID } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { TurnOptions } from '../chat/chat-turn.js';
import { sendSse } from '../chat/turn-response.js';
import { responseConversation, responseEntries } from './openai-messages.js';
import { type ResponseRequest, responseRequestSchema } from './openai-request-schemas.js';
import { beginOpenAITurn, type OpenAIRouteOptions, streamAnswer, type TurnPlace } from './openai-turn.js';
import { ResponseEventWriter } from './response-event-writer.js';
import {
  functionCallItems,
  itemId,
  messageItem,
  type OutputItem,
  reasoningItem,
  type ResponseHead,
  responseId,
  responseObject,
  sessionOfResponse,
} from './response-objects.js';
import { streamLifecycle } from './stream-lifecycle.js';

/**
 * Where a response's turn runs: the session of `conversation` (created when missing) or of
 * `previous_response_id`; else a new session, kept so a later request can continue it, unless `store: false`.
 */
function placeOf(body: ResponseRequest): TurnPlace {
  const conversation = typeof body.conversation === 'string' ? body.conversation : body.conversation?.id;
  if (conversation !== undefined) {
    if (!SESSION_ID.test(conversation))
      throw new HttpError(400, 'invalid_request', 'Invalid request: "conversation" must be 1-128 letters, digits, ".", "_", ":" or "-"');
    return { kind: 'session', id: conversation, create: true };
  }
  if (body.previous_response_id != null) {
    const id = sessionOfResponse(body.previous_response_id);
    if (id === undefined) {
      throw new HttpError(
        404,
        'previous_response_not_found',
        `Previous response "${body.previous_response_id.slice(0, 100)}" not found (responses made with store: false are not kept)`,
      );
    }
    return { kind: 'session', id, create: false };
  }
  return body.store === false ? { kind: 'stateless' } : { kind: 'session', create: false };
}

function turnOptions(body: ResponseRequest): TurnOptions {
  const extra: TurnOptions = {};
  if (body.tools?.length) {
    extra.clientTools = body.tools.map((t) => ({
      name: t.name,
      ...(t.description != null ? { description: t.description } : {}),
      parameters: (t.parameters ?? { type: 'object', properties: {} }) as NonNullable<TurnOptions['clientTools']>[number]['parameters'],
    }));
  }
  const choice = body.tool_choice;
  if (choice != null) extra.toolChoice = typeof choice === 'string' ? choice : { tool: choice.name };
  if (body.temperature != null) extra.temperature = body.temperature;
  if (body.top_p != null) extra.topP = body.top_p;
  if (body.max_output_tokens != null) extra.maxTokens = body.max_output_tokens;
  return extra;
}

/** The output items of a finished (not streamed) run. */
function outputOf(result: RunResult, reasoning: string): OutputItem[] {
  const out: OutputItem[] = [];
  if (reasoning !== '') out.push(reasoningItem(itemId('rs'), reasoning));
  if (result.text !== '') out.push(messageItem(itemId('msg'), result.text));
  return [...out, ...functionCallItems(result)];
}

/**
 * `POST /v1/responses`: runs the agent named by `model` on `input` and answers a `response`
 * object, or with `stream: true` the typed events of the Responses API. Responses are kept (as a
 * session) so `previous_response_id` continues them, unless `store: false`; `conversation` names a session.
 */
export async function responses(c: Context<ServerEnv>, options: OpenAIRouteOptions): Promise<Response> {
  const body = parseOr400(responseRequestSchema, parseJsonBody(await readBodyText(c, options.maxBodyBytes)), 'request');
  const place = placeOf(body);
  const { turn, kept } = await beginOpenAITurn(options.chat, c, {
    agent: body.model,
    place,
    entries: responseEntries(body.input),
    convert: (lookup) => responseConversation(body.input, body.instructions, lookup),
  });
  const extra = turnOptions(body);
  const conversation = typeof body.conversation === 'string' ? { id: body.conversation } : (body.conversation ?? null);
  const head: ResponseHead = {
    id: responseId(kept ? turn.sessionId : undefined),
    created_at: Math.floor(Date.now() / 1000),
    model: body.model,
    instructions: body.instructions ?? null,
    previous_response_id: body.previous_response_id ?? null,
    conversation,
    store: kept,
    tools: body.tools ?? [],
    tool_choice: body.tool_choice ?? 'auto',
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
  };
  if (kept) c.header('x-corvid-session-id', turn.sessionId);
  if (!body.stream) {
    const answer = streamAnswer(turn, { extra, signal: options.onDisconnect() === 'stop' ? c.req.raw.signal : undefined });
    let reasoning = '';
    for await (const p of answer.pieces) if (p.kind === 'reasoning') reasoning += p.delta;
    const result = await answer.result;
    return c.json(responseObject(head, outputOf(result, reasoning), result));
  }
  return sendSse(c, (stream) =>
    streamLifecycle(
      stream,
      c,
      options,
      turn.agent.name,
      () => streamAnswer(turn, { extra }),
      async (answer) => {
        const writer = new ResponseEventWriter(stream, head);
        await writer.start();
        for await (const p of answer.pieces) await writer.piece(p);
        await answer.result.then(
          (result) => writer.finish(result),
          (err: unknown) => writer.fail(err),
        );
      },
    ),
  );
}
