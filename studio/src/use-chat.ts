/**
 * The state of a chat with one agent. Each message is sent as a background run (`POST /runs`) of the session, and
 * its turn follows the run's event log (`GET /runs/{id}/stream?after=<seq>`) into its event tree. The run followed
 * and the last seq seen are kept in sessionStorage, so a reload — or a dropped connection — picks the run up where
 * it was. Opening a session rebuilds every turn from its run's log (the event tree, a failed turn's error, a
 * stopped turn's partial answer); turns of runs without a log show their stored messages. `stop()` cancels the run
 * (the words streamed so far stay); approvals are answered inline, and the turn follows the run again once it goes
 * on. Without background runs (a server without a store) turns go through the chat route (`chat-route-turn.ts`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';

import { api, ApiError, apiFetch, query, seg } from './api-client.js';
import type { Approval, SessionDetail, SessionMessage } from './api-types.js';
import { streamChatTurn } from './chat-route-turn.js';
import { forgetRun, newSessionId, recallRun, rememberRun } from './chat-run-memo.js';
import { followRun, readTurnStream, type StreamDone, type StreamEnd, type StreamHandlers } from './chat-stream.js';
import { applyEvent, createTree, type EventTree, resolveApproval } from './event-tree.js';
import { groupHistory, userText } from './history-groups.js';
import { href } from './use-route.js';

/** One message sent to the agent and everything its run reported. */
export interface Turn {
  id: number;
  message: string;
  tree: EventTree;
  running: boolean;
  /** The background run the turn follows (none for a turn of the chat route). */
  runId?: string;
  /** The last seq of the run's log applied to the tree. */
  seq: number;
  done?: StreamDone;
  error?: Error;
  notice?: string;
  /** The session's stored messages of the turn (a reopened session). */
  stored?: SessionMessage[];
  /** Its run has no event log: the stored messages are shown instead of the tree. */
  legacy?: boolean;
  /** Built from a reopened session (not sent from this page). */
  fromHistory?: boolean;
  /** Stop was pressed: the run is being cancelled. */
  stopping?: boolean;
  /** Stops reading a chat-route turn's stream. */
  abort?: () => void;
}

/** What the chat shows, in order: stored messages without a run, and turns. */
export type ChatEntry = { kind: 'messages'; key: string; messages: SessionMessage[] } | { kind: 'turn'; turn: Turn };

/** What the chat view needs. */
export interface Chat {
  sessionId?: string;
  entries: ChatEntry[];
  running: boolean;
  error?: Error;
  send(message: string): boolean;
  stop(): void;
  answer(turn: Turn, approvalId: string, approved: boolean, reason?: string): void;
}

let turnIds = 0;
const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const newTurn = (message: string, extra: Partial<Turn> = {}): Turn => ({
  id: turnIds++,
  message,
  tree: createTree(),
  running: false,
  seq: 0,
  ...extra,
});

