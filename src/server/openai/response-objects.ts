import { newId } from '../../http/new-id.js';
import type { RunResult } from '../../types/result.js';
import type { Usage } from '../../types/usage.js';
import { answerToolCalls } from './openai-turn.js';

// The objects of the Responses API (OpenAI's, as the Open Responses specification describes them).

const hex = () => newId().replace(/-/g, '');

/** An item id with its type's prefix (`msg_…`, `rs_…`, `fc_…`). */
export function itemId(prefix: 'msg' | 'rs' | 'fc'): string {
  return `${prefix}_${hex()}`;
}

/** A response id; a kept response's names its session, so `previous_response_id` finds it. */
export function responseId(sessionId: string | undefined): string {
  return sessionId === undefined ? `resp_${hex()}` : `resp_${hex()}.${Buffer.from(sessionId).toString('base64url')}`;
}

/** The session of a kept response (`undefined` for ids this server did not make, or made with `store: false`). */
export function sessionOfResponse(id: string): string | undefined {
  const m = /^resp_[0-9a-f]{32}\.([A-Za-z0-9_-]{1,400})$/.exec(id);
  return m ? Buffer.from(m[1], 'base64url').toString('utf8') : undefined;
}

/** Usage as the Responses API reports it. */
export function responseUsage(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cachedInputTokens },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

export type OutputItem =
  | { type: 'reasoning'; id: string; summary: Array<{ type: 'summary_text'; text: string }>; status?: string }
  | {
      type: 'message';
      id: string;
      status: string;
      role: 'assistant';
      content: Array<{ type: 'output_text'; text: string; annotations: []; logprobs: [] }>;
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string };

export const reasoningItem = (id: string, text: string): OutputItem => ({
  type: 'reasoning',
  id,
  summary: text ? [{ type: 'summary_text', text }] : [],
});
export const messageItem = (id: string, text: string, status = 'completed'): OutputItem => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

/** The `function_call` items of a finished run: calls of the client's tools, and approvals asked (`corvid_approval`). */
export function functionCallItems(result: RunResult): OutputItem[] {
  return answerToolCalls(result).map((t) => ({
    type: 'function_call',
    id: itemId('fc'),
    call_id: t.id,
    name: t.name,
    arguments: t.arguments,
    status: 'completed',
  }));
}

/** What a response object shows of its request. */
export interface ResponseHead {
  id: string;
  created_at: number;
  model: string;
  instructions: string | null;
  previous_response_id: string | null;
  conversation: { id: string } | null;
  store: boolean;
  tools: unknown[];
  tool_choice: unknown;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
}

/** A response object: `in_progress` (no result yet), or finished with the result's output and usage. */
export function responseObject(head: ResponseHead, output: OutputItem[], result?: RunResult, error?: { code: string; message: string }) {
  const incomplete = result?.finishReason === 'length' && !result.clientToolCalls?.length;
  const status = error ? 'failed' : result === undefined ? 'in_progress' : incomplete ? 'incomplete' : 'completed';
  return {
    ...head,
    object: 'response',
    status,
    completed_at: result !== undefined ? Math.floor(Date.now() / 1000) : null,
    error: error ?? null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output,
    parallel_tool_calls: true,
    reasoning: { effort: null, summary: null },
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    metadata: {},
    user: null,
    usage: result !== undefined ? responseUsage(result.usage) : null,
  };
}
