/** Stored messages of a session: user and assistant text (a stopped run's partial answer marked), tool calls and results (expandable). */
import type { MessagePart, SessionMessage } from './api-types.js';
import { Markdown, ValueView } from './ui.js';

export function SessionHistory({ messages }: { messages: readonly SessionMessage[] }) {
  const shown = messages.filter((m) => m.role !== 'system');
  if (shown.length === 0) return null;
  return (
    <ol class="history" aria-label="session history">
      {shown.map((message, i) => (
        <li key={i} class={`message message-${message.role}`}>
          <div class="message-role">
            {message.role}
            {message.agent ? <span class="muted"> · {message.agent}</span> : null}
            {message.interrupted ? <span class="muted"> · stopped</span> : null}
          </div>
          {typeof message.content === 'string' ? (
            <Markdown text={message.content} />
          ) : (
            message.content.map((part, j) => <Part key={j} part={part} role={message.role} />)
          )}
        </li>
      ))}
    </ol>
  );
}

function Part({ part, role }: { part: MessagePart; role: SessionMessage['role'] }) {
  switch (part.type) {
    case 'text':
      return role === 'user' ? <p class="user-text">{part.text}</p> : <Markdown text={part.text ?? ''} />;
    case 'reasoning':
      return (
        <details class="reasoning">
          <summary>Reasoning</summary>
          <div class="reasoning-text">{part.text}</div>
        </details>
      );
    case 'tool-call':
      return (
        <details class="tool-args">
          <summary>
            call <span class="tool-name">{part.toolName}</span>
          </summary>
          <ValueView value={part.input} />
        </details>
      );
    case 'tool-result':
      return (
        <details class="tool-result">
          <summary>
            result of <span class="tool-name">{part.toolName}</span>
          </summary>
          <ValueView value={toolOutput(part.output)} />
        </details>
      );
    default:
      return <p class="muted">[{part.type}]</p>;
  }
}

/** The value of a stored tool result (`{ type: 'json' | 'text', value }`). */
function toolOutput(output: unknown): unknown {
  if (output && typeof output === 'object' && 'value' in output) return (output as { value: unknown }).value;
  return output;
}
