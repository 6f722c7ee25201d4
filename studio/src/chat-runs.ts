/**
 * How chat turns follow background runs: a session opened with each run's turn rebuilt from its log
 * (`loadSession`), a turn applying its run's log after its last seq until `done` and reconnecting when the
 * connection drops (`trackRun`), a message sent as a run (`submitRun`), an approval answered (`answerRun`), and a
 * paused turn answered elsewhere. The run followed and its last seq are kept in sessionStorage (`chat-run-memo`).
 */
import { api, ApiError, apiFetch, query, seg } from './api-client.js';
import type { Approval, SessionDetail } from './api-types.js';
import { forgetRun, newSessionId, recallRun, rememberRun } from './chat-run-memo.js';
import { followRun, readTurnStream, type StreamEnd, type StreamHandlers } from './chat-stream.js';
import { applyEvent, createTree } from './event-tree.js';
import { groupHistory, userText } from './history-groups.js';
import { reportRejection } from './report-rejection.js';
import type { ChatEntry, Turn } from './use-chat.js';

/** What following runs needs of the chat. */
export interface ChatRunsContext {
  /** The session shown (undefined in a new chat until its first run). */
  session(): string | undefined;
  /** Renders the turns again. */
  bump(): void;
  /** Shows the session anew, as stored. */
  reload(): void;
}

let turnIds = 0;

/** A new turn of `message`. */
export const newTurn = (message: string, extra: Partial<Turn> = {}): Turn => ({
  id: turnIds++,
  message,
  tree: createTree(),
  running: false,
  seq: 0,
  ...extra,
});

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Shows session `id` as stored, each run's turn rebuilt from its log; a run still going on streams on. */
export async function loadSession(
  ctx: ChatRunsContext & { show(entries: ChatEntry[]): void },
  id: string,
  signal: AbortSignal,
): Promise<void> {
  const detail = await api<SessionDetail>(`/sessions/${seg(id)}`).catch((err: unknown) => {
    // A session whose first run has not written to it yet.
    if (err instanceof ApiError && err.status === 404 && recallRun(id)) return undefined;
    throw err;
  });
  if (signal.aborted) return;
  const list: ChatEntry[] = [];
  const turns: Turn[] = [];
  for (const [i, g] of groupHistory(detail?.messages ?? []).entries()) {
    if (g.kind === 'messages') list.push({ kind: 'messages', key: `m${i}`, messages: g.messages });
    else turns.push(newTurn(userText(g.messages), { runId: g.runId, stored: g.messages, fromHistory: true }));
    if (g.kind === 'run') list.push({ kind: 'turn', turn: turns.at(-1)! });
  }
  const remembered = recallRun(id);
  if (remembered && !turns.some((t) => t.runId === remembered.runId)) {
    turns.push(newTurn(remembered.message, { runId: remembered.runId, fromHistory: true }));
    list.push({ kind: 'turn', turn: turns.at(-1)! });
  }
  ctx.show(list);
  for (const turn of turns) void trackRun(ctx, turn, signal).catch(reportRejection('following a run'));
}

/** Shows under `turn` the last malformed event of its stream (`onMalformed` of the stream handlers). */
export const malformedIn = (turn: Turn, bump: () => void) => (problem: string) => ((turn.malformed = problem), bump());

/** Applies the run's log after `turn.seq` to the turn until its `done`, reconnecting when the connection drops. */
export async function trackRun(ctx: ChatRunsContext, turn: Turn, signal: AbortSignal): Promise<void> {
  const { bump } = ctx;
  const runId = turn.runId!;
  const sessionId = ctx.session();
  turn.running = true;
  bump();
  const handlers: StreamHandlers = {
    onEvent: (event) => (applyEvent(turn.tree, event), bump()),
    onSeq: (seq) => {
      turn.seq = seq;
      if (sessionId && !turn.fromHistory) rememberRun(sessionId, { runId, message: turn.message, seq });
    },
    onDone: (done) => (turn.done = done),
    onMalformed: malformedIn(turn, bump),
  };
  for (let attempt = 0; ; attempt++) {
    let end: StreamEnd;
    try {
      end = await followRun({ runId, after: turn.seq, signal, handlers });
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        // No log: a turn of the chat route (its stored messages tell it), or a run gone.
        turn.running = false;
        if (turn.stored && turn.tree.eventCount === 0) turn.legacy = true;
        else turn.error = err;
        return bump();
      }
      end = { kind: 'dropped', message: (err as Error).message };
    }
    if (end.kind === 'aborted') return;
    if (end.kind === 'done') break;
    turn.notice = `Connection lost (${end.message}); reconnecting…`;
    bump();
    await wait(Math.min(15_000, 500 * 2 ** Math.min(attempt, 5)), signal);
    if (signal.aborted) return;
  }
  turn.running = false;
  turn.notice = turn.done?.status === 'cancelled' ? 'Stopped.' : undefined;
  if (sessionId) forgetRun(sessionId, runId);
  if (turn.done?.status === 'paused') void watchPaused(ctx, turn, signal).catch(reportRejection('watching a paused run'));
  bump();
}

