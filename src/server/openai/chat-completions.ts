import type { Context } from 'hono';

import { newId } from '../../http/new-id.js';
import { readBodyText } from '../../http/read-body.js';
import type { RunResult } from '../../types/result.js';
import type { Usage } from '../../types/usage.js';
import { parseJsonBody, parseOr400 } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { TurnOptions } from '../chat/chat-turn.js';
import type { SseSink } from '../chat/node-sse-stream.js';
import { sendSse } from '../chat/turn-response.js';
import { chatConversation, chatEntries } from './openai-messages.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema } from './openai-request-schemas.js';
import {
  type AnswerStream,
  answerToolCalls,
  beginOpenAITurn,
  finishReasonOf,
  namedSessionId,
  type OpenAIRouteOptions,
  streamAnswer,
} from './openai-turn.js';
import { streamLifecycle } from './stream-lifecycle.js';

/** Usage as Chat Completions reports it. */
export function chatUsage(u: Usage) {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}

/** The run settings a request sets: its tools, tool choice and sampling settings. */
function turnOptions(body: ChatCompletionRequest): TurnOptions {
  const extra: TurnOptions = {};
  if (body.tools?.length) {
    extra.clientTools = body.tools.map((t) => ({
      name: t.function.name,
      ...(t.function.description !== undefined ? { description: t.function.description } : {}),
      parameters: (t.function.parameters ?? { type: 'object', properties: {} }) as NonNullable<
        TurnOptions['clientTools']
      >[number]['parameters'],
    }));
  }
  const choice = body.tool_choice;
  if (choice != null) extra.toolChoice = typeof choice === 'string' ? choice : { tool: choice.function.name };
  if (body.temperature != null) extra.temperature = body.temperature;
  if (body.top_p != null) extra.topP = body.top_p;
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (max != null) extra.maxTokens = max;
  return extra;
}

/** The `message` of a finished run. */
function assistantMessage(result: RunResult, reasoning: string) {
  const calls = answerToolCalls(result);
  return {
    role: 'assistant' as const,
    content: result.text === '' && calls.length > 0 ? null : result.text,
    refusal: null,
    ...(reasoning !== '' ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0
      ? { tool_calls: calls.map((t) => ({ id: t.id, type: 'function' as const, function: { name: t.name, arguments: t.arguments } })) }
      : {}),
  };
}

/**
 * `POST /v1/chat/completions`: runs the agent named by `model` on the request's messages (or, with
 * `user`, in the session that names) and answers a `chat.completion`, or with `stream: true` SSE
 * `chat.completion.chunk`s ending with `data: [DONE]`. Server-side tool calls and the model's
 * reasoning stream as `reasoning_content`; calls of the request's `tools` end the answer as `tool_calls`.
 */
export async function chatCompletions(c: Context<ServerEnv>, options: OpenAIRouteOptions): Promise<Response> {
  const body = parseOr400(chatCompletionRequestSchema, parseJsonBody(await readBodyText(c, options.maxBodyBytes)), 'request');
  const place = body.user
    ? { kind: 'session' as const, id: namedSessionId(c, body.model, body.user), create: true }
    : { kind: 'stateless' as const };
  const { turn, kept } = await beginOpenAITurn(options.chat, c, {
    agent: body.model,
    place,
    entries: chatEntries(body.messages),
    convert: (lookup) => chatConversation(body.messages, lookup),
  });
  const extra = turnOptions(body);
  const base = { id: `chatcmpl-${newId()}`, created: Math.floor(Date.now() / 1000), model: body.model, system_fingerprint: null };
  if (kept) c.header('x-corvid-session-id', turn.sessionId);
  if (!body.stream) {
    const answer = streamAnswer(turn, { extra, signal: options.onDisconnect() === 'stop' ? c.req.raw.signal : undefined });
    let reasoning = '';
    for await (const p of answer.pieces) if (p.kind === 'reasoning') reasoning += p.delta;
    const result = await answer.result;
    return c.json({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: assistantMessage(result, reasoning), logprobs: null, finish_reason: finishReasonOf(result) }],
      usage: chatUsage(result.usage),
    });
  }
  const includeUsage = body.stream_options?.include_usage === true;
  return sendSse(c, (stream) =>
    streamLifecycle(
      stream,
      c,
      options,
      turn.agent.name,
      () => streamAnswer(turn, { extra }),
      (answer) => writeChunks(stream, answer, base, includeUsage),
    ),
  );
}

/** Writes the chunks of a streamed answer, then `[DONE]` (an error becomes a chunk with `error`). */
async function writeChunks(stream: SseSink, answer: AnswerStream, base: Record<string, unknown>, includeUsage: boolean): Promise<void> {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    stream.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) })}\n\n`,
    );
  await chunk({ role: 'assistant', content: '' });
  let streamed = false;
  for await (const p of answer.pieces) {
    if (p.kind === 'text') streamed = true;
    await chunk(p.kind === 'text' ? { content: p.delta } : { reasoning_content: p.delta });
  }
  let result: RunResult;
  try {
    result = await answer.result;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    await stream.write(
      `data: ${JSON.stringify({ error: { message: e?.message ?? String(err), type: 'server_error', param: null, code: e?.code ?? 'internal' } })}\n\n`,
    );
    await stream.write('data: [DONE]\n\n');
    return;
  }
  // Agents whose text is not streamed (workflows, remote agents) give their answer at the end.
  if (!streamed && result.text !== '') await chunk({ content: result.text });
  const calls = answerToolCalls(result);
  if (calls.length > 0) {
    await chunk({
      tool_calls: calls.map((t, index) => ({ index, id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })),
    });
  }
  await chunk({}, finishReasonOf(result));
  if (includeUsage)
    await stream.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: chatUsage(result.usage) })}\n\n`,
    );
  await stream.write('data: [DONE]\n\n');
}