export function useChat({ agent, sessionId }: { agent?: string; sessionId?: string }): Chat {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [error, setError] = useState<Error>();
  const [, setVersion] = useState(0);
  const session = useRef<string | undefined>(sessionId);
  /** Aborts every stream of the session shown (another session, another agent, the page left). */
  const scope = useRef(new AbortController());
  const bump = () => setVersion((v) => v + 1);

  /** Shows session `id` as stored, each run's turn rebuilt from its log; a run still going on streams on. */
  async function load(id: string, signal: AbortSignal): Promise<void> {
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
    setEntries(list);
    for (const turn of turns) void track(turn, signal);
  }

  useEffect(() => {
    scope.current.abort();
    const controller = new AbortController();
    scope.current = controller;
    session.current = sessionId;
    setEntries([]);
    setError(undefined);
    if (sessionId) load(sessionId, controller.signal).catch((err: Error) => controller.signal.aborted || setError(err));
    return () => scope.current.abort();
  }, [sessionId, agent]);

  /** Shows the session anew: the streams of the turns shown so far stop. */
  const reload = () => {
    const id = session.current;
    if (!id) return;
    scope.current.abort();
    const controller = new AbortController();
    scope.current = controller;
    load(id, controller.signal).catch((err: Error) => controller.signal.aborted || setError(err));
  };

  /** Applies the run's log after `turn.seq` to the turn until its `done`, reconnecting when the connection drops. */
  async function track(turn: Turn, signal: AbortSignal): Promise<void> {
    const runId = turn.runId!;
    const sessionId = session.current;
    turn.running = true;
    bump();
    const handlers: StreamHandlers = {
      onEvent: (event) => (applyEvent(turn.tree, event), bump()),
      onSeq: (seq) => {
        turn.seq = seq;
        if (sessionId && !turn.fromHistory) rememberRun(sessionId, { runId, message: turn.message, seq });
      },
      onDone: (done) => (turn.done = done),
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
    if (turn.done?.status === 'paused') void watchPaused(turn, signal);
    bump();
  }

  /**
   * A turn paused for approvals may be answered elsewhere (the inbox, the CLI, another tab): while nothing was
   * answered here, look at its approvals; once none waits, follow the run's log on after its `paused` end — or,
   * when the run was resumed outside its log, show the session as stored.
   */
  async function watchPaused(turn: Turn, signal: AbortSignal): Promise<void> {
    const runId = turn.runId!;
    const answeredHere = () => turn.running || [...turn.tree.approvals.values()].some((a) => a.status !== 'pending');
    for (let attempt = 0; !signal.aborted && !answeredHere(); attempt++) {
      const listed = await api<{ approvals: Approval[] }>(`/approvals${query({ runId })}`).catch(() => undefined);
      if (signal.aborted || answeredHere()) return;
      if (listed && listed.approvals.length === 0) {
        // The background run's record (it counts `attempts`) queued again: its log goes on.
        const run = await api<{ status: string; attempts?: number }>(`/runs/${seg(runId)}`).catch(() => undefined);
        if (signal.aborted || answeredHere()) return;
        if (run && run.attempts !== undefined && run.status !== 'paused') return void track(turn, signal);
        // Resumed outside its log (as a chat turn): once that ends, the session holds the rest of the turn.
        const sessionId = session.current;
        const busy = await api<{ runs: { runId: string; status: string }[] }>(`/runs${query({ sessionId, status: 'running' })}`).catch(
          () => undefined,
        );
        if (signal.aborted || answeredHere()) return;
        if (!busy?.runs.some((r) => r.runId === runId && r.status === 'running')) {
          if (!turn.fromHistory) return reload();
          turn.legacy = true;
          return bump();
        }
      }
      await wait(Math.min(10_000, 1500 + attempt * 500), signal);
    }
  }

  /** Sends `message` as a background run of the session (named here when the chat is new) and follows it. */
  async function submit(turn: Turn, name: string, signal: AbortSignal): Promise<void> {
    const id = session.current ?? newSessionId();
    let runId: string;
    try {
      ({ runId } = await api<{ runId: string }>('/runs', { body: { agent: name, input: turn.message, sessionId: id } }));
    } catch (err) {
      if (err instanceof ApiError && err.notAvailable) return viaChatRoute(turn, `/agents/${seg(name)}/chat`, { message: turn.message });
      turn.running = false;
      turn.error = err as Error;
      return bump();
    }
    if (signal.aborted) return;
    if (session.current === undefined) {
      session.current = id;
      window.history.replaceState(null, '', href('chat', [name], { session: id }));
    }
    turn.runId = runId;
    rememberRun(id, { runId, message: turn.message, seq: 0 });
    await track(turn, signal);
  }

  /** A turn through the chat route (a server without background runs). */
  function viaChatRoute(turn: Turn, path: string, body: Record<string, unknown>): Promise<void> {
    return streamChatTurn({
      turn,
      path,
      body: { ...body, stream: true, ...(session.current && { sessionId: session.current }) },
      scope: scope.current.signal,
      onSession: (s) => {
        if (session.current) return;
        session.current = s.sessionId;
        window.history.replaceState(null, '', href('chat', [s.agent], { session: s.sessionId }));
      },
      bump,
      reload,
    });
  }

  /** Answers an approval of a run's turn: the run goes on in the answer's stream, or in its log. */
  async function answerRun(turn: Turn, approvalId: string, body: Record<string, unknown>, signal: AbortSignal): Promise<void> {
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
    if (end === undefined) return track(turn, signal); // the run was queued again: its log goes on after `paused`
    turn.running = false;
    if (end.kind === 'dropped') {
      turn.notice = `Connection lost (${end.message}); reloading the session…`;
      reload();
    }
    bump();
  }

  const turns = entries.flatMap((e) => (e.kind === 'turn' ? [e.turn] : []));
  const running = turns.some((t) => t.running);
  return {
    sessionId: session.current,
    entries,
    running,
    error,
    send(message) {
      if (!message || !agent || running) return false;
      const turn = newTurn(message, { running: true });
      setEntries((all) => [...all, { kind: 'turn', turn }]);
      void submit(turn, agent, scope.current.signal);
      return true;
    },
    stop() {
      const turn = turns.find((t) => t.running);
      if (!turn) return;
      turn.stopping = true;
      turn.notice = 'Stopping…';
      bump();
      const runId = turn.runId ?? turn.tree.roots.find((n) => n.kind === 'run')?.runId;
      if (runId) api(`/runs/${seg(runId)}/cancel`, { method: 'POST' }).catch(() => undefined);
      // A chat-route turn stops reading at once; a run's turn follows its log to the `cancelled` end.
      if (!turn.runId) turn.abort?.();
    },
    answer(turn, approvalId, approved, reason) {
      resolveApproval(turn.tree, approvalId, approved);
      const body = { approved, ...(reason && { reason }) };
      if (turn.runId) void answerRun(turn, approvalId, body, scope.current.signal);
      else void viaChatRoute(turn, `/approvals/${seg(approvalId)}`, body);
    },
  };
}
