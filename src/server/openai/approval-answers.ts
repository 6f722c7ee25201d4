import type { Context } from 'hono';
import { z } from 'zod';

import { HttpError } from '../../http/http-error.js';
import type { Approval } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';
import { RECORD_ID } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import { answerApproval, visibleApproval } from '../approvals/approval-routes.js';
import type { ChatService } from '../chat/chat-service.js';
import type { ChatTurn } from '../chat/chat-turn.js';

/** The name of the tool call that asks the client to approve a call of the agent's own tools. */
export const APPROVAL_TOOL = 'corvid_approval';

/**
 * One message (chat) or item (responses) of a request, as approval answers see it: tool calls an
 * assistant made (none for a plain assistant message), a tool result, or anything else. `param` names it.
 */
export type RequestEntry =
  | { kind: 'calls'; calls: Array<{ id: string; name: string }> }
  | { kind: 'result'; id: string; text: string; param: string }
  | { kind: 'other'; param: string };

type Result = Extract<RequestEntry, { kind: 'result' }>;
type Answer = { approved: boolean; reason?: string };

/** The one format an approval's answer has: the JSON of `POST /api/v1/approvals/{id}`'s body, without `stream`. */
const answerSchema = z.strictObject({ approved: z.boolean(), reason: z.string().max(10_000).optional() });

function bad(param: string, message: string): HttpError {
  return new HttpError(400, 'invalid_request', `Invalid request: "${param}" ${message}`);
}

/** The answer a tool result carries: `{"approved": true}` or `{"approved": false, "reason": "…"}`, nothing else. */
export function parseApprovalAnswer(text: string, param: string): Answer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) {
    const got = JSON.stringify(text.length > 100 ? `${text.slice(0, 99)}…` : text);
    throw bad(
      param,
      `must answer the ${APPROVAL_TOOL} call with the JSON {"approved": true} or {"approved": false, "reason": "…"} (got ${got})`,
    );
  }
  const { approved, reason } = parsed.data;
  return reason === undefined ? { approved } : { approved, reason };
}

/**
 * The tool results of a request's new entries (after its last assistant message or tool call) that
 * answer approvals: results of `corvid_approval` calls the request shows, or — when the request
 * shows no call with that id (a session client sends only the new messages) — of a stored approval.
 * A request answering approvals carries nothing else: 400.
 */
async function answeringResults(entries: RequestEntry[], store: Store | undefined): Promise<Result[]> {
  const named = new Map<string, string>();
  let last = -1;
  entries.forEach((e, i) => {
    if (e.kind !== 'calls') return;
    last = i;
    for (const call of e.calls) named.set(call.id, call.name);
  });
  const answers: Result[] = [];
  const others: string[] = [];
  for (const e of entries.slice(last + 1)) {
    if (e.kind === 'calls') continue;
    if (e.kind === 'result' && (await answersApproval(e.id, named, store))) answers.push(e);
    else others.push(e.param);
  }
  if (answers.length > 0 && others.length > 0) {
    throw bad(
      others[0],
      `cannot come with answers to ${APPROVAL_TOOL} calls: a request answering approvals carries only their tool results (send it once the run has resumed)`,
    );
  }
  return answers;
}

async function answersApproval(id: string, named: Map<string, string>, store: Store | undefined): Promise<boolean> {
  const name = named.get(id);
  if (name !== undefined) return name === APPROVAL_TOOL;
  return store !== undefined && RECORD_ID.test(id) && (await store.approvals.get(id)) !== undefined;
}

/**
 * When a request's new entries answer `corvid_approval` calls: answers those approvals (as
 * `POST /api/v1/approvals/{id}` does, with its visibility rules) and returns the turn resuming their
 * run; `undefined` for any other request. Every pending approval of the run must be answered at
 * once, and in a named session (`sessionId`) the approvals must be of that session.
 */
export async function resumeAnsweredApprovals(
  chat: ChatService,
  c: Context<ServerEnv>,
  request: { agent: string; entries: RequestEntry[]; sessionId?: string },
): Promise<ChatTurn | undefined> {
  const store = chat.store === undefined ? undefined : await chat.store();
  const results = await answeringResults(request.entries, store);
  if (results.length === 0) return undefined;
  const answers = results.map((r) => ({ ...r, answer: parseApprovalAnswer(r.text, r.param) }));
  const principal = c.get('principal');
  const approvals: Approval[] = [];
  for (const a of answers) approvals.push((await visibleApproval(chat, a.id, principal)).approval);
  await checkAnswerable(store!, approvals, answers, request);
  let turn: ChatTurn | undefined;
  for (const a of answers) {
    const outcome = await answerApproval(chat, { approvalId: a.id, principal, client: c.get('client'), answer: a.answer });
    if (outcome.kind === 'resume') turn = outcome.turn;
  }
  if (turn === undefined) throw new HttpError(409, 'approval_answered', 'The run of these approvals is not waiting for them any more');
  c.get('log').info({ runId: approvals[0].runId, approvals: answers.length }, 'approvals answered over the OpenAI API; resuming the run');
  return turn;
}

/**
 * 400 unless the answers are of one run of the request's agent (and session, when it names one)
 * and answer all the run waits for; 409 for a background run.
 */
async function checkAnswerable(
  store: Store,
  approvals: Approval[],
  answers: Result[],
  { agent, sessionId }: { agent: string; sessionId?: string },
): Promise<void> {
  const { runId } = approvals[0];
  const run = await store.checkpoints.getRun(runId);
  if (run !== undefined && run.agent !== agent)
    throw bad(answers[0].param, `answers an approval of a run of agent "${run.agent}", not "${agent}"`);
  approvals.forEach((a, i) => {
    if (a.runId !== runId)
      throw bad(answers[i].param, `answers an approval of another run than "${answers[0].param}": answer one run's approvals at a time`);
    if (sessionId !== undefined && a.sessionId !== sessionId) throw bad(answers[i].param, 'answers an approval of another conversation');
  });
  const answered = new Set(approvals.map((a) => a.id));
  const missing = (await store.approvals.listPending({ runId })).find((a) => !answered.has(a.id));
  if (missing !== undefined) {
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid request: the run also waits for approval "${missing.id}" (${missing.toolName}): answer every ${APPROVAL_TOOL} call of the answer in one request`,
    );
  }
  if ((await store.backgroundRuns.get(runId)) !== undefined) {
    throw new HttpError(409, 'background_run', `Run "${runId}" is a background run: answer its approvals with POST /api/v1/approvals/{id}`);
  }
}
