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

import { seg } from './api-client.js';
import type { SessionMessage } from './api-types.js';
import { streamChatTurn } from './chat-route-turn.js';
import { answerRun, type ChatRunsContext, loadSession, newTurn, stopTurn, submitRun } from './chat-runs.js';
import type { StreamDone } from './chat-stream.js';
import { type EventTree, resolveApproval } from './event-tree.js';
import { reportRejection } from './report-rejection.js';
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
  /** The last event of its stream that was malformed (skipped; the stream read on). */
  malformed?: string;
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

export function useChat({ agent, sessionId }: { agent?: string; sessionId?: string }): Chat {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [error, setError] = useState<Error>();
  const [, setVersion] = useState(0);
  const session = useRef<string | undefined>(sessionId);
  /** Aborts every stream of the session shown (another session, another agent, the page left). */
  const scope = useRef(new AbortController());
  /** Shows session `id` (stored turns rebuilt from their runs' logs); the streams of the turns shown so far stop. */
  const show = (id: string | undefined) => {
    scope.current.abort();
    const controller = new AbortController();
    scope.current = controller;
    if (id)
      loadSession({ ...ctx, show: setEntries }, id, controller.signal).catch((err: Error) => controller.signal.aborted || setError(err));
  };
  const ctx: ChatRunsContext = {
    session: () => session.current,
    bump: () => setVersion((v) => v + 1),
    reload: () => show(session.current),
  };
  /** Names the session of a new chat (in the address too, so a reload comes back to it). */
  const named = (id: string, agentName: string) => {
    session.current = id;
    window.history.replaceState(null, '', href('chat', [agentName], { session: id }));
  };
  const viaChatRoute = (turn: Turn, path: string, body: Record<string, unknown>) =>
    streamChatTurn({
      ...ctx,
      turn,
      path,
      body: { ...body, stream: true, ...(session.current && { sessionId: session.current }) },
      scope: scope.current.signal,
      onSession: (s) => session.current ?? named(s.sessionId, s.agent),
    });

  useEffect(() => {
    session.current = sessionId;
    setEntries([]);
    setError(undefined);
    show(sessionId);
    return () => scope.current.abort();
  }, [sessionId, agent]);

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
      const runCtx = {
        ...ctx,
        named: (id: string) => named(id, agent),
        viaChatRoute: () => viaChatRoute(turn, `/agents/${seg(agent)}/chat`, { message }),
      };
      void submitRun(runCtx, turn, agent, scope.current.signal).catch(reportRejection('sending the message'));
      return true;
    },
    stop() {
      const turn = turns.find((t) => t.running);
      if (turn) stopTurn(ctx, turn);
    },
    answer(turn, approvalId, approved, reason) {
      resolveApproval(turn.tree, approvalId, approved);
      const body = { approved, ...(reason && { reason }) };
      if (turn.runId) void answerRun(ctx, turn, approvalId, body, scope.current.signal).catch(reportRejection('answering an approval'));
      else void viaChatRoute(turn, `/approvals/${seg(approvalId)}`, body).catch(reportRejection('answering an approval'));
    },
  };
}
