/**
 * Chat: pick an agent and talk; each turn's events render live as a tree (see use-chat.ts for the streaming), a
 * reopened session shows its turns the same way. The composer stays at the bottom of the window.
 */
import { useEffect, useState } from 'preact/hooks';

import { api } from '../api-client.js';
import type { AgentInfo } from '../api-types.js';
import { type RunNode, type StepNode, turnUsage } from '../event-tree.js';
import { EventTreeView } from '../event-tree-view.js';
import { SessionHistory } from '../session-history.js';
import { ErrorBox, Markdown, PageHeader, UsageText } from '../ui.js';
import { type Turn, useChat } from '../use-chat.js';
import { useFollowBottom } from '../use-follow-bottom.js';
import { href, navigate } from '../use-route.js';

export function ChatPage({ agentName, sessionId }: { agentName?: string; sessionId?: string }) {
  const [agents, setAgents] = useState<AgentInfo[]>();
  const [loadError, setLoadError] = useState<Error>();
  useEffect(() => {
    api<{ agents: AgentInfo[] }>('/agents').then((r) => setAgents(r.agents), setLoadError);
  }, []);
  const agent = agentName ?? agents?.find((a) => a.default)?.name ?? agents?.[0]?.name;
  const chat = useChat({ agent, sessionId });
  const follow = useFollowBottom();
  const send = (text: string) => {
    const sent = chat.send(text);
    if (sent) follow.pin();
    return sent;
  };
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
        <a class="button" href={href('chat', agent ? [agent] : [], { new: String(Date.now()) })}>
          New chat
        </a>
      </PageHeader>
      {loadError ? <ErrorBox error={loadError} /> : null}
      {chat.error ? <ErrorBox error={chat.error} what="Session" /> : null}
      {chat.sessionId ? (
        <p class="muted">
          Session <a href={href('sessions', [chat.sessionId])}>{chat.sessionId}</a>
        </p>
      ) : null}
      <div class="chat-log">
        {chat.entries.map((entry) =>
          entry.kind === 'messages' ? (
            <SessionHistory key={entry.key} messages={entry.messages} />
          ) : (
            <ol class="turns" key={entry.turn.id}>
              <TurnView turn={entry.turn} onAnswer={(id, ok, reason) => chat.answer(entry.turn, id, ok, reason)} />
            </ol>
          ),
        )}
      </div>
      <Composer agent={agent} running={chat.running} onSend={send} onStop={chat.stop} />
    </section>
  );
}

function Composer({
  agent,
  running,
  onSend,
  onStop,
}: {
  agent?: string;
  running: boolean;
  onSend: (text: string) => boolean;
  onStop: () => void;
}) {
  const [text, setText] = useState('');
  const send = (event: Event) => {
    event.preventDefault();
    if (onSend(text.trim())) setText('');
  };
  return (
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
        <button type="button" class="danger" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" class="primary" disabled={!agent || !text.trim()}>
          Send
        </button>
      )}
    </form>
  );
}

/** The answer, unless the last step of the top run already shows it. */
function separateAnswer(turn: Turn): string | undefined {
  const answer = turn.tree.answer;
  if (answer === undefined || turn.running) return undefined;
  const run = turn.tree.roots.find((n): n is RunNode => n.kind === 'run');
  const steps = run?.children.filter((n): n is StepNode => n.kind === 'step') ?? [];
  return steps.at(-1)?.text.trim() === answer.trim() ? undefined : answer;
}

function TurnView({ turn, onAnswer }: { turn: Turn; onAnswer: (approvalId: string, approved: boolean, reason?: string) => void }) {
  const usage = turnUsage(turn.tree);
  const done = turn.done;
  const answer = separateAnswer(turn);
  if (turn.legacy && turn.stored)
    return (
      <li class="turn">
        <SessionHistory messages={turn.stored} />
      </li>
    );
  return (
    <li class="turn">
      {turn.message ? (
        <div class="message message-user">
          <div class="message-role">you</div>
          <p class="user-text">{turn.message}</p>
        </div>
      ) : null}
      <EventTreeView tree={turn.tree} version={turn.tree.version} onAnswer={turn.stopping ? undefined : onAnswer} />
      {answer !== undefined ? (
        <div class="message message-assistant final-answer">
          <div class="message-role">answer</div>
          <Markdown text={answer} />
        </div>
      ) : null}
      <div class="turn-footer muted" role="status">
        {turn.running ? <span>Running… {turn.tree.eventCount} events</span> : null}
        {done ? <span class={`badge badge-${done.status}`}>{done.status}</span> : null}
        {done?.error && done.status !== 'cancelled' ? <span class="error-text">{done.error.message}</span> : null}
        {usage ? (
          <span>
            turn: <UsageText usage={usage} />
          </span>
        ) : null}
        {turn.notice ? <span>{turn.notice}</span> : null}
        {turn.malformed ? <span class="error-text">Skipped a {turn.malformed}</span> : null}
      </div>
      {turn.error ? <ErrorBox error={turn.error} /> : null}
    </li>
  );
}
