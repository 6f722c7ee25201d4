/**
 * The state of a chat with one agent: the session's stored history and the turns streamed in this page. Each
 * turn streams over SSE into its event tree; `stop()` aborts the fetch (and asks the server to cancel the run);
 * approvals are answered inline and the resumed run streams into the same turn. A dropped stream reloads the
 * session's history from the API (retrying with back-off) and keeps reloading while its run still goes on.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

import { api, ApiError, query, seg } from './api-client.js';
import type { RunInfo, SessionDetail, SessionMessage } from './api-types.js';
import { runStream, type StreamDone, type StreamEnd } from './chat-stream.js';
import { applyEvent, createTree, type EventTree, resolveApproval } from './event-tree.js';
import { href } from './use-route.js';

/** One message sent from this page and everything the run reported. */
export interface Turn {
  id: number;
  message: string;
  tree: EventTree;
  running: boolean;
  done?: StreamDone;
  error?: Error;
  notice?: string;
}

/** What the chat view needs. */
export interface Chat {
  sessionId?: string;
  history: SessionMessage[];
  turns: Turn[];
  running: boolean;
  error?: Error;
  send(message: string): boolean;
  stop(): void;
  answer(turn: Turn, approvalId: string, approved: boolean, reason?: string): void;
}

let turnIds = 0;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function useChat({ agent, sessionId }: { agent?: string; sessionId?: string }): Chat {
  const [history, setHistory] = useState<SessionMessage[]>([]);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [error, setError] = useState<Error>();
  const [, setVersion] = useState(0);
  const abort = useRef<AbortController>();
  const session = useRef<string | undefined>(sessionId);
  const bump = () => setVersion((v) => v + 1);

  const reloadHistory = async (id: string) => setHistory((await api<SessionDetail>(`/sessions/${seg(id)}`)).messages);

  useEffect(() => {
    session.current = sessionId;
    setTurns([]);
    setHistory([]);
    setError(undefined);
    if (sessionId) reloadHistory(sessionId).catch(setError);
  }, [sessionId, agent]);

  async function stream(turn: Turn, path: string, body: unknown): Promise<void> {
    const controller = new AbortController();
    abort.current = controller;
    turn.running = true;
    turn.notice = undefined;
    bump();
    let end: StreamEnd;
    try {
      end = await runStream({
        path,
        body,
        signal: controller.signal,
        handlers: {
          onSession: (s) => {
            if (session.current) return;
            session.current = s.sessionId;
            window.history.replaceState(null, '', href('chat', [s.agent], { session: s.sessionId }));
          },
          onEvent: (event) => (applyEvent(turn.tree, event), bump()),
          onDone: (done) => (turn.done = done),
        },
      });
    } catch (err) {
      end = { kind: 'aborted' };
      if (!controller.signal.aborted) turn.error = err as Error;
    }
    turn.running = false;
    if (end.kind === 'aborted' && controller.signal.aborted) turn.notice = 'Stopped.';
    const follow = {
      turn,
      sessionId: session.current,
      reload: reloadHistory,
      bump,
      drop: () => setTurns((all) => all.filter((t) => t !== turn)),
    };
    if (end.kind === 'done' && end.done.status === 'paused' && end.done.runId) void followPaused({ ...follow, runId: end.done.runId });
    if (end.kind === 'dropped') void catchUp({ ...follow, why: end.message });
    bump();
  }

  const running = turns.some((t) => t.running);
  return {
    sessionId: session.current,
    history,
    turns,
    running,
    error,
    send(message) {
      if (!message || !agent || running) return false;
      const turn: Turn = { id: turnIds++, message, tree: createTree(), running: true };
      setTurns((all) => [...all, turn]);
      void stream(turn, `/agents/${seg(agent)}/chat`, { message, stream: true, ...(session.current && { sessionId: session.current }) });
      return true;
    },
    stop() {
      abort.current?.abort();
      const root = turns.find((t) => t.running)?.tree.roots[0];
      if (root?.kind === 'run') api(`/runs/${seg(root.runId)}/cancel`, { method: 'POST' }).catch(() => undefined);
    },
    answer(turn, approvalId, approved, reason) {
      resolveApproval(turn.tree, approvalId, approved);
      void stream(turn, `/approvals/${seg(approvalId)}`, { approved, stream: true, ...(reason && { reason }) });
    },
  };
}

/** After a dropped stream: reload the session (retrying with back-off) until its run is no longer running. */
async function catchUp(opts: {
  turn: Turn;
  why: string;
  sessionId?: string;
  reload: (id: string) => Promise<void>;
  bump: () => void;
  drop: () => void;
}): Promise<void> {
  const { turn, sessionId } = opts;
  turn.notice = `Connection lost (${opts.why}); reloading the session…`;
  opts.bump();
  if (!sessionId) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await opts.reload(sessionId);
      // `?status=running` lists interrupted runs too (stored as running): only those still running are worth waiting for.
      const listed = await api<{ runs: RunInfo[] }>(`/runs${query({ sessionId, status: 'running' })}`).catch(() => ({ runs: [] }));
      opts.drop();
      if (!listed.runs.some((r) => r.status === 'running')) return;
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) return void ((turn.error = err), opts.bump());
    }
    await wait(Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)));
  }
}

/**
 * A turn paused for approvals may be answered elsewhere (the inbox, the CLI, another tab): poll its run while it
 * is paused and nothing was answered here; once it moved on, reload the session (it holds the rest of the turn).
 */
async function followPaused(opts: {
  turn: Turn;
  runId: string;
  sessionId?: string;
  reload: (id: string) => Promise<void>;
  drop: () => void;
}): Promise<void> {
  const { turn } = opts;
  const answeredHere = () => turn.running || [...turn.tree.approvals.values()].some((a) => a.status !== 'pending');
  for (let attempt = 0; !answeredHere(); attempt++) {
    await wait(Math.min(10_000, 1500 + attempt * 500));
    if (answeredHere()) return;
    const run = await api<RunInfo>(`/runs/${seg(opts.runId)}`).catch(() => undefined);
    if (!run || run.status === 'paused') continue;
    if (run.status === 'running') continue;
    if (opts.sessionId) await opts.reload(opts.sessionId).catch(() => undefined);
    return opts.drop();
  }
}
