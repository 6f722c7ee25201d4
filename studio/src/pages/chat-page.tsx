/**
 * Chat: pick an agent and talk. Each turn streams over SSE (fetch + ReadableStream) into its event tree; Stop
 * aborts the fetch (and asks the server to cancel the run); approvals are answered inline and the resumed run
 * streams into the same turn. A dropped stream reloads the session's history from the API and keeps polling
 * while its run is still going.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

import { api, ApiError, query, seg } from '../api-client.js';
import type { AgentInfo, RunInfo, SessionDetail, SessionMessage } from '../api-types.js';
import { runStream, type StreamDone, type StreamEnd } from '../chat-stream.js';
import { applyEvent, createTree, type EventTree, resolveApproval, turnUsage } from '../event-tree.js';
import { EventTreeView } from '../event-tree-view.js';
import { SessionHistory } from '../session-history.js';
import { href, navigate } from '../use-route.js';
import { ErrorBox, Markdown, PageHeader, UsageText } from '../ui.js';

interface Turn {
  id: number;
  message: string;
  tree: EventTree;
  running: boolean;
  done?: StreamDone;
  error?: Error;
  notice?: string;
}

let turnIds = 0;

export function ChatPage({ agentName, sessionId }: { agentName?: string; sessionId?: string }) {
  const [agents, setAgents] = useState<AgentInfo[]>();
  const [loadError, setLoadError] = useState<Error>();
  const [history, setHistory] = useState<SessionMessage[]>([]);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [, setVersion] = useState(0);
  const [text, setText] = useState('');
  const abort = useRef<AbortController>();
  const session = useRef<string | undefined>(sessionId);
  const bump = () => setVersion((v) => v + 1);

  useEffect(() => {
    api<{ agents: AgentInfo[] }>('/agents').then((r) => setAgents(r.agents), setLoadError);
  }, []);
  const agent = agentName ?? agents?.find((a) => a.default)?.name ?? agents?.[0]?.name;

  useEffect(() => {
    session.current = sessionId;
    setTurns([]);
    setHistory([]);
    if (sessionId) reloadHistory(sessionId).catch(setLoadError);
  }, [sessionId, agentName]);

  async function reloadHistory(id: string): Promise<SessionDetail> {
    const detail = await api<SessionDetail>(`/sessions/${seg(id)}`);
    setHistory(detail.messages);
    return detail;
  }

  async function stream(turn: Turn, path: string, body: unknown): Promise<void> {
    const controller = new AbortController();
    abort.current = controller;
    turn.running = true;
    bump();
    let end: StreamEnd;
    try {
      end = await runStream({
        path,
        body,
        signal: controller.signal,
        handlers: {
          onSession: (s) => {
            if (!session.current) (session.current = s.sessionId), history.length === 0 && replaceUrl(s.agent, s.sessionId);
          },
          onEvent: (event) => (applyEvent(turn.tree, event), bump()),
          onDone: (done) => (turn.done = done),
        },
      });
    } catch (err) {
      end = controller.signal.aborted ? { kind: 'aborted' } : { kind: 'done', done: { status: 'failed' } };
      if (!controller.signal.aborted) turn.error = err as Error;
    }
    turn.running = false;
    if (end.kind === 'aborted') turn.notice = 'Stopped.';
    if (end.kind === 'dropped') catchUp(turn, end.message);
    bump();
  }

  /** After a dropped stream: reload the session (retrying with back-off) and poll while its run goes on. */
  async function catchUp(turn: Turn, why: string): Promise<void> {
    const id = session.current;
    turn.notice = `Connection lost (${why}); reloading the session…`;
    bump();
    if (!id) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await reloadHistory(id);
        const running = await api<{ runs: RunInfo[] }>(`/runs${query({ sessionId: id, status: 'running' })}`).catch(() => ({ runs: [] }));
        setTurns((all) => all.filter((t) => t !== turn));
        if (running.runs.length === 0) return;
      } catch (err) {
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) return (turn.error = err), bump();
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5))));
    }
  }

  function send(event?: Event) {
    event?.preventDefault();
    const message = text.trim();
    if (!message || !agent || turns.some((t) => t.running)) return;
    const turn: Turn = { id: turnIds++, message, tree: createTree(), running: true };
    setTurns((all) => [...all, turn]);
    setText('');
    void stream(turn, `/agents/${seg(agent)}/chat`, { message, stream: true, ...(session.current && { sessionId: session.current }) });
  }

  function stop() {
    abort.current?.abort();
    const running = turns.find((t) => t.running);
    const runId = running?.tree.roots[0]?.kind === 'run' ? running.tree.roots[0].runId : undefined;
    if (runId) api(`/runs/${seg(runId)}/cancel`, { method: 'POST' }).catch(() => undefined);
  }

  function answer(turn: Turn, approvalId: string, approved: boolean, reason?: string) {
    resolveApproval(turn.tree, approvalId, approved);
    void stream(turn, `/approvals/${seg(approvalId)}`, { approved, stream: true, ...(reason && { reason }) });
  }

  const running = turns.some((t) => t.running);
  return (
    <section class="chat">
      <PageHeader title="Chat">
        <label for="agent-picker">Agent</label>
        <select id="agent-picker" value={agent} onChange={(e) => navigate(href('chat', [e.currentTarget.value]))}>
          {(agents ?? []).map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
        <a class="button" href={href('chat', agent ? [agent] : [])} onClick={() => (session.current = undefined)}>
          New chat
        </a>
      </PageHeader>
      {loadError ? <ErrorBox error={loadError} /> : null}
      {session.current ? (
        <p class="muted">
          Session <code>{session.current}</code>
        </p>
      ) : null}
      <SessionHistory messages={history} />
      <ol class="turns" aria-live="polite">
        {turns.map((turn) => (
          <TurnView key={turn.id} turn={turn} onAnswer={(id, ok, reason) => answer(turn, id, ok, reason)} />
        ))}
      </ol>
      <form class="composer" onSubmit={send}>
        <label for="chat-input" class="visually-hidden">
          Message
        </label>
        <textarea
          id="chat-input"
          rows={3}
          value={text}
          placeholder={agent ? `Message ${agent} (Enter sends, Shift+Enter for a new line)` : 'No agent to talk to'}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && !e.shiftKey && !e.isComposing && send(e)}
        />
        {running ? (
          <button type="button" class="danger" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit" class="primary" disabled={!agent || !text.trim()}>
            Send
          </button>
        )}
      </form>
    </section>
  );
}

