import { createHash } from 'node:crypto';

import type { Context } from 'hono';

import { HttpError } from '../../http/http-error.js';
import type { Message } from '../../types/message.js';
import type { RunResult } from '../../types/result.js';
import type { ServerEnv } from '../app/server-env.js';
import { principalUser } from '../auth/principal.js';
import type { ChatService } from '../chat/chat-service.js';
import type { ChatTurn, TurnOptions } from '../chat/chat-turn.js';
import type { ServerMetrics } from '../observability/server-metrics.js';
import { APPROVAL_TOOL, type RequestEntry, resumeAnsweredApprovals } from './approval-answers.js';
import type { ClientConversation } from './openai-messages.js';
import { type AnswerPiece, RunNarrator } from './run-narrator.js';

/** What the OpenAI-compatible routes need of the server. */
export interface OpenAIRouteOptions {
  chat: ChatService;
  metrics: ServerMetrics;
  /** What happens to a run when its client goes away. */
  onDisconnect: () => 'continue' | 'stop';
  maxBodyBytes: number;
  /** Seconds between SSE keep-alive comments. Default 15. */
  heartbeatSeconds?: number;
}

/**
 * Where a request's turn runs: no session (the request's messages are the conversation), or a
 * session — by id (`create`: made for the caller when missing, else 404), or a new one (no id).
 */
export type TurnPlace = { kind: 'stateless' } | { kind: 'session'; id?: string; create: boolean };

/** The id of the session a client names (`user`, `conversation`): one per caller, agent and name. */
export function namedSessionId(c: Context<ServerEnv>, agent: string, name: string): string {
  const owner = principalUser(c.get('principal')) ?? '';
  return `oai-${createHash('sha256').update(`${owner}\0${agent}\0${name}`).digest('hex').slice(0, 40)}`;
}

/** Tool-call names of a session's history (tool results sent for calls made in earlier turns). */
async function sessionToolNames(chat: ChatService, c: Context<ServerEnv>, id: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const s = await chat.session(id, c.get('principal'));
  for (const m of s?.messages ?? []) {
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call') names.set(p.toolCallId, p.toolName);
  }
  return names;
}

/** The turn a request starts, and whether it runs in a session (kept after it). */
export interface OpenAITurn {
  turn: ChatTurn;
  kept: boolean;
}

/**
 * Starts the turn of a request: the resumed run when its new messages answer `corvid_approval`
 * calls; else stateless (the request's messages are the conversation), or in a session (only the
 * messages after the last assistant message are new; the session has the rest).
 */
export async function beginOpenAITurn(
  chat: ChatService,
  c: Context<ServerEnv>,
  request: {
    agent: string;
    place: TurnPlace;
    entries: RequestEntry[];
    convert: (lookup?: (id: string) => string | undefined) => ClientConversation;
  },
): Promise<OpenAITurn> {
  const { agent, place } = request;
  const sessionId = place.kind === 'session' ? place.id : undefined;
  const resumed = await resumeAnsweredApprovals(chat, c, { agent, entries: request.entries, sessionId });
  if (resumed !== undefined) return { turn: resumed, kept: true };
  const who = { agent, principal: c.get('principal'), client: c.get('client') };
  if (place.kind === 'stateless') return { turn: await chat.beginStateless({ ...who, messages: request.convert().messages }), kept: false };
  let conversation: ClientConversation;
  try {
    conversation = request.convert();
  } catch (err) {
    // A tool result for a call the session made earlier (the client sent only the new messages).
    if (!(err instanceof HttpError) || !err.message.includes('names no tool call') || place.id === undefined) throw err;
    const names = await sessionToolNames(chat, c, place.id);
    conversation = request.convert((id) => names.get(id));
  }
  const input: Message[] = conversation.messages.slice(conversation.newFrom);
  if (input.length === 0) throw new HttpError(400, 'invalid_request', 'Invalid request: nothing new after the last assistant message');
  return { turn: await chat.begin({ ...who, message: input, sessionId: place.id, createSession: place.create }), kept: true };
}

/** A running turn as an OpenAI answer: its pieces as they come, then the result. */
export interface AnswerStream {
  pieces: AsyncIterable<AnswerPiece>;
  /** Rejects when the run fails. */
  result: Promise<RunResult>;
  abort(reason?: unknown): void;
}

/** Runs a turn with the request's client tools and settings, its events turned into answer pieces. */
export function streamAnswer(turn: ChatTurn, options: { extra: TurnOptions; signal?: AbortSignal }): AnswerStream {
  const clientTools = new Set((options.extra.clientTools ?? []).map((t) => t.name));
  const narrator = new RunNarrator(turn.agent.name, clientTools);
  const run = turn.stream(options.signal, options.extra);
  async function* pieces(): AsyncGenerator<AnswerPiece> {
    for await (const e of run) {
      const piece = narrator.piece(e);
      if (piece !== undefined) yield piece;
    }
  }
  return { pieces: pieces(), result: run.result, abort: (reason) => run.abort(reason) };
}

/** The OpenAI finish reason of a run. */
export function finishReasonOf(result: RunResult): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  if (result.clientToolCalls?.length || result.status === 'paused') return 'tool_calls';
  if (result.finishReason === 'length') return 'length';
  if (result.finishReason === 'content-filter') return 'content_filter';
  return 'stop';
}

/** Tool calls an answer carries: the client's tools the agent called, and approvals it waits for (`corvid_approval`). */
export function answerToolCalls(result: RunResult): Array<{ id: string; name: string; arguments: string }> {
  const calls = (result.clientToolCalls ?? []).map((c) => ({
    id: c.toolCallId,
    name: c.toolName,
    arguments: JSON.stringify(c.input ?? {}),
  }));
  for (const a of result.pendingApprovals ?? []) {
    calls.push({
      id: a.approvalId,
      name: APPROVAL_TOOL,
      arguments: JSON.stringify({ tool: a.toolName, input: a.input, prompt: a.prompt }),
    });
  }
  return calls;
}
