import type { AgentEvent } from '../../types/events.js';

/** What one run event adds to an OpenAI-style answer: answer text, or progress shown as reasoning. */
export type AnswerPiece = { kind: 'text'; delta: string } | { kind: 'reasoning'; delta: string };

/** A short JSON preview of a tool's input or output. */
function preview(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Turns a run's events into what an OpenAI-API client sees: the answer's text (deltas of the
 * agent and of agents it handed over to; agent tools' own text is not the answer), and progress as
 * reasoning text — the model's reasoning, and one line per server-side tool call and result
 * (`get_weather {"city":"Paris"}` … `get_weather → {"temp":18}`), so a client shows the run is
 * working. Calls of the client's own tools are left out: they are the answer's `tool_calls`.
 */
export class RunNarrator {
  private readonly answerPaths: Set<string>;

  constructor(
    agent: string,
    private readonly clientTools: ReadonlySet<string>,
  ) {
    this.answerPaths = new Set([agent]);
  }

  /** The piece event `e` adds, if any. */
  piece(e: AgentEvent): AnswerPiece | undefined {
    const key = e.path.join('/');
    const answering = this.answerPaths.has(key);
    const who = answering ? '' : `${e.agent}: `;
    switch (e.type) {
      case 'text_delta':
        return answering ? { kind: 'text', delta: e.delta } : undefined;
      case 'reasoning_delta':
        return answering ? { kind: 'reasoning', delta: e.delta } : undefined;
      case 'handoff':
        this.answerPaths.add(`${key}/${e.to}`);
        return { kind: 'reasoning', delta: `\nHanding over to ${e.to}.\n` };
      case 'tool_call':
        if (answering && this.clientTools.has(e.toolName)) return undefined;
        return { kind: 'reasoning', delta: `\n${who}${e.toolName} ${preview(e.input)}\n` };
      case 'tool_result':
        if (answering && this.clientTools.has(e.toolName)) return undefined;
        return { kind: 'reasoning', delta: `${who}${e.toolName} ${e.isError ? 'failed: ' : '→ '}${preview(e.output)}\n` };
      case 'approval_required':
        return { kind: 'reasoning', delta: `\n${who}${e.toolName} waits for approval: ${e.prompt}\n` };
      case 'retry':
        return {
          kind: 'reasoning',
          delta: `\n${who}the model call failed (${e.error.message}); retrying in ${Math.round(e.delayMs / 1000)} s\n`,
        };
      default:
        return undefined;
    }
  }
}