function replaceUrl(agent: string, sessionId: string): void {
  history.replaceState(null, '', href('chat', [agent], { session: sessionId }));
}

function TurnView({ turn, onAnswer }: { turn: Turn; onAnswer: (approvalId: string, approved: boolean, reason?: string) => void }) {
  const usage = turnUsage(turn.tree);
  const done = turn.done;
  return (
    <li class="turn">
      <div class="message message-user">
        <div class="message-role">you</div>
        <p class="user-text">{turn.message}</p>
      </div>
      <EventTreeView tree={turn.tree} version={turn.tree.version} onAnswer={onAnswer} />
      {turn.tree.answer !== undefined && !turn.running ? (
        <div class="message message-assistant final-answer">
          <div class="message-role">answer</div>
          <Markdown text={turn.tree.answer} />
        </div>
      ) : null}
      <div class="turn-footer muted">
        {turn.running ? <span aria-busy="true">Running… {turn.tree.eventCount} events</span> : null}
        {done ? <span class={`badge badge-${done.status}`}>{done.status}</span> : null}
        {done?.error ? <span class="error-text">{done.error.message}</span> : null}
        {usage ? (
          <>
            {' '}
            turn: <UsageText usage={usage} />
          </>
        ) : null}
        {turn.notice ? <span role="status"> {turn.notice}</span> : null}
      </div>
      {turn.error ? <ErrorBox error={turn.error} /> : null}
    </li>
  );
}