/**
 * A turn paused for approvals may be answered elsewhere (the inbox, the CLI, another tab): while nothing was
 * answered here, look at its approvals; once none waits, follow the run's log on after its `paused` end — or,
 * when the run was resumed outside its log, show the session as stored.
 */
async function watchPaused(ctx: ChatRunsContext, turn: Turn, signal: AbortSignal): Promise<void> {
  const runId = turn.runId!;
  const answeredHere = () => turn.running || [...turn.tree.approvals.values()].some((a) => a.status !== 'pending');
  for (let attempt = 0; !signal.aborted && !answeredHere(); attempt++) {
    const listed = await api<{ approvals: Approval[] }>(`/approvals${query({ runId })}`).catch(() => undefined);
    if (signal.aborted || answeredHere()) return;
    if (listed && listed.approvals.length === 0) {
      // The background run's record (it counts `attempts`) queued again: its log goes on.
      const run = await api<{ status: string; attempts?: number }>(`/runs/${seg(runId)}`).catch(() => undefined);
      if (signal.aborted || answeredHere()) return;
      if (run && run.attempts !== undefined && run.status !== 'paused') return void trackRun(ctx, turn, signal);
      // Resumed outside its log (as a chat turn): once that ends, the session holds the rest of the turn.
      const sessionId = ctx.session();
      const busy = await api<{ runs: { runId: string; status: string }[] }>(`/runs${query({ sessionId, status: 'running' })}`).catch(
        () => undefined,
      );
      if (signal.aborted || answeredHere()) return;
      if (!busy?.runs.some((r) => r.runId === runId && r.status === 'running')) {
        if (!turn.fromHistory) return ctx.reload();
        turn.legacy = true;
        return ctx.bump();
      }
    }
    await wait(Math.min(10_000, 1500 + attempt * 500), signal);
  }
}

/** Sends `message` as a background run of the session (named here when the chat is new) and follows it. */
export async function submitRun(
  ctx: ChatRunsContext & { named(id: string): void; viaChatRoute(): Promise<void> },
  turn: Turn,
  name: string,
  signal: AbortSignal,
): Promise<void> {
  const id = ctx.session() ?? newSessionId();
  let runId: string;
  try {
    ({ runId } = await api<{ runId: string }>('/runs', { body: { agent: name, input: turn.message, sessionId: id } }));
  } catch (err) {
    if (err instanceof ApiError && err.notAvailable) return ctx.viaChatRoute();
    turn.running = false;
    turn.error = err as Error;
    return ctx.bump();
  }
  if (signal.aborted) return;
  if (ctx.session() === undefined) ctx.named(id);
  turn.runId = runId;
  rememberRun(id, { runId, message: turn.message, seq: 0 });
  await trackRun(ctx, turn, signal);
}

/** Answers an approval of a run's turn: the run goes on in the answer's stream, or in its log. */
export async function answerRun(
  ctx: ChatRunsContext,
  turn: Turn,
  approvalId: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  const { bump } = ctx;
  turn.running = true;
  turn.notice = undefined;
  bump();
  let end: StreamEnd | undefined;
  try {
    const res = await apiFetch(`/approvals/${seg(approvalId)}`, { body: { ...body, stream: true }, stream: true, signal });
    if (res.headers.get('content-type')?.includes('text/event-stream')) {
      // Resumed by the answering server, in this response.
      end = await readTurnStream(res, signal, {
        onEvent: (event) => (applyEvent(turn.tree, event), bump()),
        onDone: (done) => (turn.done = done),
        onMalformed: malformedIn(turn, bump),
      });
    } else {
      const answer = (await res.json()) as { status?: string; pendingApprovals?: unknown[] };
      // Others of the run still wait: it goes on once they are answered.
      if (answer.status === 'paused' && answer.pendingApprovals?.length) end = { kind: 'done', done: turn.done! };
    }
  } catch (err) {
    if (signal.aborted) return;
    turn.error = err as Error;
    end = { kind: 'aborted' };
  }
  if (end === undefined) return trackRun(ctx, turn, signal); // the run was queued again: its log goes on after `paused`
  turn.running = false;
  if (end.kind === 'dropped') {
    turn.notice = `Connection lost (${end.message}); reloading the session…`;
    ctx.reload();
  }
  bump();
}

/** Stop: cancels the turn's run (a run's turn follows its log to the `cancelled` end; a chat-route turn stops reading). */
export function stopTurn(ctx: ChatRunsContext, turn: Turn): void {
  turn.stopping = true;
  turn.notice = 'Stopping…';
  ctx.bump();
  const runId = turn.runId ?? turn.tree.roots.find((n) => n.kind === 'run')?.runId;
  if (runId)
    api(`/runs/${seg(runId)}/cancel`, { method: 'POST' }).catch(
      (err: Error) => ((turn.stopping = false), (turn.notice = `Could not stop the run: ${err.message}`), ctx.bump()),
    );
  if (!turn.runId) turn.abort?.();
}
